"""Seed 002 step 1, the specification: the paper's set-up and numbers and our stated choices as
constants, and the sweep (``artifacts.seed002_twins`` of a config) as parameter sets and cases."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from datasched.analysis.path_values import number, path_fields
from datasched.analysis.seed002.scheduling import SchedulingSpec, parse_scheduling_spec

MIB = 2**20


KIB = 2**10


PAPER = {
    "nodes": 32,
    "processes_per_node": 4,
    "forwarders": 4,
    "servers": 4,
    "bytes_per_process": 32 * MIB,
}


#: The labels of the compared configurations -> (scheduler or "direct", TWINS window in s).
CONFIGURATIONS: dict[str, tuple[str, float | None]] = {
    "no-forwarding": ("direct", None),
    "fifo": ("fifo", None),
    "hbrr": ("hbrr", None),
    "twins-1ms": ("twins", 0.001),
    "twins-8ms": ("twins", 0.008),
    # TWINS with the engine's drain option (sim/src/forwarding/README.md; ours, not the paper's).
    "twins-8ms-drain": ("twins-drain", 0.008),
}


#: The paper's IFER gains (two applications, 1D-strided reads, mean over dt): TWINS's makespan
#: below each other configuration's, in % (judged in ``claims``, marked on the IFER figure).
IFER_PAPER_GAINS: tuple[tuple[str, int], ...] = (("no-forwarding", 45), ("fifo", 16), ("hbrr", 16))


#: The paper's aggregation table (HBRR): sizes leaving clients, leaving the I/O nodes and arriving
#: at the servers, per (pattern, operation), in its KB read as KiB (its clients' "32KB" requests
#: are our 32 KiB ones; its 32 MB per process, 4 GB per test of 128 processes, binary units too).
PAPER_SIZES_KIB: dict[tuple[str, str], tuple[float, float, float]] = {
    ("shared_contiguous", "read"): (32, 58, 43),
    ("shared_contiguous", "write"): (32, 58, 44),
    ("shared_strided", "read"): (32, 58, 50),
    ("shared_strided", "write"): (32, 58, 49),
}


@dataclass(frozen=True)
class CacheSetting:
    """One swept server-cache setting (sim/src/services/server_cache.hpp). ``write_behind`` is
    the dirty threshold at the paper's scale (bytes; a quick variant scales it with its bytes per
    process, so the same share of the data is absorbed); ``read_ahead`` is the window (bytes,
    not scaled: it is a per-request granularity)."""

    name: str
    write_behind: int = 0
    read_ahead: int = 0

    def engine(self, memory_bandwidth: float, scale: float) -> dict[str, Any]:
        return {
            "memory_bandwidth": memory_bandwidth,
            "write_behind": int(self.write_behind * scale),
            "read_ahead": self.read_ahead,
        }


#: A parameter set of the sweep: (HDD α, seek scale in bytes, server cache setting name).
ParameterSet = tuple[float, float, str]


def parameter_sets(
    alphas: Sequence[float], seeks: Sequence[float], caches: Sequence[str] = ("none",)
) -> list[ParameterSet]:
    """The swept (HDD α, seek scale, cache) sets, α first; a seek scale > 0 only with α > 0
    (it multiplies α: at α = 0 every scale is the same linear disk) and only without a cache;
    a cache only on the count-only curve. The report's tables, the claims over the sweep and
    the cases all iterate this one list."""
    return [(a, s, c) for a in alphas for s in seeks for c in caches if (s == 0 or a > 0) and (c == "none" or s == 0)]


@dataclass(frozen=True)
class Seed002Spec:
    """``artifacts.seed002_twins`` of a config (config/schema.json)."""

    scale: float  # fraction of the paper's 32 MiB per process
    patterns: tuple[str, ...]
    operations: tuple[str, ...]
    request_sizes: tuple[int, ...]
    configurations: tuple[str, ...]
    hdd_alpha: tuple[float, ...]
    seeds: tuple[int, ...]
    jitter: float = 0.001
    # seek-aware HDD curve scales (bytes) swept; 0 = the count-only curve. Only with α > 0:
    # the seek spread multiplies α, so at α = 0 every scale is the same linear disk.
    hdd_seek_scale: tuple[float, ...] = (0.0,)
    ifer_dt: tuple[float, ...] = ()  # IFER start offsets (s); empty: no IFER runs
    scheduling: SchedulingSpec | None = None  # the scheduling section (analysis/seed002/scheduling.py)
    # server cache settings swept besides none (write-behind, read-ahead), on the count-only curve
    server_caches: tuple[CacheSetting, ...] = ()
    memory_bandwidth: float = 1e10  # the servers' memory, B/s (ours: the paper gives none)
    # Only these parameter sets of the product above (None: all of them); set by
    # :func:`restrict_to_sets` when a full variant is drawn from its complete sets (analysis/accumulate.py).
    sets: tuple[ParameterSet, ...] | None = None

    @property
    def cache_names(self) -> tuple[str, ...]:
        return ("none", *(c.name for c in self.server_caches))

    def parameter_sets(self) -> list[ParameterSet]:
        """The swept (HDD α, seek scale, cache) sets, α first; a seek scale > 0 only with α > 0
        (it multiplies α) and only without a cache; a cache only on the count-only curve; only
        ``sets`` when given."""
        every = parameter_sets(self.hdd_alpha, self.hdd_seek_scale, self.cache_names)
        return every if self.sets is None else [p for p in every if p in self.sets]

    def cache(self, name: str) -> dict[str, Any] | None:
        """The engine's ``servers.cache`` of setting ``name`` (None: no cache)."""
        if name == "none":
            return None
        setting = next((c for c in self.server_caches if c.name == name), None)
        if setting is None:
            raise ValueError(f"server_cache: no setting named {name!r}")
        return setting.engine(self.memory_bandwidth, self.scale)

    def cases(self) -> list[Case]:
        plain = [
            Case("single", pattern, operation, size, alpha, 0.0, seek, cache)
            for alpha, seek, cache in self.parameter_sets()
            for pattern in self.patterns
            for operation in self.operations
            for size in self.request_sizes
        ]
        ifer = [
            Case("ifer", "shared_strided", "read", min(self.request_sizes), alpha, dt, seek, cache)
            for alpha, seek, cache in self.parameter_sets()
            for dt in self.ifer_dt
        ]
        return plain + ifer


