"""What simulate, search and run return: the tools' outputs as objects.

Every number comes from the C++ libraries the tools use, through the JSON the
tools write (dist-sim --report, dist-search --json), so it equals the tools'
output bit for bit.
"""

from __future__ import annotations

import html
import json
from typing import Any, Dict, List, Optional

_GIB = float(1 << 30)


def _pandas():
    import pandas  # noqa: PLC0415 (optional dependency)
    return pandas


def _pyplot():
    import matplotlib  # noqa: PLC0415
    import matplotlib.pyplot as plt  # noqa: PLC0415
    return plt


class Report:
    """One simulated step (dist-sim): step time, busy / comm / idle per
    device class, the memory breakdown at the peak and the top ops."""

    def __init__(self, raw: Dict[str, Any]):
        self._report = json.loads(raw["report"])
        self.summary: str = raw["summary"]
        self._plot = json.loads(raw["plot"]) if "plot" in raw else None
        self._html: Optional[str] = raw.get("html")

    # The figures of dist-sim's report.
    @property
    def step_time_s(self) -> float:
        return self._report["step_time_s"]

    @property
    def peak_memory_bytes(self) -> int:
        return self._report["peak_memory_bytes"]

    @property
    def memory_capacity_bytes(self) -> int:
        return self._report["memory_capacity_bytes"]

    @property
    def fits(self) -> bool:
        return self._report["fits"]

    @property
    def flops(self) -> float:
        return self._report["flops"]

    @property
    def samples_per_s(self) -> Optional[float]:
        return self._report.get("samples_per_s")

    @property
    def top_ops(self) -> List[Dict[str, Any]]:
        return self._report["top_ops"]

    @property
    def device_classes(self) -> List[Dict[str, Any]]:
        """Per class of identical devices: devices ("0-3"), compute_s,
        comm_s, idle_s, peak_memory_bytes, memory_at_peak (bytes by kind).
        Needs ``simulate(..., timeline=True)`` (the default)."""
        if self._plot is None:
            raise ValueError("simulated without timeline=True")
        return [{k: v for k, v in c.items() if k != "memory"}
                for c in self._plot["classes"]]

    def to_dict(self) -> Dict[str, Any]:
        """dist-sim --report's JSON object."""
        return json.loads(json.dumps(self._report))

    def to_pandas(self):
        """One row per device: id, compute_s, comm_s, idle_s,
        peak_memory_bytes, resident_bytes and the bytes at the peak by kind."""
        rows = []
        for device in self._report["devices"]:
            row = {k: v for k, v in device.items() if k != "memory_at_peak"}
            row.update({f"peak_{k}_bytes": v for k, v in device["memory_at_peak"].items()})
            rows.append(row)
        return _pandas().DataFrame(rows)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(c['devices'])}</td><td>{c['compute_s'] * 1e3:.3f}</td>"
            f"<td>{c['comm_s'] * 1e3:.3f}</td><td>{c['idle_s'] * 1e3:.3f}</td>"
            f"<td>{c['peak_memory_bytes'] / _GIB:.2f}</td></tr>"
            for c in (self.device_classes if self._plot else []))
        return (f"<p><b>step time {self.step_time_s * 1e3:.3f} ms</b>, peak memory "
                f"{self.peak_memory_bytes / _GIB:.2f} GiB of "
                f"{self.memory_capacity_bytes / _GIB:.2f} GiB"
                f"{'' if self.fits else ' (does not fit)'}</p>"
                "<table><tr><th>devices</th><th>compute ms</th><th>comm ms</th>"
                f"<th>idle ms</th><th>peak GiB</th></tr>{rows}</table>")

    def __repr__(self) -> str:
        return f"<distir.Report step {self.step_time_s * 1e3:.3f} ms, peak {self.peak_memory_bytes / _GIB:.2f} GiB>"

    def save_html(self, path: str) -> None:
        """The page dist-sim --html writes."""
        if self._html is None:
            raise ValueError("simulated without timeline=True")
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._html)

    def plot_timeline(self, ax=None):
        """Compute and communication per device class and stream over the
        step (matplotlib); gaps are idle time. Returns the axes."""
        if self._plot is None:
            raise ValueError("simulated without timeline=True")
        plt = _pyplot()
        data = self._plot
        rows = sorted({(s[0], s[1]) for s in data["spans"]})
        if ax is None:
            _, ax = plt.subplots(figsize=(10, 1 + 0.35 * max(1, len(rows))))
        for index, (cls, stream) in enumerate(rows):
            bars = [(s[2] * 1e3, (s[3] - s[2]) * 1e3) for s in data["spans"]
                    if s[0] == cls and s[1] == stream]
            ax.broken_barh(bars, (index - 0.4, 0.8),
                           color="tab:blue" if stream == 0 else "tab:orange")
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([f"devices {data['classes'][c]['devices']} · {data['streams'][s]}"
                            for c, s in rows])
        ax.invert_yaxis()
        ax.set_xlim(0, self.step_time_s * 1e3)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("device class · stream")
        ax.set_title("Timeline (blue: compute, orange: communication, gaps: idle)")
        ax.figure.tight_layout()
        return ax

    def plot_memory(self, ax=None):
        """Memory in use over the step per device class, and the breakdown at
        each class's peak (two matplotlib axes). Returns the axes."""
        if self._plot is None:
            raise ValueError("simulated without timeline=True")
        plt = _pyplot()
        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(12, 4))
        curve_ax, bar_ax = ax
        classes = self._plot["classes"]
        for c in classes:
            points = c["memory"]
            curve_ax.step([p[0] * 1e3 for p in points], [p[1] / _GIB for p in points],
                          where="post", label=f"devices {c['devices']}")
        curve_ax.set_xlabel("time (ms)")
        curve_ax.set_ylabel("memory (GiB)")
        curve_ax.set_title("Memory in use over the step")
        curve_ax.legend()
        kinds = list(classes[0]["memory_at_peak"]) if classes else []
        bottom = [0.0] * len(classes)
        names = [c["devices"] for c in classes]
        for kind in kinds:
            values = [c["memory_at_peak"][kind] / _GIB for c in classes]
            bar_ax.bar(names, values, bottom=bottom, label=kind.replace("_", " "))
            bottom = [b + v for b, v in zip(bottom, values)]
        bar_ax.set_xlabel("device class")
        bar_ax.set_ylabel("memory at the peak (GiB)")
        bar_ax.set_title("Breakdown at the peak")
        bar_ax.legend(fontsize="small")
        curve_ax.figure.tight_layout()
        return ax


