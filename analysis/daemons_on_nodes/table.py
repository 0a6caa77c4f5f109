"""Daemons-on-nodes step 2, the table: per (platform, allocation, placement, daemon cost) the
mean total time over the seeds with its 95 % interval, and three paired ratios — each seed's
workload against itself under another setting (analysis/paired_settings.py), so the spread
between workloads does not hide the difference between settings:

- ``vs_no_daemons``: against the same policies without daemons (cost 0): what the daemons cost;
- ``vs_least_loaded``: ``idle_nodes`` against ``least_loaded`` at the same allocation and cost;
- ``vs_sequential``: ``data_aware`` against ``sequential`` at the same placement and cost."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_rows
from datasched.analysis.daemons_on_nodes.spec import DaemonsRun, DaemonsSpec
from datasched.analysis.paired_settings import paired_ratio, partners_of, put_ratio, ratio_columns
from datasched.analysis.seed000.multi_application import SUMMARY_COLUMNS, seed_summary

#: the paired comparisons: column prefix -> which field of the run changes, and to what
COMPARISONS = {
    "vs_no_daemons": ("cpu_s_per_gb", 0.0),
    "vs_least_loaded": ("placement", "least_loaded"),
    "vs_sequential": ("allocation", "sequential"),
}

COLUMNS = (
    "platform",
    "allocation",
    "placement",
    "cpu_s_per_gb",
    *SUMMARY_COLUMNS,
    *(column for name in COMPARISONS for column in ratio_columns(name)),
)


def table_rows(spec: DaemonsSpec, results: Mapping[DaemonsRun, tuple[float, float]]) -> list[dict[str, Any]]:
    """One row per setting; a comparison is empty where its partner is the row itself or
    was not run (e.g. no cost 0 in the sweep)."""
    rows = []
    for platform in spec.platforms:
        for allocation in spec.allocations:
            for placement in spec.placements:
                for cost in spec.cpu_s_per_gb:
                    runs = [DaemonsRun(platform, allocation, placement, cost, s) for s in spec.seeds]
                    values = [results[r] for r in runs]
                    row: dict[str, Any] = {
                        "platform": platform,
                        "allocation": allocation,
                        "placement": placement,
                        "cpu_s_per_gb": cost,
                        **seed_summary(values),
                    }
                    for name, (field, value) in COMPARISONS.items():
                        put_ratio(row, name, paired_ratio(results, runs, partners_of(runs, field, value)))
                    rows.append(row)
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)
