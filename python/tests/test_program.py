"""Models, pass pipelines, errors: the same IR as dist-gen and dist-opt."""

import pytest

import distir

GPT = dict(layers=2, hidden=64, heads=4, seq=16, vocab=96, batch=8)


def test_gpt_ir_equals_dist_gen(tool):
    expected = tool("dist-gen", "gpt", "--layers", 2, "--hidden", 64, "--heads", 4,
                    "--seq", 16, "--vocab", 96, "--batch", 8).stdout
    assert str(distir.gpt(**GPT)) == expected


def test_mlp_ir_equals_dist_gen(tool):
    expected = tool("dist-gen", "mlp", "--layers", 3, "--hidden", 32, "--batch", 4).stdout
    assert str(distir.mlp(layers=3, hidden=32, batch=4)) == expected


def test_parallelize_equals_dist_opt(tool, tmp_path):
    forward = distir.gpt(**GPT)
    path = tmp_path / "fwd.mlir"
    forward.save(path)
    expected = tool("dist-opt", path, "--dist-autodiff=optimizer=sgd",
                    "--dist-parallelize=dp=2 tp=2 pp=2 microbatches=2 schedule=gpipe").stdout
    placed = forward.train_step(optimizer="sgd").parallelize(
        dp=2, tp=2, pp=2, microbatches=2, schedule="gpipe")
    assert str(placed) == expected
    # Programs are values: the forward program is unchanged.
    assert str(forward) == path.read_text()


def test_load_and_functions(tmp_path):
    path = tmp_path / "m.mlir"
    distir.mlp(layers=1, hidden=8, batch=2).save(path)
    program = distir.load(path)
    assert program.functions == ["mlp"]
    assert str(distir.parse(str(program))) == str(program)


def test_errors_carry_the_diagnostic():
    step = distir.gpt(**GPT).train_step()
    with pytest.raises(distir.Error, match="tp=3"):
        step.parallelize(tp=3)
    with pytest.raises(distir.Error, match="heads"):
        distir.gpt(layers=1, hidden=64, heads=5, seq=8, vocab=16, batch=2)
    with pytest.raises(distir.Error):
        distir.parse("func.func @f( {")
    with pytest.raises(distir.Error, match="no-such-option"):
        step.parallelize(no_such_option=1)
    # One line, as the tools print it.
    try:
        step.parallelize(dp=3)
    except distir.Error as error:
        assert "\n" not in str(error)


def test_recompute_and_options():
    step = distir.gpt(**GPT).train_step(optimizer="adam", lr=0.01)
    placed = step.recompute("selective").parallelize(
        dp=2, tp=2, sequence_parallel=True, grad_bucket_mb=1)
    text = str(placed)
    assert "dist.recomputed" in text
    assert "reduce_scatter" in text
