#!/usr/bin/python3
"""distir from Python, end to end (docs/python.md).

A PyTorch model -> ONNX import -> training step -> parallelization on a
device mesh with a layout map -> proof by execution -> simulated step and its
pictures -> configuration search -> a pipelined GPT's timeline.

    PYTHONPATH=build/python /usr/bin/python3 examples/walkthrough.py [OUTPUT_DIR]

Pictures and pages go to OUTPUT_DIR (default: a temporary directory).
scripts/demo.sh runs it after the command-line tour; ctest runs it as
python-walkthrough.
"""

import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import distir  # noqa: E402


class TinyRegressor(torch.nn.Module):
    """Two linear layers and a mean squared error: the loss is the output."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 256)
        self.fc2 = torch.nn.Linear(256, 64)

    def forward(self, x, y):
        d = self.fc2(torch.relu(self.fc1(x))) - y
        return (d * d).mean()


def section(title):
    print(f"\n== {title}")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="distir-walkthrough-")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    net = TinyRegressor()
    x, y = torch.randn(32, 64), torch.randn(32, 64)

    section("1. Import the PyTorch model (torch.onnx -> dist dialect)")
    model = distir.from_torch(net, (x, y), input_names=["x", "y"])
    print(str(model).splitlines()[1][:120] + " ...")
    loss = distir.run(model, inputs={"x": x.numpy(), "y": y.numpy()}).outputs
    print(f"loss in distir {float(next(iter(loss.values()))):.6f}, "
          f"in PyTorch {float(net(x, y)):.6f}")

    section("2. Training step (dist-autodiff, SGD)")
    step = model.train_step(optimizer="sgd", lr=0.01)
    print("functions:", step.functions)

    section("3. Parallelize on a 2x2 mesh (data x model) with a layout map")
    mesh = distir.DeviceMesh((2, 2), ("data", "model"))
    print(mesh, "model groups:", mesh.groups("model"))
    layout_map = distir.LayoutMap(mesh)
    layout_map[r"^fc1\.weight$"] = ("model", None)  # [out, in]: column-parallel
    layout_map[r"^fc1\.bias$"] = ("model",)
    layout_map[r"^fc2\.weight$"] = (None, "model")  # row-parallel
    placed = step.parallelize(mesh=mesh, layout_map=layout_map)

    section("4. Proof by execution: the placed step against the original")
    check = distir.run(placed, reference=step, seed=1)
    print(check.comparison.strip().splitlines()[-1])
    assert check.passed

    section("5. Simulate one step on a DGX A100 and draw it")
    report = distir.simulate(placed, cluster="dgx-a100")
    print(report.summary.split("\n\n")[0])
    report.plot_timeline().figure.savefig(os.path.join(out, "mlp-timeline.png"))
    report.plot_memory()[0].figure.savefig(os.path.join(out, "mlp-memory.png"))
    report.save_html(os.path.join(out, "mlp-step.html"))

    section("6. Search every configuration of a GPT on the node")
    gpt = distir.gpt(layers=4, hidden=256, heads=8, seq=128, vocab=1000, batch=16)
    results = distir.search(gpt, cluster="dgx-a100", global_batch=16, top=3)
    frame = results.to_pandas()
    print(frame[["dp", "tp", "pp", "microbatches", "step_time_s", "peak_memory_bytes"]].head(3))
    print("best:", results.best().command)
    results.plot().figure.savefig(os.path.join(out, "gpt-search.png"))
    results.save_html(os.path.join(out, "gpt-search.html"))

    section("7. The best configuration, rebuilt and simulated: the same step time")
    best = results.best()
    placed_gpt = gpt.train_step(optimizer="adam").parallelize(
        dp=best.dp, tp=best.tp, pp=best.pp, microbatches=best.microbatches,
        schedule=best.schedule or None)
    gpt_report = distir.simulate(placed_gpt, cluster="dgx-a100")
    print(f"search: {best.step_time_s!r} s, simulate: {gpt_report.step_time_s!r} s")
    assert best.method != "exact" or gpt_report.step_time_s == best.step_time_s
    gpt_report.plot_timeline().figure.savefig(os.path.join(out, "gpt-timeline.png"))
    print(f"\npictures and pages in {out}")


if __name__ == "__main__":
    main()
