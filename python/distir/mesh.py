"""Device meshes and layout maps, in the vocabulary of Keras and veScale.

dist-parallelize builds one mesh, ``pp x dp x tp`` (axes "pp", "dp", "tp",
row-major, tp innermost: a tensor-parallel group is consecutive device ids and
stage p holds ids [p*dp*tp, (p+1)*dp*tp)). A user's :class:`DeviceMesh` maps
onto it when

* every axis name is one of pp, dp, tp or an alias (``pipeline``/``stage`` for
  pp; ``data``/``batch`` for dp; ``model``/``tensor`` for tp);
* the axes come in the order pp, dp, tp (any of them may be left out: its
  degree is 1);
* its devices are 0 .. size-1 in row-major order.

Anything else (an unknown axis name, axes in another order, a permuted or
offset device list) cannot map and raises :class:`distir.Error`.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._distir import Error

#: Canonical mesh axes of dist-parallelize, outermost first.
CANONICAL_AXES = ("pp", "dp", "tp")

_ALIASES = {
    "pp": "pp", "pipeline": "pp", "pipe": "pp", "stage": "pp",
    "dp": "dp", "data": "dp", "batch": "dp",
    "tp": "tp", "model": "tp", "tensor": "tp",
}


def canonical_axis(name: str) -> str:
    """The dist-parallelize axis ("pp", "dp" or "tp") a user axis name means."""
    try:
        return _ALIASES[name]
    except KeyError:
        raise Error(
            f"mesh axis '{name}' does not map onto dist-parallelize's mesh: "
            f"use pp, dp or tp (or {', '.join(sorted(a for a in _ALIASES if a not in CANONICAL_AXES))})"
        ) from None


class DeviceMesh:
    """An n-dimensional grid of devices with named axes.

    >>> mesh = DeviceMesh((2, 4), ("dp", "tp"))
    >>> mesh.coordinate(5)
    (1, 1)
    >>> mesh.rank((1, 1))
    5
    >>> mesh.submesh(dp=1).devices
    [4, 5, 6, 7]
    """

    def __init__(self, shape: Sequence[int], axis_names: Sequence[str],
                 devices: Optional[Sequence[int]] = None):
        shape = tuple(int(s) for s in shape)
        axis_names = tuple(axis_names)
        if len(shape) != len(axis_names):
            raise Error(f"mesh shape {shape} and axis names {axis_names} differ in length")
        if any(s <= 0 for s in shape):
            raise Error(f"mesh shape {shape} must be positive")
        if len(set(axis_names)) != len(axis_names):
            raise Error(f"mesh axis names {axis_names} repeat a name")
        size = 1
        for s in shape:
            size *= s
        if devices is None:
            devices = list(range(size))
        devices = [int(d) for d in devices]
        if len(devices) != size:
            raise Error(f"mesh of shape {shape} needs {size} devices, got {len(devices)}")
        self.shape: Tuple[int, ...] = shape
        self.axis_names: Tuple[str, ...] = axis_names
        self.devices: List[int] = devices

    @property
    def size(self) -> int:
        """Number of devices."""
        return len(self.devices)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def axis_size(self, name: str) -> int:
        """Devices along axis `name`."""
        return self.shape[self._axis(name)]

    def _axis(self, name: str) -> int:
        if name not in self.axis_names:
            raise Error(f"mesh has no axis '{name}' (axes {list(self.axis_names)})")
        return self.axis_names.index(name)

    def coordinate(self, rank: int) -> Tuple[int, ...]:
        """Coordinate of the `rank`-th device (row-major, last axis fastest)."""
        if not 0 <= rank < self.size:
            raise Error(f"rank {rank} outside a mesh of {self.size} devices")
        coordinate = []
        for extent in reversed(self.shape):
            coordinate.append(rank % extent)
            rank //= extent
        return tuple(reversed(coordinate))

    def rank(self, coordinate: Sequence[int]) -> int:
        """Rank (position in `devices`) of a coordinate."""
        if len(coordinate) != self.ndim or any(
                not 0 <= c < s for c, s in zip(coordinate, self.shape)):
            raise Error(f"coordinate {tuple(coordinate)} outside mesh shape {self.shape}")
        rank = 0
        for c, extent in zip(coordinate, self.shape):
            rank = rank * extent + c
        return rank

    def device(self, coordinate: Sequence[int]) -> int:
        """Device id at a coordinate."""
        return self.devices[self.rank(coordinate)]

    def submesh(self, **fixed: int) -> "DeviceMesh":
        """The mesh of the other axes with the given axes fixed, e.g.
        ``mesh.submesh(pp=0)`` is the first pipeline stage."""
        for name, index in fixed.items():
            if not 0 <= index < self.axis_size(name):
                raise Error(f"index {index} outside axis '{name}' of size {self.axis_size(name)}")
        kept = [i for i, n in enumerate(self.axis_names) if n not in fixed]
        devices = [self.device(c) for c in itertools.product(*(
            [fixed[n]] if n in fixed else range(s)
            for n, s in zip(self.axis_names, self.shape)))]
        return DeviceMesh([self.shape[i] for i in kept],
                          [self.axis_names[i] for i in kept], devices)

    def groups(self, axis: str) -> List[List[int]]:
        """Device groups along `axis`: the groups of a collective over it."""
        a = self._axis(axis)
        others = [range(s) if i != a else [0] for i, s in enumerate(self.shape)]
        groups = []
        for base in itertools.product(*others):
            group = []
            for k in range(self.shape[a]):
                c = list(base)
                c[a] = k
                group.append(self.device(c))
            groups.append(group)
        return groups

    def parallel_degrees(self) -> Dict[str, int]:
        """The dp, tp and pp of dist-parallelize this mesh means; raises
        distir.Error when it cannot map (see the module's documentation)."""
        canonical = [canonical_axis(n) for n in self.axis_names]
        if len(set(canonical)) != len(canonical):
            raise Error(f"mesh axes {list(self.axis_names)} name the same parallelism twice")
        order = [CANONICAL_AXES.index(c) for c in canonical]
        if order != sorted(order):
            raise Error(
                f"mesh axes {list(self.axis_names)} are not in the order pp, dp, tp "
                "that dist-parallelize lays devices out in (tp innermost)")
        if self.devices != list(range(self.size)):
            raise Error("dist-parallelize numbers devices 0..N-1 row-major: a mesh "
                        f"over devices {self.devices[:8]}... cannot map onto it")
        degrees = {"dp": 1, "tp": 1, "pp": 1}
        for name, extent in zip(canonical, self.shape):
            degrees[name] = extent
        return degrees

    def __repr__(self) -> str:
        axes = ", ".join(f"{n}={s}" for n, s in zip(self.axis_names, self.shape))
        return f"DeviceMesh({axes})"


Layout = Tuple[Union[None, str, Tuple[str, ...]], ...]


class LayoutMap:
    """Parameter layouts keyed by regular expressions (Keras' LayoutMap).

    >>> layout_map = LayoutMap(DeviceMesh((2, 2), ("dp", "tp")))
    >>> layout_map[r".*mlp\\.fc1\\.weight"] = (None, "tp")

    Each dimension is None (replicated), an axis name or a tuple of axis
    names. The first pattern found (``re.search``) in a parameter's name wins;
    unmatched parameters are replicated. Given to ``Program.parallelize``, it
    replaces the Megatron layouts (dist-parallelize's ``layout-map``).
    """

    def __init__(self, mesh: DeviceMesh):
        self.mesh = mesh
        self._entries: Dict[str, Layout] = {}

    def __setitem__(self, pattern: str, layout: Iterable) -> None:
        try:
            re.compile(pattern)
        except re.error as error:
            raise Error(f"invalid regex '{pattern}': {error}") from None
        dims = []
        for dim in layout:
            axes = (dim,) if isinstance(dim, str) else tuple(dim or ())
            for axis in axes:
                self.mesh._axis(axis)
            dims.append(None if dim is None else dim if isinstance(dim, str) else tuple(dim))
        self._entries[pattern] = tuple(dims)

    def __getitem__(self, name: str) -> Optional[Layout]:
        """The layout of parameter `name`: the first pattern found in it."""
        for pattern, layout in self._entries.items():
            if re.search(pattern, name):
                return layout
        return None

    def __len__(self) -> int:
        return len(self._entries)

    def items(self):
        return self._entries.items()

    def to_json(self) -> str:
        """dist-parallelize's layout-map JSON, axes named pp, dp and tp."""
        def dim(d):
            if d is None:
                return None
            if isinstance(d, str):
                return canonical_axis(d)
            return [canonical_axis(a) for a in d]
        return json.dumps({p: [dim(d) for d in l] for p, l in self._entries.items()},
                          indent=2)
