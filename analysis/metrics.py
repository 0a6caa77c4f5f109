"""Scheduling metrics: per job, per run, and over seeds.

Definitions (Feitelson's usual ones, stated because papers differ):

* waiting = start − submission; turnaround = finish − submission;
* slowdown = turnaround / run time (run time = ``execution_time``, which for jobs killed
  at their walltime is the time they ran);
* bounded slowdown = max(1, turnaround / max(run time, τ)) with τ = 10 s, so that very
  short jobs do not dominate the mean;
* makespan = last finish − first submission of the run;
* utilisation = Σ (run time × nodes) / (platform nodes × makespan).

Rejected jobs never start: they are counted (``rejected_jobs``) and left out of the time
metrics. Killed jobs (walltime reached) did occupy nodes: they count everywhere and are
also counted (``killed_jobs``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .stats import mean_ci95

BSLD_TAU = 10.0

#: Per-run metrics, in report order, with their unit.
RUN_METRICS: dict[str, str] = {
    "jobs": "",
    "killed_jobs": "",
    "rejected_jobs": "",
    "mean_waiting": "s",
    "p50_waiting": "s",
    "p95_waiting": "s",
    "mean_turnaround": "s",
    "p95_turnaround": "s",
    "mean_slowdown": "",
    "mean_bounded_slowdown": "",
    "p95_bounded_slowdown": "",
    "makespan": "s",
    "utilisation": "",
}


def add_job_metrics(jobs: pd.DataFrame, tau: float = BSLD_TAU) -> pd.DataFrame:
    """Returns ``jobs`` with ``started``, ``waiting``, ``turnaround``, ``slowdown``,
    ``bounded_slowdown`` columns (NaN for jobs that never started)."""
    started = (jobs["final_state"] != "REJECTED") & (jobs["starting_time"] >= 0)
    run = jobs["execution_time"].where(started)
    turnaround = (jobs["finish_time"] - jobs["submission_time"]).where(started)
    return jobs.assign(
        started=started,
        waiting=(jobs["starting_time"] - jobs["submission_time"]).where(started),
        turnaround=turnaround,
        slowdown=(turnaround / run.where(run > 0)),
        bounded_slowdown=np.maximum(1.0, turnaround / np.maximum(run, tau)),
    )


def run_metrics(jobs: pd.DataFrame, by: Sequence[str], nodes_column: str = "nodes") -> pd.DataFrame:
    """One row per run (``by`` = the columns identifying a run), columns :data:`RUN_METRICS`."""
    jobs = add_job_metrics(jobs)
    rows = []
    for key, run in jobs.groupby(list(by), sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        ok = run[run["started"]]
        makespan = float(run["finish_time"].where(run["started"]).max() - run["submission_time"].min())
        nodes = float(run[nodes_column].iloc[0])
        busy = float((ok["execution_time"] * ok["requested_number_of_resources"]).sum())
        rows.append(
            {
                **dict(zip(by, key, strict=True)),
                "jobs": len(run),
                "killed_jobs": int((run["final_state"] == "COMPLETED_WALLTIME_REACHED").sum()),
                "rejected_jobs": int((~run["started"]).sum()),
                "mean_waiting": ok["waiting"].mean(),
                "p50_waiting": ok["waiting"].quantile(0.50),
                "p95_waiting": ok["waiting"].quantile(0.95),
                "mean_turnaround": ok["turnaround"].mean(),
                "p95_turnaround": ok["turnaround"].quantile(0.95),
                "mean_slowdown": ok["slowdown"].mean(),
                "mean_bounded_slowdown": ok["bounded_slowdown"].mean(),
                "p95_bounded_slowdown": ok["bounded_slowdown"].quantile(0.95),
                "makespan": makespan,
                "utilisation": busy / (nodes * makespan) if makespan > 0 else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def summarise_over_seeds(runs: pd.DataFrame, by: Sequence[str], metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Long table: ``by`` columns, ``metric``, ``mean``, ``ci95_low``, ``ci95_high``, ``runs``.

    Each group holds the runs that differ only by seed; deterministic configurations
    have one run and a zero-width interval (``runs`` = 1 says so).
    """
    metrics = list(metrics or [m for m in RUN_METRICS if m in runs.columns])
    rows = []
    for key, group in runs.groupby(list(by), sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        for metric in metrics:
            ci = mean_ci95(group[metric].dropna().tolist() or [float("nan")])
            rows.append(
                {
                    **dict(zip(by, key, strict=True)),
                    "metric": metric,
                    "mean": ci.mean,
                    "ci95_low": ci.low,
                    "ci95_high": ci.high,
                    "runs": ci.n,
                }
            )
    return pd.DataFrame(rows)
