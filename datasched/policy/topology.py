"""Host-to-host distances (in switch hops, or a monotone proxy) for locality-aware allocation.

Two sources, tried in this order by :func:`distances_for`:

1. The SimGrid platform XML: ``<cluster topology="TORUS|FAT_TREE|DRAGONFLY"
   topo_parameters="...">``. Hosts are ranked by their position in ``radical`` and
   mapped to coordinates exactly as SimGrid ranks them::

       TORUS "4,4,4"          rank -> (x, y, z), first dimension varies fastest;
                              distance = wrap-around Manhattan distance.
       FAT_TREE "2;4,4;1,2;1,2"  leaves in groups of down[0], then down[0]*down[1] ...;
                              distance = 2 * level of the lowest common switch.
       DRAGONFLY "g,_;c,_;r,_;n"  rank -> (group, chassis, router, node), node fastest;
                              distance = 2 same router | 4 same chassis |
                              6 same group | 8 other group  (a monotone proxy: the
                              real hop count depends on SimGrid's minimal routing).

2. Host properties (for platforms written by our generator or by hand):
   ``topology_path="g1/c0/r3"`` — a ``/``-separated chain of switches from the top
   (fat-tree pod/edge, dragonfly group/chassis/router); distance = number of links
   up to the lowest common switch and down again, i.e. ``2*(depth - common)``;
   or ``torus_coords="x,y,z"`` with ``torus_dims="X,Y,Z"`` on every host.

If any compute host has no information, there is no topology (``None``): a
partial metric would silently favour the described hosts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from datasched.errors import UserError
from datasched.platforms.torus import torus_coordinates, torus_hops_between
from datasched.policy.platform_xml import platform_root

if TYPE_CHECKING:
    from datasched.policy.platform import HostInfo


class HostDistances:
    """Symmetric integer distance matrix indexed by Batsim compute-host id.

    Given as a matrix, or as a function computing it on first use: a policy that never
    asks for a distance (first-come first-served with sequential allocation) then does not
    pay for an n x n matrix at every start. :func:`distances_for` reads every host's
    coordinates before deferring, so a malformed topology is still refused at start."""

    __slots__ = ("_compute", "_matrix", "source")

    def __init__(self, matrix: np.ndarray | Callable[[], np.ndarray], source: str) -> None:
        self._matrix: np.ndarray | None = matrix if isinstance(matrix, np.ndarray) else None
        self._compute: Callable[[], np.ndarray] | None = None if isinstance(matrix, np.ndarray) else matrix
        self.source = source

    @property
    def matrix(self) -> np.ndarray:
        if self._matrix is None:
            assert self._compute is not None
            self._matrix, self._compute = self._compute(), None
        return self._matrix

    def distance(self, a: int, b: int) -> int:
        return int(self.matrix[a, b])


def distances_for(hosts: Sequence[HostInfo], platform_xml: str | Path | None = None) -> HostDistances | None:
    """Distances from the platform XML if it describes the hosts' topology, else from properties."""
    if platform_xml is not None:
        coords = coordinates_from_xml(Path(platform_xml))
        found = _matrix_from(hosts, lambda h: coords.get(h.name), f"{platform_xml} (cluster topology)")
        if found is not None:
            return found
    return _from_properties(hosts)


# ---------------------------------------------------------------- host properties


def _from_properties(hosts: Sequence[HostInfo]) -> HostDistances | None:
    if hosts and all("topology_path" in h.properties for h in hosts):
        return _matrix_from(
            hosts, lambda h: _TreeCoord(tuple(h.properties["topology_path"].split("/"))), "host property topology_path"
        )
    if hosts and all("torus_coords" in h.properties and "torus_dims" in h.properties for h in hosts):

        def coord(h: HostInfo) -> _TorusCoord:
            try:
                return _TorusCoord(_ints(h.properties["torus_coords"]), _ints(h.properties["torus_dims"]))
            except ValueError as exc:
                raise UserError(f"host {h.name!r}: bad torus_coords/torus_dims property: {exc}") from None

        return _matrix_from(hosts, coord, "host properties torus_coords/torus_dims")
    return None


# ---------------------------------------------------------------- coordinates


@dataclass(frozen=True)
class _TreeCoord:
    """Chain of switches from the root; hosts under the same chain prefix share switches."""

    path: tuple[str, ...]

    def distance(self, other: _TreeCoord) -> int:
        common = 0
        for a, b in zip(self.path, other.path, strict=False):
            if a != b:
                break
            common += 1
        if self.path == other.path:
            return 2  # two hosts on one leaf switch: up and down
        return (len(self.path) - common) + (len(other.path) - common) + 2


@dataclass(frozen=True)
class _TorusCoord:
    coords: tuple[int, ...]
    dims: tuple[int, ...]

    def distance(self, other: _TorusCoord) -> int:
        return int(torus_hops_between(self.coords, other.coords, self.dims))


