"""Seed 001 on WfCommons shapes step 3, the table: every metric's mean and range over the recorded
instances of each (application, platform, variant, style, size scale), and the plotted numbers."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_wfcommons.spec import METRICS

GROUP = ("app", "platform", "variant", "style", "size_scale")


def summarise(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Mean and range (min, max) of every metric over the instances of each group."""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in GROUP), []).append(r)
    out = []
    for key, members in groups.items():
        entry: dict[str, Any] = dict(zip(GROUP, key, strict=True)) | {"instances": len(members)}
        for metric in METRICS:
            values = [float(m[metric]) for m in members]
            entry |= {metric: sum(values) / len(values), f"{metric}_min": min(values), f"{metric}_max": max(values)}
        out.append(entry)
    return out


def write_table(summary: Sequence[Mapping[str, Any]], path: Path) -> None:
    columns = [*GROUP, "instances", *(f"{m}{s}" for m in METRICS for s in ("", "_min", "_max"))]
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        for r in summary:
            writer.writerow([f"{r[c]:.3f}" if isinstance(r[c], float) else r[c] for c in columns])


def find_group(summary: Sequence[Mapping[str, Any]], **key: Any) -> Mapping[str, Any] | None:
    """The first summary row whose columns equal ``key`` (None: no such group)."""
    for r in summary:
        if all(r[k] == v for k, v in key.items()):
            return r
    return None


def group_label(r: Mapping[str, Any]) -> str:
    """A summary row's platform/variant, as the figure's legend and the report name it."""
    return f"{r['platform']}/{r['variant']}"


def mean_range(r: Mapping[str, Any], metric: str, unit: float = 1.0, digits: int = 1) -> str:
    """``mean [min..max]`` of ``metric`` over the group's instances (the mean alone for one instance:
    no range), scaled by ``unit``."""
    if r["instances"] < 2:
        return f"{r[metric] * unit:.{digits}f}"
    low, high = r[f"{metric}_min"] * unit, r[f"{metric}_max"] * unit
    return f"{r[metric] * unit:.{digits}f} [{low:.{digits}f}..{high:.{digits}f}]"
