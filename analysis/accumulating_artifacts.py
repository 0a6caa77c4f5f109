"""The artifacts that can accumulate (analysis/accumulate.py) and what each one's unit is:
its planned units, blocks, restricted spec, summary metrics, and where its config lives.

- seed 000 Fig. 8, Fig. 9 and Fig. 10, daemons on nodes, burst buffers: a unit is one simulation;
  a block is a workload seed (a figure from the complete seeds is the figure of a config with
  those seeds);
- seed 000 Fig. 7: a unit is one simulation of the single application; a block is a storage
  assignment STG-k over every I/O model, policy, share of remote accesses and sharing unit (each
  run is judged against NP at the same STG-k, so a complete STG-k is a complete panel column);
- seed 004: a unit is one case (node model x HPL size x configuration: one Snakemake job of
  about 20-40 short runs); a block is an HPL size over both node models and every configuration;
- seed 002: a unit is one case (every configuration x seed of one test at one parameter set) or
  one run of the scheduling section; a block is a parameter set (HDD α, seek scale, server cache)
  over every test, or the whole scheduling section (analysis/seed002/units.py).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import Accumulating, replace
from datasched.analysis.burst_buffers.metrics import run_metrics as burst_run_metrics
from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.fig7.summary import run_summary as fig7_run_summary
from datasched.analysis.seed000.fig10.runs import run_metrics as fig10_run_metrics
from datasched.analysis.seed000.multi_application import run_means
from datasched.analysis.seed002 import units as seed002_units
from datasched.errors import UserError


def _run_units(spec: Any) -> list[str]:
    return [run.path for run in spec.runs()]


def _seed_of(unit: str) -> int:
    return int(path_fields(unit)["seed"])


def _with_seeds(spec: Any, seeds: list[Any]) -> Any:
    return replace(spec, seeds=tuple(seeds))


def _storage_of(unit: str) -> int:
    return int(path_fields(unit)["storage"].removeprefix("stg-"))


def _with_storages(spec: Any, stg_k: list[Any]) -> Any:
    """Fig. 7 restricted to some STG-k; its per-flow subset keeps the STG-k it shares with them."""
    flow = replace(spec.flow, stg_k=tuple(k for k in spec.flow.stg_k if k in stg_k))
    if not flow.stg_k:
        flow = replace(flow, ba_levels=(), remote_levels=())
    return replace(spec, stg_k=tuple(stg_k), flow=flow)


def _case_units(spec: Any) -> list[str]:
    return [case.path for case in spec.cases()]


def _size_of(unit: str) -> int:
    return int(path_fields(unit)["n"])


def _with_sizes(spec: Any, sizes: list[Any]) -> Any:
    if not spec.ior_sizes or spec.ior_sizes == spec.sizes:
        return replace(spec, sizes=tuple(sizes), ior_sizes=())
    ior = tuple(s for s in spec.ior_sizes if s in sizes)
    if ior:
        return replace(spec, sizes=tuple(sizes), ior_sizes=ior)
    return replace(spec, sizes=tuple(sizes), ior_sizes=(), configurations=("hpl-only",))


def multiapp_metrics(jobs_csv: Path) -> dict[str, float]:
    """A Fig. 8 / Fig. 9 run's summary: the two means its figure uses."""
    total, wait = run_means(jobs_csv)
    return {"mean_total_s": total, "mean_wait_s": wait}


def case_metrics(runs_csv: Path) -> dict[str, Any]:
    """A seed-004 or seed-002 case's summary (or a seed-002 scheduling run's): its rows of
    runs.csv, as written (a few kB)."""
    with open(runs_csv, newline="") as handle:
        return {"rows": list(csv.DictReader(handle))}


