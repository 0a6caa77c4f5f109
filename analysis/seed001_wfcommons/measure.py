"""Seed 001 on WfCommons shapes: the metrics of one run (the package docstring lists them) read
from the engine's outputs (``out_jobs.csv``, ``out_io.csv``, ``out_nvm.csv``)."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path


def _csv(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def _total(rows: Sequence[Mapping[str, str]], *columns: str) -> float:
    return sum(float(r[c]) for r in rows for c in columns)


def peak_occupancy(rows: Sequence[Mapping[str, str]]) -> tuple[float, float]:
    """(highest total over the NVMs, highest of one NVM) of ``out_nvm.csv`` rows; the
    changes of one date are applied together before the total is read."""
    used: dict[str, float] = {}
    peak_total = peak_one = 0.0
    for i, row in enumerate(rows):
        used[row["nvm"]] = float(row["used_bytes"])
        peak_one = max(peak_one, used[row["nvm"]])
        if i + 1 == len(rows) or rows[i + 1]["time"] != row["time"]:
            peak_total = max(peak_total, sum(used.values()))
    return peak_total, peak_one


def measure(out: Path) -> dict[str, float]:
    """The metrics of one run (the package docstring) from its output directory."""
    jobs = _csv(out / "out_jobs.csv")
    io = _csv(out / "out_io.csv")
    peak_total, peak_one = peak_occupancy(_csv(out / "out_nvm.csv"))
    return {
        "makespan": max(float(j["finish_time"]) for j in jobs) - min(float(j["submission_time"]) for j in jobs),
        "interconnect_bytes": _total(io, "remote_nvm_bytes", "network_bytes"),
        "central_write_bytes": _total(io, "item_written_central_bytes", "writeback_bytes"),
        "central_read_bytes": _total(io, "item_read_central_bytes"),
        "peak_nvm_bytes": peak_total,
        "peak_node_nvm_bytes": peak_one,
    }
