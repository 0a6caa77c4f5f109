"""Allocators against the optimum step 3, the table: the rows as the figure's plotted numbers,
and per platform and method the summary the report prints."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from datasched.analysis.csv_rows import write_rows

COLUMNS = ("platform", "scenario", "method", "bytes", "cost", "hops_per_byte", "optimum_hops_per_byte")


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)


def summary(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per platform and method: mean hops per byte, ratio of summed costs to the optimum's,
    worst per-scenario excess (hops per byte), and scenarios at the optimum."""
    out = []
    for platform in dict.fromkeys(r["platform"] for r in rows):
        for method in dict.fromkeys(r["method"] for r in rows):
            mine = [r for r in rows if r["platform"] == platform and r["method"] == method]
            cost = sum(r["cost"] for r in mine)
            best = sum(r["optimum_hops_per_byte"] * r["bytes"] for r in mine)
            excess = [r["hops_per_byte"] - r["optimum_hops_per_byte"] for r in mine]
            out.append(
                {
                    "platform": platform,
                    "method": method,
                    "mean_hops_per_byte": float(np.mean([r["hops_per_byte"] for r in mine])),
                    "ratio_to_optimum": cost / best if best > 0 else float("nan"),
                    "worst_excess_hops": max(excess),
                    "at_optimum": sum(e <= 1e-9 for e in excess),
                    "scenarios": len(mine),
                }
            )
    return out