@dataclass(frozen=True)
class _LevelCoord:
    """Hierarchical group ids from the top (fat-tree subtrees, dragonfly levels)."""

    groups: tuple[int, ...]  # coarsest first
    cluster: str

    def distance(self, other: _LevelCoord) -> int:
        if self.cluster != other.cluster:
            return 2 * (len(self.groups) + 2)
        for level, (a, b) in enumerate(zip(self.groups, other.groups, strict=False)):
            if a != b:
                return 2 * (len(self.groups) - level)
        return 0


class _Coord(Protocol):
    def distance(self, other: Any, /) -> int: ...  # other: a coordinate of the same kind


def _matrix_from(
    hosts: Sequence[HostInfo], coord_of: Callable[[HostInfo], _Coord | None], source: str
) -> HostDistances | None:
    found = [coord_of(h) for h in hosts]
    coords = [c for c in found if c is not None]
    if not coords or len(coords) != len(found):
        return None
    return HostDistances(lambda: _pairwise_matrix(coords), source)


def _pairwise_matrix(coords: Sequence[_Coord]) -> np.ndarray:
    """Every pair's distance, with numpy where all hosts share one kind of coordinate."""
    n = len(coords)
    tori = [c for c in coords if isinstance(c, _TorusCoord)]
    if len(tori) == n and all(c.dims == tori[0].dims for c in tori):  # one torus: every pair at once
        points = np.array([c.coords for c in tori], dtype=np.int64)
        hops = torus_hops_between(points[:, None, :], points[None, :, :], tori[0].dims)
        return hops.astype(np.int32)
    levels = [c for c in coords if isinstance(c, _LevelCoord)]
    if len(levels) == n and len({len(c.groups) for c in levels}) == 1:  # fat-tree / dragonfly: every pair at once
        return _level_matrix(levels)
    paths = [c for c in coords if isinstance(c, _TreeCoord)]
    if len(paths) == n:  # switch chains (the generator's dragonfly): every pair at once
        return _tree_matrix(paths)
    matrix = np.zeros((n, n), dtype=np.int32)
    for i in range(n):
        for j in range(i + 1, n):
            matrix[i, j] = matrix[j, i] = coords[i].distance(coords[j])
    return matrix


def _level_matrix(coords: Sequence[_LevelCoord], rows_per_block: int = 256) -> np.ndarray:
    """``_LevelCoord.distance`` for every pair of same-depth coordinates, with numpy (a 600-host
    dragonfly: 0.5 s of pairwise Python calls at every scheduler start otherwise). Blocks of
    rows bound the n x n x depth comparison's memory on large platforms."""
    depth = len(coords[0].groups)
    groups = np.array([c.groups for c in coords], dtype=np.int64)
    _, cluster = np.unique(np.array([c.cluster for c in coords]), return_inverse=True)
    n = len(coords)
    matrix = np.zeros((n, n), dtype=np.int32)
    for start in range(0, n, rows_per_block):
        block = groups[start : start + rows_per_block]
        equal = block[:, None, :] == groups[None, :, :]
        same = equal.all(axis=2)
        first_difference = np.argmin(equal, axis=2)  # the first level where the groups differ
        distance = np.where(same, 0, 2 * (depth - first_difference))
        other_cluster = cluster[start : start + rows_per_block, None] != cluster[None, :]
        matrix[start : start + rows_per_block] = np.where(other_cluster, 2 * (depth + 2), distance)
    return matrix


def _tree_matrix(coords: Sequence[_TreeCoord], rows_per_block: int = 256) -> np.ndarray:
    """``_TreeCoord.distance`` for every pair (0 on the diagonal), with numpy: a 600-host
    dragonfly described by ``topology_path`` properties cost 0.4 s of pairwise Python calls at
    every scheduler start. Each level's switch names become integers (-1 past a chain's end),
    so the common prefix of two chains is the first level where the integers differ or
    either chain has ended."""
    n = len(coords)
    depth = max(len(c.path) for c in coords)
    codes = np.full((n, depth), -1, dtype=np.int64)
    for level in range(depth):
        names = [c.path[level] for c in coords if len(c.path) > level]
        _, numbered = np.unique(np.array(names), return_inverse=True)
        having = [i for i, c in enumerate(coords) if len(c.path) > level]
        codes[having, level] = numbered
    lengths = np.array([len(c.path) for c in coords], dtype=np.int64)
    matrix = np.zeros((n, n), dtype=np.int32)
    for start in range(0, n, rows_per_block):
        block = codes[start : start + rows_per_block]
        shared = (block[:, None, :] == codes[None, :, :]) & (block[:, None, :] >= 0)
        common = np.where(shared.all(axis=2), depth, np.argmin(shared, axis=2))
        own = lengths[start : start + rows_per_block, None]
        matrix[start : start + rows_per_block] = (own - common) + (lengths[None, :] - common) + 2
    np.fill_diagonal(matrix, 0)
    return matrix


