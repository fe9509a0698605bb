"""distir from Python: models, training steps, parallelization, simulation,
search and execution, on the same C++ libraries as the command-line tools
(dist-gen, dist-translate, dist-opt, dist-sim, dist-search, dist-run), so
that every number equals the tools' output bit for bit.

>>> import distir
>>> step = distir.gpt(layers=2, hidden=64, heads=4, seq=32, vocab=128, batch=8).train_step()
>>> placed = step.parallelize(dp=2, tp=2)
>>> report = distir.simulate(placed, cluster="dgx-a100")
>>> report.step_time_s > 0
True

Errors raise :class:`distir.Error` with the tools' one-line diagnostic.
Long calls (passes, simulation, search, runs) release the GIL. Ctrl-C stops
``search`` within one job and raises KeyboardInterrupt; during the other calls
(which have no cancellation point) Python sees it when the call returns.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _distir
from ._distir import Error

Error.__module__ = "distir"
from .mesh import DeviceMesh, LayoutMap
from .results import Report, Results, Row, RunResult, pareto_front, parallelism_form

__all__ = [
    "Error", "Program", "DeviceMesh", "LayoutMap", "Report", "Results", "Row",
    "RunResult", "gpt", "mlp", "load", "parse", "import_onnx", "from_torch",
    "simulate", "search", "run", "pareto_front", "parallelism_form",
]

# GptConfig's defaults (include/distir/Models/Models.h): a generated GPT with
# them is the generator spec dist-search understands.
_GPT_DEFAULT_DROPOUT = 0.1


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if re.search(r"[\s{}]", text):
        return "{" + text + "}"
    return text


def _pass(name: str, options: Dict[str, Any]) -> str:
    """``dist-parallelize{dp=2 tp=2}`` from keyword arguments (None: the
    pass's default; underscores become dashes: first_layers=2 is
    first-layers=2)."""
    given = [f"{key.replace('_', '-')}={_option_value(value)}"
             for key, value in options.items() if value is not None]
    return f"{name}{{{' '.join(given)}}}" if given else name


class Program:
    """A module of the dist dialect (a model, a training step, a placed
    step). Transformations return a new Program; ``str(program)`` is the IR
    (what dist-gen / dist-opt print)."""

    def __init__(self, impl: "_distir.Program", spec: Optional[str] = None,
                 keep: Sequence[Any] = (), weights: Optional[str] = None):
        self._impl = impl
        # dist-search's generator spec for a generated forward program.
        self._spec = spec
        # Objects the program's files depend on (temporary layout maps and
        # ONNX files).
        self._keep = list(keep)
        # The ONNX model whose initializers run() feeds by default.
        self._weights = weights

    def _derived(self, impl: "_distir.Program", keep: Optional[List[Any]] = None) -> "Program":
        return Program(impl, keep=self._keep if keep is None else keep,
                       weights=self._weights)

    def __str__(self) -> str:
        return str(self._impl)

    def __repr__(self) -> str:
        return f"<distir.Program functions={self.functions}>"

    @property
    def functions(self) -> List[str]:
        """Names of the module's functions."""
        return self._impl.functions()

    def save(self, path: str) -> None:
        """Writes the IR to `path` (readable by the tools and distir.load)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(str(self))

    def apply(self, pipeline: str) -> "Program":
        """Runs a dist-opt pass pipeline, e.g.
        ``"dist-autodiff{optimizer=sgd},dist-parallelize{dp=2}"``."""
        return self._derived(self._impl.apply(pipeline))

    def train_step(self, optimizer: str = "adam", **options: Any) -> "Program":
        """The training step (dist-autodiff): forward, backward and the
        optimizer update. Options: lr, beta1, beta2, epsilon, precision
        (model, mixed, auto), grads, clip_grad, loss_scale, func."""
        return self.apply(_pass("dist-autodiff", dict(optimizer=optimizer, **options)))

    def parallelize(self, dp: Optional[int] = None, tp: Optional[int] = None,
                    pp: Optional[int] = None, microbatches: Optional[int] = None,
                    schedule: Optional[str] = None, *,
                    mesh: Optional[DeviceMesh] = None,
                    layout_map: Optional[LayoutMap] = None,
                    **options: Any) -> "Program":
        """Data, tensor and pipeline parallelism on one pp x dp x tp mesh
        (dist-parallelize). Every option of the pass is a keyword:
        interleave, first_layers, last_layers, cluster, scatter_gather,
        grad_bucket_mb, sequence_parallel, zero, mesh_name (the pass's
        ``mesh`` symbol). `mesh` (a DeviceMesh) gives dp, tp and pp by its
        axes; `layout_map` replaces the Megatron layouts."""
        degrees = {"dp": dp, "tp": tp, "pp": pp}
        if mesh is not None:
            for axis, extent in mesh.parallel_degrees().items():
                if degrees[axis] not in (None, extent):
                    raise Error(f"{axis}={degrees[axis]} but the mesh has {axis}={extent}")
                degrees[axis] = extent
        if "mesh_name" in options:
            options["mesh"] = options.pop("mesh_name")
        keep = list(self._keep)
        if layout_map is not None:
            if mesh is not None and layout_map.mesh is not mesh:
                layout_map.mesh.parallel_degrees()
            layout_file = tempfile.NamedTemporaryFile(
                "w", suffix=".json", prefix="distir-layout-", delete=False)
            layout_file.write(layout_map.to_json())
            layout_file.close()
            keep.append(_TemporaryFile(layout_file.name))
            options["layout_map"] = layout_file.name
        pipeline = _pass("dist-parallelize", dict(
            degrees, microbatches=microbatches, schedule=schedule, **options))
        return self._derived(self._impl.apply(pipeline), keep)

    def recompute(self, mode: str = "full") -> "Program":
        """Activation recomputation (dist-recompute): full, minimal or
        selective. Before parallelize."""
        return self.apply(_pass("dist-recompute", {"mode": mode}))


class _TemporaryFile:
    """Removes a file when the last program that refers to it goes."""

    def __init__(self, path: str):
        self.path = path

    def __del__(self):
        try:
            os.unlink(self.path)
        except OSError:
            pass


def gpt(layers: int, hidden: int, heads: int, seq: int, vocab: int, batch: int,
        dtype: str = "f32", dropout: float = _GPT_DEFAULT_DROPOUT,
        tie_embeddings: bool = True, fused_attention: bool = False) -> Program:
    """A GPT decoder's forward program (dist-gen gpt)."""
    impl = _distir.gpt(layers, hidden, heads, seq, vocab, batch, dtype, dropout,
                       tie_embeddings, fused_attention)
    spec = None
    if dropout == _GPT_DEFAULT_DROPOUT and tie_embeddings and not fused_attention:
        spec = (f"gpt:layers={layers},hidden={hidden},heads={heads},seq={seq},"
                f"vocab={vocab},dtype={dtype}")
    return Program(impl, spec)


