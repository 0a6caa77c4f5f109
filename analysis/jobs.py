"""Tidy loading of Batsim ``_jobs.csv`` files: one row per job, one column per parameter.

Why tidy: every figure and metric is a group-by over parameters (trace, policy,
allocation, seed, ...). Keeping the parameters as columns next to each job, instead of
one DataFrame per run, makes a new sweep dimension a new column and nothing else.

Runs are found by their path: the pipeline writes each simulation under hive-style
segments ``key=value`` (``trace=hpc2n/policy=easy/allocation=random/seed=3``), so the
parameters are read back from the path and never need a side file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

#: Columns read from ``_jobs.csv`` and their types (Batsim 4 ``output-jobs.rst``).
JOB_COLUMNS: dict[str, str] = {
    "job_id": "string",
    "submission_time": "float64",
    "requested_number_of_resources": "int64",
    "requested_time": "float64",
    "success": "int64",
    "final_state": "string",
    "starting_time": "float64",
    "execution_time": "float64",
    "finish_time": "float64",
    "allocated_resources": "string",
}


def params_from_path(path: str | Path) -> dict[str, str]:
    """``.../trace=hpc2n/policy=easy/out_jobs.csv`` -> ``{"trace": "hpc2n", "policy": "easy"}``."""
    params = {}
    for part in Path(path).parts:
        key, sep, value = part.partition("=")
        if sep and key:
            params[key] = value
    return params


def read_jobs(path: str | Path, params: Mapping[str, object] | None = None) -> pd.DataFrame:
    """One run's jobs (sorted by numeric job id) with ``params`` as leading columns."""
    frame = pd.read_csv(
        path,
        usecols=list(JOB_COLUMNS),
        dtype=JOB_COLUMNS,
        keep_default_na=False,
        na_values={c: [""] for c in JOB_COLUMNS if JOB_COLUMNS[c] == "float64"},
    )
    order = pd.to_numeric(frame["job_id"], errors="coerce")
    frame = frame.assign(_order=order).sort_values(["_order", "job_id"], kind="stable").drop(columns="_order")
    frame = frame.reset_index(drop=True)
    for i, (key, value) in enumerate((params or {}).items()):
        frame.insert(i, key, value)
    return frame


def load_runs(
    paths: Iterable[str | Path], extra: Mapping[str, Mapping[str, Mapping[str, object]]] | None = None
) -> pd.DataFrame:
    """Concatenate runs into one tidy table; parameters come from each path.

    ``extra`` adds per-trace (or any path-parameter) columns, e.g. the platform size:
    ``{"trace": {"hpc2n": {"nodes": 240}}}``.
    """
    frames = []
    for path in sorted(str(p) for p in paths):
        params: dict[str, object] = dict(params_from_path(Path(path).parent))
        for key, table in (extra or {}).items():
            params.update(table.get(str(params.get(key)), {}))
        frames.append(read_jobs(path, params))
    if not frames:
        raise ValueError("no _jobs.csv files to load")
    return pd.concat(frames, ignore_index=True)


def find_runs(root: str | Path, pattern: str = "**/out_jobs.csv") -> list[Path]:
    """Every ``_jobs.csv`` under ``root`` (sorted, so tables are built in a fixed order)."""
    return sorted(Path(root).glob(pattern))