# ---------------------------------------------------------------- SimGrid XML


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(","))


def _radical_ranges(radical: str) -> list[tuple[int, int]]:
    """A cluster's ``radical`` ("0-63,100,200-201") as inclusive (first, last) ranges,
    in file order. Never expanded: a radical may name 10^12 hosts while the platform
    given to a scheduler has a few, so ranks are computed per host name (see
    :class:`_ClusterHosts`). Raises ValueError when a part is not a number or a range."""
    ranges = []
    for part in radical.split(","):
        lo, _, hi = part.partition("-")
        if not (lo.strip().isdecimal() and (not hi or hi.strip().isdecimal())):
            raise ValueError(part)
        ranges.append((int(lo), int(hi) if hi else int(lo)))
    return ranges


@dataclass(frozen=True)
class _ClusterHosts:
    """The hosts ``prefix<number>suffix`` of one <cluster>, and their topology coordinates."""

    prefix: str
    suffix: str
    ranges: tuple[tuple[int, int], ...]
    make: Callable[[int], _Coord]

    def rank_of(self, name: str) -> int | None:
        """Position of host ``name`` in the radical (SimGrid's rank), or None."""
        if len(name) <= len(self.prefix) + len(self.suffix):
            return None
        if not (name.startswith(self.prefix) and name.endswith(self.suffix)):
            return None
        middle = name[len(self.prefix) : len(name) - len(self.suffix)]
        if not middle.isdecimal() or not middle.isascii() or (middle != "0" and middle.startswith("0")):
            return None
        number, offset = int(middle), 0
        for first, last in self.ranges:
            if first <= number <= last:
                return offset + number - first
            offset += max(last - first + 1, 0)
        return None


class HostCoordinates:
    """Host name -> topology coordinate, for the hosts of every cluster with a known
    topology (a later cluster wins when two name the same host, as a dict would)."""

    def __init__(self, clusters: list[_ClusterHosts]) -> None:
        self._clusters = clusters

    def get(self, name: str) -> _Coord | None:
        for cluster in reversed(self._clusters):
            rank = cluster.rank_of(name)
            if rank is not None:
                return cluster.make(rank)
        return None


def coordinates_from_xml(path: Path) -> HostCoordinates:
    """The topology coordinates of the hosts of the platform file ``path``."""
    try:
        root = platform_root(path)
    except (OSError, ET.ParseError) as exc:
        raise UserError(f"{path}: cannot read platform XML: {exc}") from None
    clusters: list[_ClusterHosts] = []
    for cluster in root.iter("cluster"):
        topology = cluster.get("topology", "FLAT").upper()
        params = cluster.get("topo_parameters", "")
        name = cluster.get("id", "?")
        try:
            ranges = _radical_ranges(cluster.get("radical", ""))
        except ValueError:
            raise UserError(f"{path}: cluster {name!r}: bad radical {cluster.get('radical')!r}") from None
        try:
            make = _coordinate_maker(topology, params, name)
        except (ValueError, IndexError):
            raise UserError(
                f"{path}: cluster {name!r}: bad topo_parameters {params!r} for topology {topology}"
            ) from None
        if make is not None:
            clusters.append(_ClusterHosts(cluster.get("prefix", ""), cluster.get("suffix", ""), tuple(ranges), make))
    return HostCoordinates(clusters)


def _coordinate_maker(topology: str, params: str, cluster: str) -> Callable[[int], _Coord] | None:
    if topology == "TORUS":
        dims = _ints(params)

        def torus(rank: int) -> _TorusCoord:
            return _TorusCoord(tuple(int(c) for c in torus_coordinates([rank], dims)[0]), dims)

        return torus
    if topology == "FAT_TREE":
        levels_text, down_text, *_ = params.split(";")
        down = _ints(down_text)
        if len(down) != int(levels_text):
            raise ValueError("level count mismatch")

        def fat_tree(rank: int) -> _LevelCoord:
            sizes, product = [], 1
            for d in down:
                product *= d
                sizes.append(product)
            return _LevelCoord(tuple(rank // s for s in reversed(sizes)) + (rank,), cluster)

        return fat_tree
    if topology == "DRAGONFLY":
        parts = params.split(";")
        chassis = int(parts[1].split(",")[0])
        routers = int(parts[2].split(",")[0])
        nodes = int(parts[3])

        def dragonfly(rank: int) -> _LevelCoord:
            per_group = chassis * routers * nodes
            return _LevelCoord((rank // per_group, rank // (routers * nodes), rank // nodes, rank), cluster)

        return dragonfly
    return None
