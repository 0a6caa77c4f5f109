"""Burst buffers: one run's numbers, the same whether read from its simulation's outputs or
from a committed summary — the two means seed 000's figures use, and what the staging servers
did (``<prefix>_staging.csv``, one row per server): the bytes they absorbed, the share the
busiest one absorbed (the static node-to-server mapping concentrates a job's writes on the
servers of its nodes), and the bytes still staged, not drained, when the last job ended."""

from __future__ import annotations

import csv
from pathlib import Path

from datasched.analysis.seed000.multi_application import run_means

GB = 1e9


def run_metrics(jobs_csv: Path) -> dict[str, float]:
    """A run's summary; a run without staging servers (no ``out_staging.csv``) absorbed nothing."""
    total, wait = run_means(jobs_csv)
    metrics = {"mean_total_s": total, "mean_wait_s": wait, "staged_gb": 0.0, "busiest_share": 0.0, "left_gb": 0.0}
    staging = jobs_csv.with_name(jobs_csv.name.replace("_jobs.csv", "_staging.csv"))
    if staging.is_file():
        with open(staging, newline="") as handle:
            rows = list(csv.DictReader(handle))
        absorbed = [float(r["absorbed_bytes"]) for r in rows]
        staged = sum(absorbed)
        metrics["staged_gb"] = staged / GB
        metrics["busiest_share"] = max(absorbed) / staged if staged > 0 else 0.0
        metrics["left_gb"] = sum(float(r["left_bytes"]) for r in rows) / GB
    return metrics
