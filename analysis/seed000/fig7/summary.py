"""Figure 7 step 2, one run's summary: what the figure and the report need from a finished
simulation — its application's run time, and where its read phases spent their time (storage
against IPC class, from the engine's ``out_io.csv``). The same numbers whether the artifact reads
the simulations or, for a full variant that accumulates, the committed summaries
(analysis/accumulate.py): both go through :func:`run_summary`."""

from __future__ import annotations

import csv
from pathlib import Path

#: The engine's per-job seconds (out_io.csv) that show where a policy's time goes.
BREAKDOWN_COLUMNS = ("read_phase_seconds", "storage_class_seconds", "ipc_class_seconds")


def _only_row(path: Path) -> dict[str, str]:
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    if len(rows) != 1:
        raise RuntimeError(f"{path}: {len(rows)} rows, expected the single application's one")
    return rows[0]


def run_summary(jobs_csv: Path) -> dict[str, float]:
    """``runtime_s`` (the application's execution time) and :data:`BREAKDOWN_COLUMNS`, from a
    run's ``out_jobs.csv`` and the ``out_io.csv`` beside it; the application must have completed."""
    job = _only_row(jobs_csv)
    if job["final_state"] != "COMPLETED_SUCCESSFULLY":
        raise RuntimeError(f"{jobs_csv}: the application ended {job['final_state']}")
    io = _only_row(jobs_csv.parent / "out_io.csv")
    return {"runtime_s": float(job["execution_time"]), **{column: float(io[column]) for column in BREAKDOWN_COLUMNS}}