@dataclass(frozen=True)
class Artifact:
    accumulating: Accumulating
    spec: Callable[[Any], Any]  # ExperimentConfig -> the artifact's spec
    folder: Callable[[Any], Path]  # ExperimentConfig -> the artifact's folder
    block_label: str
    #: CPU seconds per unit assumed before any is measured (from the full variant's costs in
    #: config/full.yaml's comments); later slices use the measured ones.
    default_cpu_s: float
    #: A unit's summary from its finished job's result file (``result``, in the unit's folder).
    metrics: Callable[[Path], Mapping[str, Any]]
    result: str = "out_jobs.csv"


ARTIFACTS: dict[str, Artifact] = {
    "seed000_fig8": Artifact(
        Accumulating("seed000_fig8", _run_units, _seed_of, _with_seeds),
        lambda exp: exp.seed000_fig8,
        lambda exp: exp.seed000_fig8_dir,
        "seed",
        140.0,  # about 4 CPU hours for 105 runs
        multiapp_metrics,
    ),
    "seed000_fig9": Artifact(
        Accumulating("seed000_fig9", _run_units, _seed_of, _with_seeds),
        lambda exp: exp.seed000_fig9,
        lambda exp: exp.seed000_fig9_dir,
        "seed",
        100.0,  # about 17 CPU hours for 600 runs
        multiapp_metrics,
    ),
    "seed000_fig10": Artifact(
        Accumulating("seed000_fig10", _run_units, _seed_of, _with_seeds),
        lambda exp: exp.seed000_fig10,
        lambda exp: exp.seed000_fig10_dir,
        "seed",
        300.0,  # about 4 CPU hours for 50 runs
        fig10_run_metrics,
    ),
    "daemons_on_nodes": Artifact(
        Accumulating("daemons_on_nodes", _run_units, _seed_of, _with_seeds),
        lambda exp: exp.daemons_on_nodes,
        lambda exp: exp.daemons_on_nodes_dir,
        "seed",
        30.0,  # a few CPU s per run on the small topologies (quick variant); more on the large ones
        multiapp_metrics,
    ),
    "burst_buffers": Artifact(
        Accumulating("burst_buffers", _run_units, _seed_of, _with_seeds),
        lambda exp: exp.burst_buffers,
        lambda exp: exp.burst_buffers_dir,
        "seed",
        150.0,  # full: ~10 CPU s without staging servers, 260 with 16 on the 512-node torus (one sample)
        burst_run_metrics,
    ),
    "seed000_fig7": Artifact(
        Accumulating("seed000_fig7", _run_units, _storage_of, _with_storages),
        lambda exp: exp.seed000_fig7,
        lambda exp: exp.seed000_fig7_dir,
        "STG-k value",
        20.0,  # a few s of CPU per run without distribution, up to ~40 s at STG-64 with it
        fig7_run_summary,
    ),
    "seed004_interference": Artifact(
        Accumulating("seed004_interference", _case_units, _size_of, _with_sizes, unit_label="cases"),
        lambda exp: exp.seed004_interference,
        lambda exp: exp.seed004_interference_dir,
        "HPL size",
        540.0,  # about 6 CPU hours for 40 cases
        case_metrics,
        result="runs.csv",
    ),
    "seed002_twins": Artifact(
        Accumulating(
            "seed002_twins", seed002_units.units, seed002_units.block, seed002_units.restrict, unit_label="jobs"
        ),
        lambda exp: exp.seed002_twins,
        lambda exp: exp.seed002_twins_dir,
        "parameter set",
        # a case at scale 1 (48 runs of 128 processes): 199.5 CPU s measured for a 32 KiB one (the
        # first committed, shared_strided read at α = 0; 256 KiB requests are 8x fewer); a
        # scheduling run about 140 CPU s (config/full.yaml)
        200.0,
        case_metrics,
        result="runs.csv",
    ),
}


def artifact(name: str) -> Artifact:
    try:
        return ARTIFACTS[name]
    except KeyError:
        raise UserError(f"{name}: not an artifact that accumulates (known: {', '.join(ARTIFACTS)})") from None
