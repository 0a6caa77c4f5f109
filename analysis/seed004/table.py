"""Seed 004 step 3, the table: runs pooled over seeds into slowdowns against HPL alone, and the
queries the claims and the figure ask of it (costs consistent with a band, where a slowdown
curve crosses it, idle overheads)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.seed004.runs import RUN_COLUMNS, read_rows
from datasched.analysis.seed004.spec import CONFIGURATIONS, Case

#: A summary row: a run's setting (its first seven columns, seeds pooled), then the pooled values.
SUMMARY_COLUMNS = (
    *RUN_COLUMNS[:7],
    "runs",
    "makespan",
    "slowdown_pct",
    "slowdown_min_pct",
    "slowdown_max_pct",
    "ior_writes_per_s",
    "max_service_cores",
)


def summarise(case_csvs: Mapping[Case, Path]) -> list[dict[str, Any]]:
    """One row per setting (seeds pooled): mean makespan and its slowdown in % against the
    same size and model's HPL-only run without any service load (no daemon work at all: the
    time HPL needs alone)."""
    return summarise_rows(read_runs(case_csvs))


def read_runs(case_csvs: Mapping[Case, Path]) -> list[dict[str, str]]:
    """Every run row of the cases' ``runs.csv`` files (one per run, seeds apart)."""
    runs: list[dict[str, str]] = []
    for path in case_csvs.values():
        runs += read_rows(path)
    return runs


def summarise_rows(runs: Sequence[Mapping[str, str]]) -> list[dict[str, Any]]:
    """:func:`summarise` over rows already read (the committed summaries of an accumulating
    full variant hold each case's rows as runs.csv has them)."""
    baseline: dict[tuple[str, int], float] = {}
    for r in runs:
        if r["configuration"] == "hpl-only" and float(r["idle_fraction"]) == 0:
            baseline[(r["model"], int(r["size"]))] = float(r["makespan"])
    groups: dict[tuple, list[Mapping[str, str]]] = {}
    for r in runs:
        key = (
            r["model"],
            int(r["size"]),
            r["configuration"],
            r["placement"],
            float(r["request_cost_us"]),
            float(r["idle_fraction"]),
            float(r["idle_period"]),
        )
        groups.setdefault(key, []).append(r)
    rows = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], CONFIGURATIONS.index(k[2]), *k[3:])):
        members = groups[key]
        base = baseline.get((key[0], key[1]))
        makespans = [float(r["makespan"]) for r in members]
        slow = [100 * (m / base - 1) for m in makespans] if base else [math.nan]
        rows.append(
            dict(
                zip(SUMMARY_COLUMNS[:7], key, strict=True),
                runs=len(members),
                makespan=math.fsum(makespans) / len(makespans),
                slowdown_pct=math.fsum(slow) / len(slow),
                slowdown_min_pct=min(slow),
                slowdown_max_pct=max(slow),
                ior_writes_per_s=math.fsum(float(r["ior_writes_per_s"]) for r in members) / len(members),
                max_service_cores=max(float(r["max_service_cores"]) for r in members),
            )
        )
    return rows


def write_summary(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_csv(path, SUMMARY_COLUMNS, rows)


def select(rows, **key) -> list[Mapping[str, Any]]:
    return [r for r in rows if all(r[k] == v for k, v in key.items())]


def consistent_costs(rows, model: str, size: int, configuration: str, band: tuple[float, float]) -> list[float]:
    """The swept request costs whose slowdown (placement ``all``) lies in the paper's band."""
    return [
        r["request_cost_us"]
        for r in select(rows, model=model, size=size, configuration=configuration, placement="all")
        if band[0] <= r["slowdown_pct"] <= band[1]
    ]


def cost_interval(rows, model: str, size: int, configuration: str, band: tuple[float, float]) -> str:
    """Where the slowdown crosses the paper's band, between swept costs (linear interpolation
    in log cost of the monotone slowdown curve): "a–b µs", or why there is none."""
    pts = sorted(
        (r["request_cost_us"], r["slowdown_pct"])
        for r in select(rows, model=model, size=size, configuration=configuration, placement="all")
    )
    if not pts:
        return "not run"
    lo = _crossing(pts, band[0])
    hi = _crossing(pts, band[1])
    top = max(s for _, s in pts)
    if lo is None:
        if top < band[0]:
            return f"not reached (largest slowdown {top:.1f} % at {pts[-1][0]:g} µs, the largest cost swept)"
        return "below the smallest cost swept"
    return f"{lo:.3g}–{hi:.3g} µs" if hi is not None else f"≥ {lo:.3g} µs (up to {top:.1f} % swept)"


def _crossing(points: Sequence[tuple[float, float]], level: float) -> float | None:
    """The first cost at which the piecewise log-linear slowdown curve reaches ``level``."""
    if points[0][1] >= level:
        return points[0][0] if points[0][1] == level or points[0][0] > 0 else None
    for (c0, s0), (c1, s1) in itertools.pairwise(points):
        if s0 < level <= s1 and c0 > 0:
            t = (level - s0) / (s1 - s0)
            return math.exp(math.log(c0) + t * (math.log(c1) - math.log(c0)))
    return None


def cost_bounds(rows, model, size, configuration, band) -> tuple[float | None, float | None]:
    pts = sorted(
        (r["request_cost_us"], r["slowdown_pct"])
        for r in select(rows, model=model, size=size, configuration=configuration, placement="all")
    )
    if not pts:
        return None, None
    return _crossing(pts, band[0]), _crossing(pts, band[1])


def idle_overheads(rows, model: str) -> dict[tuple[float, float], dict[int, float]]:
    """(idle fraction, period) -> size -> mean slowdown % of HPL-only with idle services."""
    out: dict[tuple[float, float], dict[int, float]] = {}
    for r in select(rows, model=model, configuration="hpl-only"):
        if r["idle_fraction"] > 0:
            out.setdefault((r["idle_fraction"], r["idle_period"]), {})[r["size"]] = r["slowdown_pct"]
    return out
