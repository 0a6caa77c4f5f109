"""Seed 001 Table 4, the metrics of one run: T_all and the eqs. 1-5 terms of the workflow's
steps, read from the engine's outputs (``out_jobs.csv``, ``out_io.csv``, ``out_data.csv``).
The model runs (``model_runs.py``) measure theirs with the same function."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def rows_by_job(path: Path) -> dict[str, dict[str, str]]:
    """An engine output CSV (``out_jobs.csv``, ``out_io.csv``) as its rows by ``job_id``."""
    with open(path, newline="") as handle:
        return {row["job_id"]: row for row in csv.DictReader(handle)}


def _stage_out_ends(path: Path) -> list[float]:
    """End dates of the data movers' stage-outs (out_data.csv; absent: none moved)."""
    if not path.exists():
        return []
    with open(path, newline="") as handle:
        return [float(r["end_time"]) for r in csv.DictReader(handle) if r["event"] == "stage_out"]


def measure(out: Path, workload: Mapping[str, Any], style: str, variant: str, policy: str) -> dict[str, Any]:
    """T_all and the eqs. 1-5 terms of the workflow's jobs (jobs 1, 7, 9, or the merged
    single-script job). T(i,queue) = start - max(submission, end of its predecessors):
    for a dependency or chained step, the time it waited once it could have run."""
    jobs = rows_by_job(out / "out_jobs.csv")
    io = rows_by_job(out / "out_io.csv")
    stage_outs = _stage_out_ends(out / "out_data.csv")
    steps = [j for j in workload["jobs"] if (j.get("datasched_workflow") or {}).get("workflow")]
    end: dict[str, float] = {}
    terms: list[dict[str, Any]] = []
    for step in sorted(steps, key=lambda j: float(jobs[str(j["id"])]["starting_time"])):
        key = str(step["id"])
        row = jobs[key]
        start, finish = float(row["starting_time"]), float(row["finish_time"])
        preds = [end[str(p)] for p in step.get("dependencies", []) + step.get("datasched_submit_after", [])]
        ready = max([float(step["subtime"]), *preds])
        end[key] = finish
        t_io = float(io[key]["read_phase_seconds"]) + float(io[key]["write_phase_seconds"])
        terms.append(
            {
                "job": key,
                "nodes": int(step["res"]),
                "queue": start - ready,
                "run": float(row["execution_time"]),
                "io": t_io,
                "compute": float(io[key]["compute_phase_seconds"]),
                "start": start,
            }
        )
    first_submit = min(float(j["subtime"]) for j in steps)
    t_all = max(end.values()) - first_submit
    # when the workflow's data is safe on central storage: a post-moved output gets there
    # after its step ended, in the background
    t_safe = max([max(end.values()), *stage_outs]) - first_submit
    t_all_eq4 = sum(t["queue"] + t["run"] for t in terms)  # eq. 4 (eq. 1 for one job)
    r_max = max(t["nodes"] for t in terms)
    return {
        "nvm": variant,
        "style": style,
        "policy": policy,
        "t_all": t_all,
        "t_safe": t_safe,
        "t_all_eq": t_all_eq4,
        "t_queue": sum(t["queue"] for t in terms),
        "t_run": sum(t["run"] for t in terms),
        "t_io": sum(t["io"] for t in terms),
        "t_compute": sum(t["compute"] for t in terms),
        "r_all_eq2": r_max * t_all,  # eq. 2: R_max x T_all (what a single script holds)
        "r_all_eq3": sum(t["nodes"] * t["run"] for t in terms),  # eq. 3: sum R_i x T_i
        "makespan": max(float(r["finish_time"]) for r in jobs.values()),
        "steps": terms,
    }
