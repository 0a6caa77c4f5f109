"""Seed 001 Table 4 as a model prediction, not an identity.

The bookkeeping runs of :mod:`datasched.analysis.seed001_workflows` define every data size as
Table 4's seconds x 1 GB/s on a 1 GB/s path, so the data-unaware T_all is Table 4's own sum.
Here the same ten jobs run on the storage of the paper's stated hardware, so T_all comes out of
the engine's sharing and the scheduler's decisions:

- **central storage** is Lustre-like: one aggregate rate ``lustre_bw`` that every job's
  external I/O shares (SimGrid shares it; the paper's 750 GB Lustre 2.9 has no stated rate, so
  the rate is swept over the range of the Tables 1-3 artifact, ``analysis/seed001_pagecache``);
- **node storage** (where a data-aware step keeps its intermediate data) is the paper's own
  stand-in for SCM, a ``node tier``: the node's Intel SSD DC S3710 (datasheet 550/460 MB/s read/
  write) or the memory-mapped file system at Table 1's measured rates (10 x 1 GB written in
  3.02 s and read in 1.95 s: 3.31 and 5.13 GB/s);
- **data sizes**: the paper gives no application behind Table 4 (the jobs are "very short
  jobs" for illustration, with I/O in seconds only), so the sizes cannot be derived from it.
  Our assumption: every I/O phase moves Table 4's seconds x ``size_rate`` bytes per node, i.e.
  the seconds were measured at a per-node rate ``size_rate`` that the paper does not state;
  it is swept (0.01-1 GB/s: from a 36-way share of Table 3's Lustre to well above Table 1's
  single-client 73 MB/s);
- **background load**: seeded synthetic jobs (:func:`background_jobs`) occupying nodes, so
  that job 9's wait comes from the scheduler or does not; the intensity is swept.

Compute seconds stay Table 4's (1 Gflop/s nodes, the workflow file's ``host_speed``): the
paper states them, they are not a storage prediction. Walltimes are set far above any run
(``NO_WALLTIME``): the list scheduler does not use them, and a slow storage must not kill jobs.

This module: the swept assumptions (``artifacts.seed001_workflows.model`` of a config), typed
and validated, and the node tiers' rates. The runs are :mod:`.model_runs`, the verdicts
:mod:`.model_claims`, the plotted numbers :mod:`.model_table`, the figure :mod:`.model_figure`
and the report section :mod:`.model_report`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from datasched.analysis.seed001_pagecache.spec import SSD_READ_BW, SSD_WRITE_BW
from datasched.errors import UserError

GB = 1e9
#: Table 1, memory-mapped file system, one producer and one consumer, 10 x 1 GB: the
#: producer writes in 3.02 s, the consumer reads in 1.95 s.
MEMORY_READ_BW = 10 * GB / 1.95
MEMORY_WRITE_BW = 10 * GB / 3.02
#: node tier -> (read B/s, write B/s, capacity B): the S3710 800 GB model, the node's 192 GB DDR4
NODE_TIERS: dict[str, tuple[float, float, float]] = {
    "ssd": (SSD_READ_BW, SSD_WRITE_BW, 800e9),
    "memory": (MEMORY_READ_BW, MEMORY_WRITE_BW, 192e9),
}
STYLES = ("single-script", "chain", "dependency")
KEYS = {"size_rates", "lustre_bws", "node_tiers", "styles", "load_intensities", "load_seeds", "load_horizon"}


@dataclass(frozen=True)
class ModelSpec:
    """The swept assumptions (``artifacts.seed001_workflows.model`` of a config)."""

    size_rates: tuple[float, ...]
    lustre_bws: tuple[float, ...]
    node_tiers: tuple[str, ...]
    styles: tuple[str, ...]
    load_intensities: tuple[float, ...]
    load_seeds: tuple[int, ...]
    load_horizon: float = 2000.0


@dataclass(frozen=True)
class ParamSet:
    size_rate: float
    lustre_bw: float
    tier: str
    style: str
    load: float

    @property
    def name(self) -> str:
        return (
            f"r={self.size_rate / GB:g}GB/s,L={self.lustre_bw / GB:g}GB/s,{self.tier},{self.style},load={self.load:g}"
        )


def _positive_list(data: Mapping[str, Any], key: str, where: str) -> tuple[float, ...]:
    values = data.get(key)
    if not isinstance(values, list) or not values:
        raise UserError(f"{where}.{key}: expected a non-empty list")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise UserError(f"{where}.{key}[{i}]: expected a finite number > 0, got {v!r}")
        out.append(float(v))
    return tuple(out)


def parse_model_spec(data: Mapping[str, Any], where: str = "artifacts.seed001_workflows.model") -> ModelSpec:
    """A validated :class:`ModelSpec`; every error names the key (``where.key[i]``)."""
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r} (expected one of {sorted(KEYS)})")
    tiers = tuple(str(t) for t in data.get("node_tiers", []))
    for i, t in enumerate(tiers):
        if t not in NODE_TIERS:
            raise UserError(f"{where}.node_tiers[{i}]: unknown tier {t!r} (expected one of {sorted(NODE_TIERS)})")
    styles = tuple(str(s) for s in data.get("styles", []))
    for i, s in enumerate(styles):
        if s not in STYLES:
            raise UserError(f"{where}.styles[{i}]: unknown style {s!r} (expected one of {list(STYLES)})")
    if not tiers or not styles:
        raise UserError(f"{where}: node_tiers and styles must be non-empty lists")
    loads = data.get("load_intensities")
    if (
        not isinstance(loads, list)
        or not loads
        or any(not isinstance(v, (int, float)) or not 0 <= v < 1 for v in loads)
    ):
        raise UserError(f"{where}.load_intensities: expected a non-empty list of numbers in [0, 1), got {loads!r}")
    seeds = data.get("load_seeds")
    if not isinstance(seeds, list) or not seeds or any(isinstance(s, bool) or not isinstance(s, int) for s in seeds):
        raise UserError(f"{where}.load_seeds: expected a non-empty list of integers, got {seeds!r}")
    horizon = data.get("load_horizon", 2000.0)
    if isinstance(horizon, bool) or not isinstance(horizon, (int, float)) or not 0 < horizon < math.inf:
        raise UserError(f"{where}.load_horizon: expected a finite number > 0, got {horizon!r}")
    return ModelSpec(
        size_rates=_positive_list(data, "size_rates", where),
        lustre_bws=_positive_list(data, "lustre_bws", where),
        node_tiers=tiers,
        styles=styles,
        load_intensities=tuple(float(v) for v in loads),
        load_seeds=tuple(int(s) for s in seeds),
        load_horizon=float(horizon),
    )


def param_sets(spec: ModelSpec) -> list[ParamSet]:
    return [
        ParamSet(r, lb, t, s, ld)
        for r, lb, t, s, ld in itertools.product(
            spec.size_rates, spec.lustre_bws, spec.node_tiers, spec.styles, spec.load_intensities
        )
    ]


def seeds_of(spec: ModelSpec, load: float) -> tuple[int, ...]:
    """Without background load nothing is random: one run (seed 0)."""
    return spec.load_seeds if load > 0 else (0,)
