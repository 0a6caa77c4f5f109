"""Figure 10 step 3, the table: per (I/O model, topology, policy) the mean run and total times over
the seeds, with the paired per-seed ratio to NP, and the plotted CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_rows
from datasched.analysis.seed000.fig10.spec import Fig10Spec
from datasched.analysis.stats import mean_ci95

COLUMNS = (
    "io",
    "policy",
    "n_seeds",
    "mean_run_s",
    "mean_total_s",
    "mean_wait_s",
    "run_vs_np",
    "run_vs_np_ci95_low",
    "run_vs_np_ci95_high",
    "total_vs_np",
    "total_vs_np_ci95_low",
    "total_vs_np_ci95_high",
)


def table_rows(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per I/O model and policy with at least one run: means over its seeds, and the paired
    per-seed ratio to NP (same model) of the mean run time and of the mean total time (over
    the seeds NP also has)."""
    rows = []
    for io in spec.io_distributions:
        rows += _model_rows(spec, [r for r in runs if r["io"] == io], io)
    return rows


def _model_rows(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]], io: str) -> list[dict[str, Any]]:
    by = {(r["policy"], r["seed"]): r for r in runs if r["topology"] == spec.topology}
    rows = []
    for policy in spec.policies:
        seeds = [s for s in spec.seeds if (policy, s) in by]
        if not seeds:
            continue
        paired = [s for s in seeds if ("np", s) in by]
        row: dict[str, Any] = {
            "io": io,
            "policy": policy,
            "n_seeds": len(seeds),
            **{
                k: sum(by[(policy, s)][k] for s in seeds) / len(seeds)
                for k in ("mean_run_s", "mean_total_s", "mean_wait_s")
            },
        }
        for metric, key in (("run", "mean_run_s"), ("total", "mean_total_s")):
            if paired:
                ci = mean_ci95([by[(policy, s)][key] / by[("np", s)][key] for s in paired])
                row |= {
                    f"{metric}_vs_np": ci.mean,
                    f"{metric}_vs_np_ci95_low": ci.low,
                    f"{metric}_vs_np_ci95_high": ci.high,
                }
            else:
                row |= {f"{metric}_vs_np": "", f"{metric}_vs_np_ci95_low": "", f"{metric}_vs_np_ci95_high": ""}
        rows.append(row)
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)
