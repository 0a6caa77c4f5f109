"""What Figures 8, 9 and 10 share as multi-application sweeps: the engine's node count of a
platform, the markov parameters and run settings of a workload, and per-run means summarised
over seeds."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.stats import mean_ci95


def compute_nodes(platform: Path) -> int:
    """The platform's compute nodes, as the engine counts them (``datasched-sim --inspect``)."""
    from datasched.engine import inspect_platform

    return int(inspect_platform(platform)["nb_compute_resources"])


def run_means(jobs_csv: Path) -> tuple[float, float]:
    """(mean total time, mean waiting time) of one run's applications; every one must
    have completed (a killed or failed application would make the mean meaningless)."""
    with open(jobs_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    bad = [r["job_id"] for r in rows if r["final_state"] != "COMPLETED_SUCCESSFULLY"]
    if bad or not rows:
        raise RuntimeError(f"{jobs_csv}: applications {bad or '(none)'} did not complete")
    total = sum(float(r["turnaround_time"]) for r in rows) / len(rows)
    wait = sum(float(r["waiting_time"]) for r in rows) / len(rows)
    return total, wait


def multi_application_params(
    seed: int, n_apps: int, n_phases: int, nb_nodes: int, *, san_k: int, staging: str
) -> dict[str, Any]:
    """The markov generator's parameters for Figures 8 and 9: Table 1's multi-application
    column over the whole system (Tasks ~ U{1..nb_nodes}), every application drawn as
    Internal (so each has an STG-k; storage policies override the allocation), all at
    t = 0, no walltime, staging over the first ``san_k`` servers."""
    return {
        "kind": "multi",
        "seed": seed,
        "n_apps": n_apps,
        "max_tasks": nb_nodes,
        "allocations": ["internal"],
        "san_k_choices": [san_k],
        "staging": staging,
        "walltime_factor": None,
        "sizes": {"n_phases": n_phases},
    }


def run_settings(data: Mapping[str, Any]) -> dict[str, Any]:
    """How a multi-application artifact runs its simulations (config keys shared by
    Figures 8 and 9, with their defaults): queue policy, allocation, traffic policy and
    the engine's all-to-all mode."""
    return {
        "scheduler": str(data.get("scheduler", "fcfs")),
        "allocation": str(data.get("allocation", "sequential")),
        "traffic_policy": str(data.get("traffic_policy", "np")),
        "ipc_fanout": int(data.get("ipc_fanout", 0)),
    }


#: The per-group columns of :func:`seed_summary`, in the plotted CSVs' order.
SUMMARY_COLUMNS = ("n_seeds", "mean_total_s", "ci95_low_s", "ci95_high_s", "mean_wait_s")


def seed_summary(values: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """One group's (mean total, mean wait) per seed summarised: the mean total time with
    its 95 % t interval over the seeds, and the mean waiting time."""
    ci = mean_ci95([v[0] for v in values])
    return {
        "n_seeds": len(values),
        "mean_total_s": ci.mean,
        "ci95_low_s": ci.low,
        "ci95_high_s": ci.high,
        "mean_wait_s": sum(v[1] for v in values) / len(values),
    }


def communicate_phases(ipc_fanout: int) -> str:
    """The reports' set-up sentence on how communicate phases ran (``run_settings``' ``ipc_fanout``)."""
    if ipc_fanout:
        return f"communicate phases as the engine's calibrated approximate all-to-all (`--ipc-fanout {ipc_fanout}`)."
    return "exact all-to-all communicate phases."
