"""DeviceMesh, LayoutMap, run, from_torch and the matplotlib plots."""

import numpy as np
import pytest

import distir

GPT = dict(layers=2, hidden=64, heads=4, seq=16, vocab=96, batch=8)


def test_device_mesh():
    mesh = distir.DeviceMesh((2, 2, 2), ("pp", "dp", "tp"))
    assert mesh.size == 8 and mesh.coordinate(5) == (1, 0, 1)
    assert mesh.rank((1, 0, 1)) == 5
    assert mesh.submesh(pp=1).devices == [4, 5, 6, 7]
    assert mesh.submesh(pp=1).axis_names == ("dp", "tp")
    assert mesh.groups("tp") == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert mesh.groups("dp")[0] == [0, 2]
    assert distir.DeviceMesh((4, 2), ("batch", "model")).parallel_degrees() == \
        {"dp": 4, "tp": 2, "pp": 1}
    with pytest.raises(distir.Error, match="order"):
        distir.DeviceMesh((2, 2), ("tp", "dp")).parallel_degrees()
    with pytest.raises(distir.Error, match="expert"):
        distir.DeviceMesh((2,), ("expert",)).parallel_degrees()
    with pytest.raises(distir.Error, match="devices"):
        distir.DeviceMesh((2,), ("dp",), devices=[1, 0]).parallel_degrees()


def test_parallelize_with_mesh_equals_degrees():
    step = distir.gpt(**GPT).train_step()
    mesh = distir.DeviceMesh((2, 2), ("data", "model"))
    assert str(step.parallelize(mesh=mesh)) == str(step.parallelize(dp=2, tp=2))
    with pytest.raises(distir.Error, match="tp=4"):
        step.parallelize(mesh=mesh, tp=4)


def test_layout_map():
    mesh = distir.DeviceMesh((2,), ("model",))
    layout_map = distir.LayoutMap(mesh)
    layout_map[r".*mlp\.fc1\.weight"] = (None, "model")
    layout_map[r".*mlp\.fc2\.weight"] = ("model", None)
    assert layout_map["layers.0.mlp.fc1.weight"] == (None, "model")
    assert layout_map["embed"] is None
    with pytest.raises(distir.Error):
        layout_map["x"] = ("expert",)
    step = distir.gpt(**GPT).train_step()
    placed = step.parallelize(mesh=mesh, layout_map=layout_map)
    assert str(placed) != str(step.parallelize(tp=2))  # only the MLP is split
    assert distir.simulate(placed).step_time_s > 0


def test_run_against_reference():
    step = distir.mlp(layers=2, hidden=16, batch=8).train_step(optimizer="sgd")
    placed = step.parallelize(dp=2, tp=2)
    result = distir.run(placed, reference=step, seed=3)
    assert result.passed, result.comparison
    for name, value in result.outputs.items():
        np.testing.assert_allclose(value, result.reference_outputs[name], rtol=1e-4, atol=1e-5)
    # Given inputs replace the generated ones.
    name, _, shape = result.arguments[0]
    ones = distir.run(step, inputs={name: np.ones(shape, np.float32)})
    assert set(ones.outputs) == set(result.outputs)


def test_from_torch():
    torch = pytest.importorskip("torch")
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    program = distir.from_torch(model, torch.randn(2, 8))
    assert "dist.matmul" in str(program)
    outputs = distir.run(program, inputs={"input0": np.ones((2, 8), np.float32)}).outputs
    expected = model(torch.ones(2, 8)).detach().numpy()
    np.testing.assert_allclose(next(iter(outputs.values())), expected, rtol=1e-5, atol=1e-6)


def test_plots(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    report = distir.simulate(distir.gpt(**GPT).train_step().parallelize(dp=2, pp=2, microbatches=2))
    ax = report.plot_timeline()
    assert ax.get_xlabel() == "time (ms)"
    curve, bars = report.plot_memory()
    assert curve.get_ylabel() == "memory (GiB)"
    results = distir.search("mlp-xs", global_batch=8, devices=2)
    ax = results.plot()
    assert ax.get_ylabel() == "step time (ms)"
    ax.figure.savefig(tmp_path / "search.png")
    assert (tmp_path / "search.png").stat().st_size > 1000
