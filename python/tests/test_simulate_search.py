"""simulate and search: the numbers of dist-sim and dist-search, bit for bit."""

import json

import distir

GPT = dict(layers=2, hidden=64, heads=4, seq=16, vocab=96, batch=8)


def test_simulate_equals_dist_sim(tool, tmp_path):
    placed = distir.gpt(**GPT).train_step().parallelize(dp=2, tp=2, pp=2, microbatches=2)
    path = tmp_path / "step.mlir"
    placed.save(path)
    report_path = tmp_path / "report.json"
    cli = tool("dist-sim", path, "--cluster", "dgx-a100", "--report", report_path)
    report = distir.simulate(placed, cluster="dgx-a100")
    expected = json.loads(report_path.read_text())
    assert report.step_time_s == expected["step_time_s"]  # bit for bit
    assert report.to_dict() == expected
    assert report.summary == cli.stdout
    frame = report.to_pandas()
    assert len(frame) == 8 and "peak_weights_bytes" in frame.columns
    assert "step time" in report._repr_html_()
    classes = report.device_classes
    assert sum(c["num_devices"] for c in classes) == 8
    assert set(classes[0]["memory_at_peak"]) >= {"weights", "gradients"}


def test_simulate_html_equals_dist_sim(tool, tmp_path):
    placed = distir.mlp(layers=2, hidden=32, batch=8).train_step().parallelize(dp=2)
    path = tmp_path / "step.mlir"
    placed.save(path)
    tool("dist-sim", path, "--cluster", "dgx-a100", "--html", tmp_path / "cli.html")
    distir.simulate(placed).save_html(tmp_path / "py.html")
    assert (tmp_path / "py.html").read_text() == (tmp_path / "cli.html").read_text()


def test_simulate_errors():
    forward = distir.mlp(layers=1, hidden=8, batch=2)
    try:
        distir.simulate(forward, cluster="no-such-cluster")
    except distir.Error as error:
        assert "no-such-cluster" in str(error)
    else:
        raise AssertionError("expected distir.Error")


def test_search_equals_dist_search(tool, tmp_path):
    model = distir.mlp(layers=4, hidden=256, batch=16)
    json_path = tmp_path / "s.json"
    cli = tool("dist-search", "mlp:layers=4,hidden=256,dtype=f32", "--cluster", "dgx-a100",
               "--global-batch", 16, "--devices", 4, "--top", 5, "--json", json_path)
    results = distir.search(model, cluster="dgx-a100", global_batch=16, devices=4, top=5)
    expected = json.loads(json_path.read_text())["scenarios"]
    assert [s["configurations"] for s in results.scenarios] == \
        [s["configurations"] for s in expected]
    assert results.tables.splitlines()[3:] == cli.stdout.splitlines()[3:]
    best = results.best()
    assert best.command.startswith("dist-gen mlp") and best.fits
    assert best.step_time_s == expected[0]["configurations"][0]["step_time_s"]
    frame = results.to_pandas()
    assert len(frame) == len(results.rows) > 3
    front = distir.pareto_front(results.rows)
    assert front and all(r in results.rows for r in front)


def test_search_html_equals_dist_search(tool, tmp_path):
    tool("dist-search", "mlp-xs", "--cluster", "dgx-a100", "--global-batch", 8,
         "--devices", 2, "--html", tmp_path / "cli.html")
    results = distir.search("mlp-xs", global_batch=8, devices=2)
    results.save_html(tmp_path / "py.html")
    # The pages differ only in the search's wall time.
    strip = lambda text: [l for l in text.splitlines() if "wall_time_s" not in l]
    assert strip((tmp_path / "py.html").read_text()) == strip((tmp_path / "cli.html").read_text())


def test_search_rejects_unknown_options():
    try:
        distir.search("mlp-xs", global_batch=8, no_such=1)
    except distir.Error as error:
        assert "no_such" in str(error)
    else:
        raise AssertionError("expected distir.Error")


def test_search_stops_on_ctrl_c():
    import os
    import signal
    import threading
    import time

    import pytest
    model = "gpt:layers=24,hidden=2048,heads=16,seq=2048,vocab=51200,dtype=bf16"
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        distir.search(model, global_batch=64)
    timer.join()
    interrupted_after = time.monotonic() - started
    # The search goes on working afterwards.
    assert distir.search("mlp-xs", global_batch=8, devices=2).rows
    assert interrupted_after < 30
