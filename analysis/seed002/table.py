"""Seed 002 step 3, the table: one row per case and configuration (makespan mean and 99.7 %
interval over seeds, mean request sizes, server occupancy), written as the plotted numbers."""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.seed002.intervals import mean_ci
from datasched.analysis.seed002.runs import CASE_COLUMNS
from datasched.analysis.seed002.spec import Case, Seed002Spec

SUMMARY_COLUMNS = (
    "kind",
    "pattern",
    "operation",
    "request_size",
    "hdd_alpha",
    "hdd_seek_scale",
    "server_cache",
    "dt",
    "configuration",
    "runs",
    "makespan_mean",
    "makespan_ci997",
    *CASE_COLUMNS[4:],  # the run's sizes, waits, occupancy and pace, averaged over its runs
    "arrival_gap_ci997",  # the pace's 99.7 % half-width over seeds
    "dispatch_size_ci997",  # the same for the request size leaving the forwarders
    "server_size_ci997",  # and arriving at the servers
)


def read_case_rows(path: Path) -> list[dict[str, str]]:
    """A case's ``runs.csv`` rows as written (strings): what a full variant's committed summary
    of the case holds, so both variants summarise the same values."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def summarise(spec: Seed002Spec, case_rows: Mapping[Case, Sequence[Mapping[str, str]]]) -> list[dict[str, Any]]:
    """One row per case and configuration: makespan mean and 99.7 % CI over seeds (IFER: the
    makespan of a run is the later of the two applications' ends), mean sizes. ``case_rows``:
    each case's ``runs.csv`` rows (:func:`read_case_rows`), in the order the table lists them."""
    rows = []
    for case, runs in case_rows.items():
        for configuration in spec.configurations:
            mine = [r for r in runs if r["configuration"] == configuration]
            by_seed: dict[str, list[Mapping[str, str]]] = {}
            for r in mine:
                by_seed.setdefault(r["seed"], []).append(r)
            makespans = [max(float(r["makespan"]) for r in rs) for rs in by_seed.values()]
            mean, half = mean_ci(makespans)
            row: dict[str, Any] = {
                "kind": case.kind,
                "pattern": case.pattern,
                "operation": case.operation,
                "request_size": case.request_size,
                "hdd_alpha": case.hdd_alpha,
                "hdd_seek_scale": case.hdd_seek_scale,
                "server_cache": case.cache,
                "dt": case.dt,
                "configuration": configuration,
                "runs": len(makespans),
                "makespan_mean": mean,
                "makespan_ci997": half,
            }
            for column in CASE_COLUMNS[4:]:
                row[column] = math.fsum(float(r[column]) for r in mine) / len(mine)
            # one pace and one size per run (an IFER run's two rows share its forwarders' and servers' figures)
            for column, half_width in (
                ("mean_arrival_gap", "arrival_gap_ci997"),
                ("mean_dispatch_size", "dispatch_size_ci997"),
                ("mean_server_request_size", "server_size_ci997"),
            ):
                row[half_width] = mean_ci([float(rs[0][column]) for rs in by_seed.values()])[1]
            rows.append(row)
    return rows


def write_summary(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_csv(path, SUMMARY_COLUMNS, rows)


def find_row(rows, **key) -> Mapping[str, Any] | None:
    """The first row whose columns equal ``key`` (None: no such row)."""
    for r in rows:
        if all(r[k] == v for k, v in key.items()):
            return r
    return None


def in_set(row: Mapping[str, Any], alpha: float, seek: float, cache: str = "none") -> bool:
    """Whether ``row`` was simulated at HDD contention ``alpha``, seek scale ``seek`` and server
    cache ``cache`` (rows without those columns: the count-only curve, no cache)."""
    return (
        row["hdd_alpha"] == alpha
        and float(row.get("hdd_seek_scale", 0.0)) == seek
        and (row.get("server_cache") or "none") == cache
    )
