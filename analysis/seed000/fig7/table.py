"""Figure 7 step 2, the table: one row per run with its run time relative to NP, the plotted CSV
and its reader."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig7.spec import Fig7Run

COLUMNS = ("io", "storage", "remote_pct", "policy", "sharing", "runtime_s", "vs_np")


def table_rows(results: Mapping[Fig7Run, float]) -> list[dict[str, Any]]:
    """One row per run with its run time relative to NP's (same I/O model, storage, remote,
    sharing)."""
    np_time = {(r.io, r.storage, r.remote, r.sharing): t for r, t in results.items() if r.policy == "np"}
    rows = [
        {
            "io": r.io,
            "storage": r.storage,
            "remote_pct": r.remote,
            "policy": r.policy,
            "sharing": r.sharing,
            "runtime_s": t,
            "vs_np": t / np_time[(r.io, r.storage, r.remote, r.sharing)],
        }
        for r, t in results.items()
    ]

    def order(row: Mapping[str, Any]) -> tuple:
        p = row["policy"]
        rank = (0, 0.0) if p == "np" else (2, 0.0) if p == "fp" else (1, float(p.removeprefix("ba:")))
        storage = int(row["storage"].removeprefix("stg-"))
        return (row["io"], row["sharing"] != "activity", storage, row["remote_pct"], rank)

    return sorted(rows, key=order)


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "runtime_s": f"{row['runtime_s']:.6f}", "vs_np": f"{row['vs_np']:.6f}"})
    return path


def read_table(path: Path) -> list[dict[str, Any]]:
    with open(path, newline="") as handle:
        return [
            {
                "io": r["io"],
                "storage": r["storage"],
                "remote_pct": float(r["remote_pct"]),
                "policy": r["policy"],
                "sharing": r["sharing"],
                "runtime_s": float(r["runtime_s"]),
                "vs_np": float(r["vs_np"]),
            }
            for r in csv.DictReader(handle)
        ]


def vs_np_at(
    rows: Sequence[Mapping[str, Any]], io: str, storage: str, remote: float, policy: str, sharing: str
) -> float | None:
    """One run's run time relative to NP (``vs_np``), or None when the table has no such run."""
    key = (io, storage, remote, policy, sharing)
    for r in rows:
        if (r["io"], r["storage"], r["remote_pct"], r["policy"], r["sharing"]) == key:
            return float(r["vs_np"])
    return None
