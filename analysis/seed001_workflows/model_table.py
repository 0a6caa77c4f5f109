"""Seed 001 Table 4 model, the plotted numbers: one CSV row per (parameter set, seed), as
:func:`.model_runs.run_all` returns them (``seed001_table4_model_plotted.csv``)."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

COLUMNS = ("set", "size_rate", "lustre_bw", "tier", "style", "load", "seed", "t_all_unaware", "t_all_aware",
           "t_io_unaware", "t_io_aware", "t_queue_unaware", "t_queue_aware", "wait9_unaware",
           "wait9_aware")  # fmt: skip


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([f"{r[c]:.6g}" if isinstance(r[c], float) else r[c] for c in COLUMNS])