@dataclass(frozen=True)
class Case:
    """Every configuration x seed of one test: what one Snakemake job simulates."""

    kind: str  # single | ifer
    pattern: str
    operation: str
    request_size: int
    hdd_alpha: float
    dt: float
    hdd_seek_scale: float = 0.0
    cache: str = "none"

    @property
    def path(self) -> str:
        base = f"kind={self.kind}/pattern={self.pattern}/op={self.operation}/size={self.request_size}"
        seek = f"/seek={number(self.hdd_seek_scale)}" if self.hdd_seek_scale > 0 else ""
        cache = f"/cache={self.cache}" if self.cache != "none" else ""
        return f"{base}/alpha={number(self.hdd_alpha)}{seek}{cache}/dt={number(self.dt)}"

    @classmethod
    def from_path(cls, path: str) -> Case:
        f = path_fields(path)
        return cls(
            f["kind"],
            f["pattern"],
            f["op"],
            int(f["size"]),
            float(f["alpha"]),
            float(f["dt"]),
            float(f.get("seek", 0.0)),
            f.get("cache", "none"),
        )


def parse_spec(data: Mapping[str, Any]) -> Seed002Spec:
    configurations = tuple(str(c) for c in data["configurations"])
    unknown = [c for c in configurations if c not in CONFIGURATIONS]
    if unknown:
        raise ValueError(f"configurations: unknown {unknown} (known: {', '.join(CONFIGURATIONS)})")
    return Seed002Spec(
        scale=float(data["scale"]),
        patterns=tuple(str(p) for p in data["patterns"]),
        operations=tuple(str(o) for o in data["operations"]),
        request_sizes=tuple(int(s) for s in data["request_sizes"]),
        configurations=configurations,
        hdd_alpha=tuple(float(a) for a in data["hdd_alpha"]),
        hdd_seek_scale=tuple(float(s) for s in data.get("hdd_seek_scale", (0.0,))),
        seeds=tuple(int(s) for s in data["seeds"]),
        jitter=float(data.get("jitter", 0.001)),
        ifer_dt=tuple(float(d) for d in data.get("ifer_dt", ())),
        scheduling=parse_scheduling_spec(data.get("scheduling")),
        **_parse_caches(data.get("server_cache")),
    )


def _parse_caches(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """``server_cache`` of the config: ``memory_bandwidth`` and the named ``settings``."""
    if not data:
        return {}
    settings = tuple(
        CacheSetting(str(c["name"]), int(c.get("write_behind", 0)), int(c.get("read_ahead", 0)))
        for c in data.get("settings", ())
    )
    names = [c.name for c in settings]
    if "none" in names or len(set(names)) != len(names):
        raise ValueError(f"server_cache.settings: names must be unique and not 'none', got {names}")
    return {"server_caches": settings, "memory_bandwidth": float(data.get("memory_bandwidth", 1e10))}


def set_name(alpha: float, seek: float = 0.0, cache: str = "none") -> str:
    """A parameter set as the report names it: ``α = 0.1``, ``α = 0.1, seek scale 1 MiB`` or
    ``α = 0.1, cache wb``."""
    name = f"α = {alpha:g}"
    if seek > 0:
        name += f", seek scale {seek / MIB:g} MiB"
    if cache != "none":
        name += f", cache {cache}"
    return name


def restrict_to_sets(spec: Seed002Spec, kept: Sequence[ParameterSet]) -> Seed002Spec:
    """``spec`` with only the parameter sets ``kept``: the α values, seek scales and cache settings
    they use, in the config's order, and ``sets`` only where that product holds more than ``kept``
    (so that a restriction a config could state is that config's spec, digit for digit)."""
    alphas = tuple(a for a in spec.hdd_alpha if any(p[0] == a for p in kept))
    seeks = tuple(s for s in spec.hdd_seek_scale if any(p[1] == s for p in kept))
    caches = tuple(c for c in spec.server_caches if any(p[2] == c.name for p in kept))
    narrowed = dataclasses.replace(spec, hdd_alpha=alphas, hdd_seek_scale=seeks, server_caches=caches, sets=None)
    if narrowed.parameter_sets() == [p for p in spec.parameter_sets() if p in kept]:
        return narrowed
    return dataclasses.replace(narrowed, sets=tuple(kept))
