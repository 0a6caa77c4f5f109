"""Figure 10 step 2, the runs: one row per completed simulation — its identity (I/O model,
topology, policy, seed) and its means over the applications. The means are the run's summary
(:func:`run_metrics`), computed the same way from a simulation or kept in a committed summary
when the paper-sized variant accumulates run by run (analysis/accumulate.py)."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig10.spec import Fig10Run


def run_metrics(jobs_csv: Path) -> dict[str, Any]:
    """A run's means over its applications (every one must have completed)."""
    with open(jobs_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    bad = [r["job_id"] for r in rows if r["final_state"] != "COMPLETED_SUCCESSFULLY"]
    if bad or not rows:
        raise RuntimeError(f"{jobs_csv}: applications {bad or '(none)'} did not complete")
    n = len(rows)
    return {
        "n_apps": n,
        "mean_run_s": sum(float(r["execution_time"]) for r in rows) / n,
        "mean_wait_s": sum(float(r["waiting_time"]) for r in rows) / n,
        "mean_total_s": sum(float(r["turnaround_time"]) for r in rows) / n,
        "makespan_s": max(float(r["finish_time"]) for r in rows),
    }


def run_row(run: Fig10Run, metrics: Mapping[str, Any]) -> dict[str, Any]:
    """The run's row: its identity and its summary."""
    return {"io": run.io, "topology": run.topology, "policy": run.policy, "seed": run.seed, **metrics}