def mlp(layers: int, hidden: int, batch: int, input_dim: int = 0,
        dtype: str = "f32") -> Program:
    """DistIR's MLP (dist-gen mlp): layers x (matmul, relu), MSE loss."""
    spec = f"mlp:layers={layers},hidden={hidden},dtype={dtype}"
    if input_dim:
        spec += f",input={input_dim}"
    return Program(_distir.mlp(layers, hidden, batch, input_dim, dtype), spec)


def load(path: str) -> Program:
    """Reads a .mlir file."""
    return Program(_distir.load(os.fspath(path)))


def parse(text: str, name: str = "<string>") -> Program:
    """Parses IR text."""
    return Program(_distir.parse(text, name))


def import_onnx(path: str, input_shapes: Optional[Dict[str, Sequence[int]]] = None,
                embed_weights: bool = False, function_name: str = "main") -> Program:
    """Imports an ONNX model (dist-translate --import-onnx): graph inputs
    become data arguments, initializers parameters (which ``run`` then
    reads from `path`, as dist-run --weights). `input_shapes` fixes symbolic
    dimensions (--input-shape)."""
    shapes = {k: [int(d) for d in v] for k, v in (input_shapes or {}).items()}
    return Program(_distir.import_onnx(os.fspath(path), shapes, embed_weights, function_name),
                   weights=None if embed_weights else os.path.abspath(os.fspath(path)))


