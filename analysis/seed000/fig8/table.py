"""Figure 8 step 2, the table: per (topology, strategy, access) the mean total time over the seeds
with its 95 % interval, and the plotted CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_rows
from datasched.analysis.seed000.fig8.spec import Fig8Run, Fig8Spec
from datasched.analysis.seed000.multi_application import (
    SUMMARY_COLUMNS,
    seed_summary,
)
from datasched.analysis.stats import mean_ci95

COLUMNS = (
    "topology",
    "storage",
    "access",
    *SUMMARY_COLUMNS,
    "vs_cache",
    "vs_cache_ci95_low",
    "vs_cache_ci95_high",
)


def table_rows(spec: Fig8Spec, results: Mapping[Fig8Run, tuple[float, float]]) -> list[dict[str, Any]]:
    """Per topology and variant: the mean total time over seeds, and the paired ratio to
    Cache (each seed's workload against itself under Cache, so the spread between
    workloads, large with a few seeds, does not hide the difference between policies)."""
    rows = []
    for topology in spec.platforms:
        cache = {s: results[Fig8Run(topology, "cache", "L", s)][0] for s in spec.seeds}
        for strategy, access in spec.variants():
            values = [results[Fig8Run(topology, strategy, access, s)] for s in spec.seeds]
            ratio = mean_ci95([v[0] / cache[s] for v, s in zip(values, spec.seeds, strict=True)])
            rows.append(
                {
                    "topology": topology,
                    "storage": strategy,
                    "access": access,
                    **seed_summary(values),
                    "vs_cache": ratio.mean,
                    "vs_cache_ci95_low": ratio.low,
                    "vs_cache_ci95_high": ratio.high,
                }
            )
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)


def by_strategy(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], Mapping[str, Any]]:
    """The table's rows by (topology, storage strategy, access)."""
    return {(r["topology"], r["storage"], r["access"]): r for r in rows}
