"""Seed 004 step 1, the specification: the paper's numbers (Table II, section IV) and our stated
assumptions as constants, and the sweep (``artifacts.seed004_interference`` of a config) as
cases and runs."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from datasched.analysis.path_values import number, path_fields

#: Table II of the paper: HPL nodes -> (N, P, Q).
HPL_TABLE: dict[int, tuple[int, int, int]] = {
    1: (91048, 7, 8),
    2: (114713, 14, 8),
    4: (144529, 14, 16),
    8: (182096, 28, 16),
    16: (229427, 28, 32),
    32: (289059, 56, 32),
    64: (364192, 56, 64),
    128: (458853, 112, 64),
}


CORES = 56  # per node (2 x 28-core ThunderX2)


CORE_SPEED = 16e9  # flop/s per core (assumption: 2.0 GHz x 8 DP flop/cycle)


NB = 192  # HPL block size (assumption)


IOR_PROCESSES = 56  # per node (Table III)


TRANSFER = 512  # bytes (Table III)


SYNC_BYTES = 8192  # SSD bytes per synchronous write besides its data (assumption)


PFS_SERVERS = 8  # Lustre (assumption)


CONFIGURATIONS = ("hpl-only", "single", "matching", "matching-nometa", "lustre")


#: Cores per node in the simulated platform. ``memory`` is ``spread`` plus a memory-bandwidth
#: resource per node (sim/src/interference/README.md, "Memory bandwidth"), one analysis model per
#: swept (bandwidth, bytes per flop) setting (:meth:`Seed004Spec.models`).
NODE_MODELS = {"spread": CORES, "pinned": 1, "memory": CORES}


PLACEMENTS = ("all", "io_nodes", "dedicated")


#: The engine's SimGrid models (sim/src/interference/README.md, "SimGrid models").
SIMGRID_MODELS = ("ptask_L07", "cas01_cm02")


#: The paper's stated numbers (section IV), in %.
PAPER = {
    "single": (7.0, 13.0),
    "matching": (47.0, 52.0),
    "idle64": (0.9, 2.5),
}


@dataclass(frozen=True)
class MemorySweep:
    """``memory`` of the section: the node model ``memory``'s swept settings (none is in the
    paper). ``bandwidths_gbps``: BW_m, one node's memory bandwidth in GB/s; ``hpl_bytes_per_flop``:
    the memory traffic of HPL's flops; ``io_copies``: how many times each byte a storage service
    writes to its SSD crosses the node's memory (a stated choice, not swept)."""

    bandwidths_gbps: tuple[float, ...]
    hpl_bytes_per_flop: tuple[float, ...]
    io_copies: float

    def labels(self) -> list[str]:
        return [memory_label(bw, bpf) for bw in self.bandwidths_gbps for bpf in self.hpl_bytes_per_flop]


def memory_label(bandwidth_gbps: float, bytes_per_flop: float) -> str:
    """The analysis model (and result path) of one memory setting: ``memory-341GBps-0.04Bpf``."""
    return f"memory-{number(bandwidth_gbps)}GBps-{number(bytes_per_flop)}Bpf"


def memory_setting(model: str) -> tuple[float, float] | None:
    """(GB/s, bytes per flop) of a :func:`memory_label`; None for ``spread`` and ``pinned``."""
    if not model.startswith("memory-"):
        return None
    bandwidth, bytes_per_flop = model.removeprefix("memory-").removesuffix("Bpf").split("GBps-")
    return float(bandwidth), float(bytes_per_flop)


def model_title(model: str) -> str:
    """An analysis model as figure titles name it (``memory 85.3 GB/s, 0.5 B/flop``)."""
    setting = memory_setting(model)
    return f"memory {setting[0]:g} GB/s, {setting[1]:g} B/flop" if setting else model


def node_model(model: str) -> str:
    """The node model (a key of NODE_MODELS) an analysis model belongs to."""
    return "memory" if memory_setting(model) else model


@dataclass(frozen=True)
class Seed004Spec:
    """``artifacts.seed004_interference`` of a config (config/schema.json)."""

    sizes: tuple[int, ...]
    configurations: tuple[str, ...]
    placements: tuple[str, ...]
    node_models: tuple[str, ...]
    request_costs_us: tuple[float, ...]
    idle_fractions: tuple[float, ...]
    idle_periods: tuple[float, ...]
    iterations: int
    seeds: tuple[int, ...]
    dedicated_nodes: int = 4
    requests_per_batch: int = 1024
    ior_sizes: tuple[int, ...] = ()  # sizes with IOR configurations (default: all); HPL-only runs at every size
    simgrid_model: str = "ptask_L07"  # the engine's SimGrid models (SIMGRID_MODELS)
    memory: MemorySweep | None = None  # the ``memory`` node model's settings

    #: Left out of the section's stamp and digest while at their default (None), so that a
    #: section without them keeps the digest of its committed summaries (analysis/spec_stamp.py).
    STAMP_OMITTED_AT_DEFAULT: ClassVar[tuple[str, ...]] = ("memory",)

    @property
    def models(self) -> list[str]:
        """The analysis models: each node model, ``memory`` once per swept setting."""
        out: list[str] = []
        for model in self.node_models:
            out += self.memory.labels() if model == "memory" and self.memory else [model]
        return out

    def cases(self) -> list[Case]:
        return [
            Case(n, model, c)
            for model in self.models
            for n in self.sizes
            for c in self.configurations
            if c == "hpl-only" or n in self.io_sizes
        ]

    @property
    def io_sizes(self) -> tuple[int, ...]:
        return self.ior_sizes or self.sizes

    @property
    def idle_settings(self) -> list[tuple[float, float]]:
        """(fraction of a core, period) pairs of the idle sweep; (0, 1) is no idle load."""
        return [(0.0, 1.0)] + [(f, p) for f in self.idle_fractions for p in self.idle_periods if f > 0]