def from_torch(module: Any, example_inputs: Union[Any, Sequence[Any]],
               input_names: Optional[Sequence[str]] = None, opset: int = 17,
               **import_options: Any) -> Program:
    """Exports a torch.nn.Module with torch.onnx at `example_inputs` and
    imports it: parameters are named by the module's state_dict keys, and
    ``run`` feeds the module's own weights to them."""
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        raise Error("from_torch needs PyTorch (Debian: apt-get install python3-torch)") from None
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    handle, path = tempfile.mkstemp(prefix="distir-torch-", suffix=".onnx")
    os.close(handle)
    onnx_file = _TemporaryFile(path)
    names = list(input_names) if input_names else [f"input{i}" for i in range(len(example_inputs))]
    module.eval()
    torch.onnx.export(module, tuple(example_inputs), path, input_names=names,
                      opset_version=opset, do_constant_folding=False)
    program = import_onnx(path, **import_options)
    program._keep.append(onnx_file)
    return program


def simulate(program: Program, cluster: str = "dgx-a100", framework: str = "megatron-core",
             profile: Optional[str] = None, overlap: bool = True, top: int = 10,
             samples_per_step: float = 0, entry: str = "", timeline: bool = True) -> Report:
    """One simulated step of a placed program (dist-sim): cluster is
    dgx-a100[:nodes=N], dgx-h100[:nodes=N] or a JSON file. With `timeline`
    the report keeps what its plots and HTML page need."""
    options = _distir.SimulateOptions()
    options.cluster = cluster
    options.framework = framework
    options.profile = profile or ""
    options.overlap = overlap
    options.top = top
    options.samples_per_step = samples_per_step
    options.entry = entry
    options.timeline = timeline
    return Report(_distir.simulate(program._impl, options))


def _list(value: Any) -> list:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def search(model: Union[str, Program, Sequence[Union[str, Program]]],
           cluster: str = "dgx-a100", global_batch: Union[None, int, Sequence[int]] = None,
           devices: Union[None, int, Sequence[int]] = None, **options: Any) -> Results:
    """The best parallel configurations (dist-search). `model`: a generated
    Program (its generator spec), another forward Program (written to a
    temporary .mlir file, which the rows' commands name), a spec such as
    "gpt3-175b" or "gpt:layers=...", or a list of them. Options, as
    dist-search's: framework, scatter_gather, microbatches, max_devices,
    max_microbatches, schedules, recompute, interleave, sequence_parallel,
    zero, power_of_two, accumulate, max_memory_fraction, optimizer, precision, top,
    simulate_all, build_all, extrapolate, threads."""
    command = _distir.SearchOptions()
    command.cluster = cluster
    command.global_batch = [int(b) for b in _list(global_batch)]
    command.devices = [int(d) for d in _list(devices)]
    listed = {"microbatches", "schedules", "recompute", "interleave", "sequence_parallel",
              "zero"}
    for key, value in options.items():
        if not hasattr(command, key) or key in ("models", "cluster"):
            raise Error(f"search has no option '{key}'")
        if key in listed:
            value = [str(v).lower() if isinstance(v, bool) else v for v in _list(value)]
        setattr(command, key, value)
    with tempfile.TemporaryDirectory(prefix="distir-search-") as directory:
        specs = []
        for index, item in enumerate(_list(model)):
            if isinstance(item, Program):
                if item._spec is None:
                    path = os.path.join(directory, f"model{index}.mlir")
                    item.save(path)
                    specs.append(path)
                else:
                    specs.append(item._spec)
            else:
                specs.append(str(item))
        command.models = specs
        return Results(_distir.search(command))


def run(program: Program, inputs: Optional[Dict[str, Any]] = None,
        reference: Optional[Program] = None, seed: int = 0,
        weights: Optional[str] = None, rtol: float = 1e-4, atol: float = 1e-5,
        entry: str = "", reference_entry: str = "") -> RunResult:
    """Executes a program on the CPU in the global view (dist-run): `inputs`
    are global NumPy arrays by argument name, the others generated from
    `seed` as dist-run does, or read from the ONNX `weights` (by default
    the model an imported program came from). With
    `reference`, it runs on the same inputs and the results are compared
    (``result.passed``, ``result.comparison``)."""
    import numpy  # noqa: PLC0415
    given = {}
    for name, value in (inputs or {}).items():
        buffer = io.BytesIO()
        numpy.save(buffer, numpy.ascontiguousarray(value))
        given[name] = buffer.getvalue()
    return RunResult(_distir.run(program._impl, entry,
                                 reference._impl if reference else None,
                                 reference_entry or entry, given, seed,
                                 weights or program._weights or "",
                                 rtol, atol))
