"""Seed 001 Tables 1-3 step 1, the specification: the paper's hardware and numbers (Tables 1-3)
as constants, and the sweep (``artifacts.seed001_pagecache`` of a config) as parameter sets."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GB = 1e9


HARDWARE = ("lustre", "ssd", "memory")


#: Intel SSD DC S3710 Series product specification (Intel, 2015), 800 GB model: sequential
#: read 550 MB/s, sequential write 460 MB/s (128 KB transfers, queue depth 32).
SSD_READ_BW = 550e6


SSD_WRITE_BW = 460e6


#: The node's compute-node NIC to Lustre: not stated; 100 Gbit/s Omni-Path (12.5 GB/s) is our
#: assumption (it never limits: the swept OSTs are slower).
NIC_BW = 12.5e9


#: The paper's Tables 1-3 (seconds): hardware -> file configuration -> (total, write, read);
#: Table 3 gives (max total, min total) per configuration.
PAPER_T1 = {
    "lustre": {
        "10x1GB": (291.41, 137.77, 153.64), "100x100MB": (216.68, 105.34, 111.34), "1000x10MB": (196.80, 102.42, 94.38)
    },
    "ssd": {"10x1GB": (61.26, 34.39, 26.87), "100x100MB": (54.53, 29.05, 25.48), "1000x10MB": (54.44, 28.09, 26.35)},
    "memory": {"10x1GB": (4.97, 3.02, 1.95), "100x100MB": (4.47, 2.99, 1.48), "1000x10MB": (4.70, 3.16, 1.54)},
}  # fmt: skip


PAPER_T2 = {
    "lustre": {
        "10x1GB": (144.36, 138.94, 5.38), "100x100MB": (104.26, 102.09, 2.18), "1000x10MB": (103.90, 102.24, 1.64)
    },
    "ssd": {"10x1GB": (36.12, 34.37, 2.04), "100x100MB": (30.73, 29.11, 1.62), "1000x10MB": (30.08, 28.28, 1.80)},
    "memory": {"10x1GB": (4.62, 3.00, 1.62), "100x100MB": (4.66, 3.04, 1.62), "1000x10MB": (4.91, 3.25, 1.66)},
}  # fmt: skip


PAPER_T3 = {
    "lustre": {"1x1GB": (978.25, 790.15), "10x100MB": (911.58, 591.07), "100x10MB": (906.87, 829.00)},
    "ssd": {"1x1GB": (152.00, 142.99), "10x100MB": (155.63, 138.14), "100x10MB": (158.12, 150.78)},
    "memory": {"1x1GB": (0.84, 0.77), "10x100MB": (1.06, 0.79), "100x10MB": (1.03, 0.66)},
}  # fmt: skip


SINGLE_FILES = {"10x1GB": (10, 1e9), "100x100MB": (100, 1e8), "1000x10MB": (1000, 1e7)}


MULTI_FILES = {"1x1GB": (1, 1e9), "10x100MB": (10, 1e8), "100x10MB": (100, 1e7)}


PAIRS = 36


@dataclass(frozen=True)
class PageCacheSpec:
    """The swept parameters (none of them is stated by the paper; see the config's notes)."""

    osts: tuple[tuple[int, float], ...]  # (OST count, rate of one OST in B/s) pairs
    memory_bws: tuple[float, ...]
    dirty_ratios: tuple[float, ...]
    jitters: tuple[float, ...]
    seeds: tuple[int, ...]
    cache_capacity: float = 192e9
    pairs: int = PAIRS


def parse_spec(data: Mapping[str, Any]) -> PageCacheSpec:
    return PageCacheSpec(
        osts=tuple((int(n), float(b)) for n, b in data["osts"]),
        memory_bws=tuple(float(v) for v in data["memory_bws"]),
        dirty_ratios=tuple(float(v) for v in data["dirty_ratios"]),
        jitters=tuple(float(v) for v in data["jitters"]),
        seeds=tuple(int(v) for v in data["seeds"]),
        cache_capacity=float(data.get("cache_capacity", 192e9)),
        pairs=int(data.get("pairs", PAIRS)),
    )


@dataclass(frozen=True)
class ParamSet:
    ost_count: int
    ost_bw: float
    memory_bw: float
    dirty_ratio: float
    jitter: float

    @property
    def name(self) -> str:
        return (
            f"OST {self.ost_count}x{self.ost_bw / GB:g} GB/s, mem {self.memory_bw / GB:g} GB/s, "
            f"dirty {self.dirty_ratio:g}, jitter {self.jitter:g} s"
        )


def param_sets(spec: PageCacheSpec) -> list[ParamSet]:
    return [
        ParamSet(n, b, m, d, j)
        for (n, b), m, d, j in itertools.product(spec.osts, spec.memory_bws, spec.dirty_ratios, spec.jitters)
    ]
