"""Burst buffers step 2, the table: per (platform, allocation, staging servers) the mean total
time over the seeds with its 95 % interval, what the staging servers did (means over the seeds),
and two paired ratios (analysis/paired_settings.py: each seed's workload against itself under
the other setting):

- ``vs_no_buffers``: against the same allocation without staging servers (S = 0);
- ``vs_sequential``: the allocation against ``sequential`` with the same staging servers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.burst_buffers.spec import BurstRun, BurstSpec
from datasched.analysis.csv_rows import write_rows
from datasched.analysis.paired_settings import paired_ratio, partners_of, put_ratio, ratio_columns
from datasched.analysis.seed000.multi_application import SUMMARY_COLUMNS, seed_summary

#: the paired comparisons: column -> which field of the run changes, and to what
COMPARISONS = {"vs_no_buffers": ("staging_servers", 0), "vs_sequential": ("allocation", "sequential")}

#: the staging servers' numbers, averaged over the seeds (analysis/burst_buffers/metrics.py)
STAGING_COLUMNS = ("staged_gb", "busiest_share", "left_gb")

COLUMNS = (
    "platform",
    "allocation",
    "staging_servers",
    *SUMMARY_COLUMNS,
    *STAGING_COLUMNS,
    *(column for name in COMPARISONS for column in ratio_columns(name)),
)


def table_rows(spec: BurstSpec, metrics: Mapping[BurstRun, Mapping[str, float]]) -> list[dict[str, Any]]:
    """One row per setting; a comparison is empty where its partner is the row itself or was
    not run (e.g. no S = 0 in the sweep)."""
    means = {run: (m["mean_total_s"], m["mean_wait_s"]) for run, m in metrics.items()}
    rows = []
    for platform in spec.topologies:
        for allocation in spec.allocations:
            for servers in spec.staging_servers:
                runs = [BurstRun(platform, allocation, servers, seed) for seed in spec.seeds]
                row: dict[str, Any] = {
                    "platform": platform,
                    "allocation": allocation,
                    "staging_servers": servers,
                    **seed_summary([means[r] for r in runs]),
                }
                for column in STAGING_COLUMNS:
                    row[column] = sum(metrics[r][column] for r in runs) / len(runs)
                for name, (field, value) in COMPARISONS.items():
                    put_ratio(row, name, paired_ratio(means, runs, partners_of(runs, field, value)))
                rows.append(row)
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)
