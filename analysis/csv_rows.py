"""One way to write the row files an artifact's steps pass to each other (a case's
``runs.csv``, a figure's plotted numbers): columns in a fixed order, floats with 9
significant digits (enough to round-trip what the engine prints, short enough to diff),
and written atomically, so a run killed half-way never leaves a file that looks complete."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def write_csv(path: Path, columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> Path:
    """Writes ``rows`` (each with every column) to ``path`` through a temporary file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: (f"{row[c]:.9g}" if isinstance(row[c], float) else row[c]) for c in columns})
    tmp.replace(path)
    return path


def write_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], path: Path) -> Path:
    """A plotted-numbers CSV: floats as ``%.6f`` (as Batsim's CSVs), the rest as they are."""
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6f}" if isinstance(v, float) else v) for k, v in row.items()})
    return path
