"""The artifacts that can accumulate (analysis/accumulate.py) and what each one's unit is:
its planned units, blocks, restricted spec, summary metrics, and where its config lives.

- seed 000 Fig. 8 and Fig. 9: a unit is one simulation; a block is a workload seed (a figure
  from the complete seeds is the figure of a config with those seeds);
- seed 004: a unit is one case (node model x HPL size x configuration: one Snakemake job of
  about 20-40 short runs); a block is an HPL size over both node models and every configuration.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import Accumulating, replace
from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.multi_application import run_means
from datasched.errors import UserError


def _seed_units(spec: Any) -> list[str]:
    return [run.path for run in spec.runs()]


def _seed_of(unit: str) -> int:
    return int(path_fields(unit)["seed"])


def _with_seeds(spec: Any, seeds: list[Any]) -> Any:
    return replace(spec, seeds=tuple(seeds))


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
    """A seed-004 case's summary: its rows of runs.csv, as written (a few kB)."""
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
    metrics: Callable[[Path], Mapping[str, Any]]


ARTIFACTS: dict[str, Artifact] = {
    "seed000_fig8": Artifact(
        Accumulating("seed000_fig8", _seed_units, _seed_of, _with_seeds),
        lambda exp: exp.seed000_fig8,
        lambda exp: exp.seed000_fig8_dir,
        "seed",
        140.0,  # about 4 CPU hours for 105 runs
        multiapp_metrics,
    ),
    "seed000_fig9": Artifact(
        Accumulating("seed000_fig9", _seed_units, _seed_of, _with_seeds),
        lambda exp: exp.seed000_fig9,
        lambda exp: exp.seed000_fig9_dir,
        "seed",
        100.0,  # about 17 CPU hours for 600 runs
        multiapp_metrics,
    ),
    "seed004_interference": Artifact(
        Accumulating("seed004_interference", _case_units, _size_of, _with_sizes, unit_label="cases"),
        lambda exp: exp.seed004_interference,
        lambda exp: exp.seed004_interference_dir,
        "HPL size",
        540.0,  # about 6 CPU hours for 40 cases
        case_metrics,
    ),
}


def artifact(name: str) -> Artifact:
    try:
        return ARTIFACTS[name]
    except KeyError:
        raise UserError(f"{name}: not an artifact that accumulates (known: {', '.join(ARTIFACTS)})") from None