class Row(dict):
    """One simulated configuration of a search (dist-search --json's row),
    with its scenario's model, cluster and devices; keys are attributes too
    (``row.step_time_s``, ``row.command``)."""

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def parallelism_form(row: Dict[str, Any]) -> str:
    """"dp×tp", "pp", ... : the axes of degree > 1 (the pages' colours)."""
    parts = [axis for axis in ("dp", "tp", "pp") if row[axis] > 1]
    return "×".join(parts) if parts else "one device"


def pareto_front(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The rows no other row beats in both step time and peak memory, by
    increasing memory (as the search page draws it)."""
    front, best = [], float("inf")
    for row in sorted(rows, key=lambda r: (r["peak_memory_bytes"], r["step_time_s"])):
        if row["step_time_s"] < best:
            best = row["step_time_s"]
            front.append(row)
    return front


class Results:
    """A search (dist-search): every simulated configuration, best first per
    scenario, each with the command line that reproduces it."""

    def __init__(self, raw: Dict[str, Any]):
        self._json = json.loads(raw["json"])
        self.tables: str = raw["tables"]
        self._html: str = raw["html"]
        self.scenarios: List[Dict[str, Any]] = self._json["scenarios"]
        self.rows: List[Row] = [
            Row(model=s["model"], cluster=s["cluster"], devices=s["devices"], **c)
            for s in self.scenarios for c in s["configurations"]]

    def to_dict(self) -> Dict[str, Any]:
        """dist-search --json's object."""
        return json.loads(json.dumps(self._json))

    def to_pandas(self):
        """One row per simulated configuration (dist-search --csv's columns)."""
        return _pandas().DataFrame(self.rows)

    def best(self) -> Row:
        """The best configuration that fits (the first row of the table)."""
        for row in self.rows:
            if row["fits"]:
                return row
        raise ValueError("no configuration fits")

    def save_html(self, path: str) -> None:
        """The page dist-search --html writes."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._html)

    def _repr_html_(self) -> str:
        head = ("<tr><th>model</th><th>dp</th><th>tp</th><th>pp</th><th>mb</th>"
                "<th>step ms</th><th>peak GiB</th><th>fits</th></tr>")
        body = "".join(
            f"<tr><td>{html.escape(str(r['model']))}</td><td>{r['dp']}</td><td>{r['tp']}</td>"
            f"<td>{r['pp']}</td><td>{r['microbatches']}</td><td>{r['step_time_s'] * 1e3:.3f}</td>"
            f"<td>{r['peak_memory_bytes'] / _GIB:.2f}</td><td>{r['fits']}</td></tr>"
            for r in self.rows[:10])
        return f"<p>{len(self.rows)} simulated configurations (best 10)</p><table>{head}{body}</table>"

    def __repr__(self) -> str:
        return f"<distir.Results {len(self.rows)} configurations>"

    def plot(self, ax=None, scenario: int = 0):
        """Step time against peak memory for every simulated configuration of
        one scenario, coloured by parallelism form, with the Pareto front and
        the device memory line (matplotlib). Returns the axes."""
        plt = _pyplot()
        if ax is None:
            _, ax = plt.subplots(figsize=(8, 5))
        s = self.scenarios[scenario]
        rows = s["configurations"]
        for form in sorted({parallelism_form(r) for r in rows}):
            chosen = [r for r in rows if parallelism_form(r) == form]
            ax.scatter([r["peak_memory_bytes"] / _GIB for r in chosen],
                       [r["step_time_s"] * 1e3 for r in chosen], label=form, s=18)
        front = pareto_front(rows)
        ax.step([r["peak_memory_bytes"] / _GIB for r in front],
                [r["step_time_s"] * 1e3 for r in front], where="pre", color="black",
                linewidth=1.2, label="Pareto front")
        ax.axvline(s["memory_capacity_bytes"] * s["max_memory_fraction"] / _GIB,
                   color="tab:red", linestyle="--", label="device memory")
        ax.set_xscale("log")
        ax.set_xlabel("peak memory per device (GiB)")
        ax.set_ylabel("step time (ms)")
        ax.set_title(f"{s['model']} on {s['devices']} devices of {s['cluster']}")
        ax.legend(fontsize="small")
        ax.figure.tight_layout()
        return ax


class RunResult:
    """A run (dist-run): the global results as NumPy arrays, and with a
    reference the reference's results and dist-run's comparison."""

    def __init__(self, raw: Dict[str, Any]):
        self.outputs = _arrays(raw["outputs"])
        self.arguments = raw["arguments"]
        self.reference_outputs = _arrays(raw.get("reference_outputs", []))
        self.comparison: Optional[str] = raw.get("comparison")
        self.passed: Optional[bool] = raw.get("passed")

    def __getitem__(self, name: str):
        return self.outputs[name]

    def __repr__(self) -> str:
        verdict = "" if self.passed is None else f", {'PASS' if self.passed else 'FAIL'}"
        return f"<distir.RunResult {len(self.outputs)} outputs{verdict}>"


def _arrays(pairs) -> Dict[str, Any]:
    import io  # noqa: PLC0415

    import numpy  # noqa: PLC0415
    return {name: numpy.load(io.BytesIO(data)) for name, data in pairs}
