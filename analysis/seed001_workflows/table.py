"""Seed 001 Table 4 step 3, the table: one row per bookkeeping run (T_all, T_safe, the eqs. 1-5
sums) beside the paper's T_all for its policy: the figure's plotted numbers."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_workflows.spec import PAPER_T_ALL

COLUMNS = ("nvm", "style", "policy", "t_all", "t_safe", "t_all_eq", "t_queue", "t_run", "t_io", "t_compute",
           "r_all_eq2", "r_all_eq3", "makespan")  # fmt: skip


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([*COLUMNS, "paper_t_all"])
        for r in rows:
            writer.writerow([*(f"{r[c]:.3f}" if isinstance(r[c], float) else r[c] for c in COLUMNS),
                             f"{PAPER_T_ALL[r['policy']]:.0f}"])  # fmt: skip