@dataclass(frozen=True)
class Case:
    """One size x node model x configuration: what one Snakemake job simulates."""

    size: int
    model: str
    configuration: str

    @property
    def path(self) -> str:
        return f"model={self.model}/n={self.size}/config={self.configuration}"

    @classmethod
    def from_path(cls, path: str) -> Case:
        f = path_fields(path)
        return cls(int(f["n"]), f["model"], f["config"])

    def runs(self, spec: Seed004Spec) -> list[Run]:
        """Every run of the case. IOR configurations sweep the request cost (no idle load: its
        effect is measured apart, in HPL-only against the daemon-free Lustre runs) for each
        placement; HPL-only sweeps the idle load over seeds (the seed places the bursts)."""
        c = self.configuration
        if c == "hpl-only":
            return [
                Run(self, "all", 0.0, f, p, seed)
                for f, p in spec.idle_settings
                for seed in (spec.seeds if f > 0 else spec.seeds[:1])
            ]
        if c == "lustre":
            return [Run(self, "external", 0.0, 0.0, 1.0, spec.seeds[0])]
        placements = ("all",) if c == "matching-nometa" else spec.placements
        return [Run(self, pl, cost, 0.0, 1.0, spec.seeds[0]) for pl in placements for cost in spec.request_costs_us]


@dataclass(frozen=True)
class Run:
    case: Case
    placement: str
    request_cost_us: float
    idle_fraction: float
    idle_period: float
    seed: int

    @property
    def path(self) -> str:
        return (
            f"{self.placement}/cost={number(self.request_cost_us)}/idle={number(self.idle_fraction)}"
            f"/period={number(self.idle_period)}/seed={self.seed}"
        )


def parse_spec(data: Mapping[str, Any]) -> Seed004Spec:
    def check(name: str, values: Sequence[str], known: Sequence[str]) -> tuple[str, ...]:
        unknown = [v for v in values if v not in known]
        if unknown:
            raise ValueError(f"{name}: unknown {unknown} (known: {', '.join(known)})")
        return tuple(values)

    sizes = tuple(int(n) for n in data["sizes"])
    bad = [n for n in sizes if n not in HPL_TABLE]
    if bad:
        raise ValueError(f"sizes: {bad} not in the paper's Table II ({', '.join(map(str, HPL_TABLE))})")
    return Seed004Spec(
        sizes=sizes,
        configurations=check("configurations", [str(c) for c in data["configurations"]], CONFIGURATIONS),
        placements=check("placements", [str(p) for p in data.get("placements", ["all"])], PLACEMENTS),
        node_models=check("node_models", [str(m) for m in data["node_models"]], tuple(NODE_MODELS)),
        request_costs_us=tuple(float(c) for c in data["request_costs_us"]),
        idle_fractions=tuple(float(f) for f in data.get("idle_fractions", ())),
        idle_periods=tuple(float(p) for p in data.get("idle_periods", (1.0,))),
        iterations=int(data["iterations"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        dedicated_nodes=int(data.get("dedicated_nodes", 4)),
        requests_per_batch=int(data.get("requests_per_batch", 1024)),
        ior_sizes=_ior_sizes(data, sizes),
        simgrid_model=check("simgrid_model", [str(data.get("simgrid_model", "ptask_L07"))], SIMGRID_MODELS)[0],
        memory=_memory(data),
    )


def _memory(data: Mapping[str, Any]) -> MemorySweep | None:
    wanted = "memory" in data["node_models"]
    if "memory" not in data:
        if wanted:
            raise ValueError("memory: required by node model 'memory' (bandwidths_gbps, hpl_bytes_per_flop, io_copies)")
        return None
    if not wanted:
        raise ValueError("memory: given, but node_models has no 'memory'")
    raw = data["memory"]
    unknown = sorted(set(raw) - {"bandwidths_gbps", "hpl_bytes_per_flop", "io_copies"})
    if unknown:
        raise ValueError(f"memory: unknown keys {unknown}")

    def values(key: str, positive: bool) -> tuple[float, ...]:
        got = tuple(float(v) for v in raw[key])
        if not got or any(v < 0 or (positive and v == 0) or not math.isfinite(v) for v in got):
            raise ValueError(f"memory.{key}: expected a non-empty list of numbers {'> 0' if positive else '>= 0'}")
        return got

    copies = float(raw["io_copies"])
    if copies < 0 or not math.isfinite(copies):
        raise ValueError(f"memory.io_copies: expected a number >= 0, got {raw['io_copies']!r}")
    return MemorySweep(values("bandwidths_gbps", True), values("hpl_bytes_per_flop", False), copies)


def _ior_sizes(data: Mapping[str, Any], sizes: tuple[int, ...]) -> tuple[int, ...]:
    chosen = tuple(int(n) for n in data.get("ior_sizes", sizes))
    bad = [n for n in chosen if n not in sizes]
    if bad:
        raise ValueError(f"ior_sizes: {bad} not among sizes {list(sizes)}")
    return chosen
