"""Seed 001 Tables 1-3 step 3, the tables: our Tables 1-3 at one parameter set from the runs, and
the plotted numbers (the paper's beside ours at the best set)."""

from __future__ import annotations

import csv
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_pagecache.hardware import hardware_for
from datasched.analysis.seed001_pagecache.spec import (
    HARDWARE,
    MULTI_FILES,
    PAPER_T1,
    PAPER_T2,
    PAPER_T3,
    SINGLE_FILES,
    PageCacheSpec,
    ParamSet,
    param_sets,
)


def _lookup(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[Any, ...], list[Mapping[str, Any]]]:
    out: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for r in rows:
        out.setdefault((r["table"], r["hardware"], r["files"], r["jitter"]), []).append(r)
    return out


@dataclass(frozen=True)
class Tables:
    """Our Tables 1-3 at one parameter set: per seed, hardware -> files -> numbers."""

    t1: dict[str, dict[str, tuple[float, float, float]]]  # total, write, read (one pair)
    t2: dict[str, dict[str, tuple[float, float, float]]]
    t3: list[dict[str, dict[str, tuple[float, float]]]]  # per seed: (max total, min total)


def tables(spec: PageCacheSpec, p: ParamSet, rows: Sequence[Mapping[str, Any]]) -> Tables:
    index = _lookup(rows)

    def single(table: str, cache: bool) -> dict[str, dict[str, tuple[float, float, float]]]:
        out: dict[str, dict[str, tuple[float, float, float]]] = {}
        for kind in HARDWARE:
            hw = hardware_for(spec, kind, p, cache)
            out[kind] = {}
            for config in SINGLE_FILES:
                (r,) = index[("1" if hw.cache is None else table, hw.name, config, 0.0)]
                w, rd = r["write"][0], r["read"][0]
                out[kind][config] = (w + rd, w, rd)
        return out

    t3: list[dict[str, dict[str, tuple[float, float]]]] = []
    seeds = spec.seeds if p.jitter > 0 else spec.seeds[:1]
    for seed in seeds:
        per: dict[str, dict[str, tuple[float, float]]] = {}
        for kind in HARDWARE:
            hw = hardware_for(spec, kind, p, False)
            per[kind] = {}
            for config in MULTI_FILES:
                (r,) = [x for x in index[("3", hw.name, config, p.jitter)] if x["seed"] == seed]
                per[kind][config] = (max(r["write"]) + max(r["read"]), min(r["write"]) + min(r["read"]))
        t3.append(per)
    return Tables(single("1", False), single("2", True), t3)


def tables_at(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], best: str) -> Tables:
    """Our Tables 1-3 at the parameter set named ``best`` (the set the report, the figure and the
    plotted numbers show)."""
    (p,) = [q for q in param_sets(spec) if q.name == best]
    return tables(spec, p, rows)


def t3_range(t: Tables, kind: str, config: str) -> tuple[float, float]:
    """Table 3 over every seed: (largest max total, smallest min total) of ``kind`` and ``config``."""
    return max(s[kind][config][0] for s in t.t3), min(s[kind][config][1] for s in t.t3)


def side_by_side(t: Tables) -> Iterator[tuple[str, str, str, tuple[float, ...], tuple[float, ...]]]:
    """Tables 1-3 row by row, the paper's beside ours: (table, hardware, files, paper, ours), Tables
    1 and 2 as (total, write, read), Table 3 as (max total, min total)."""
    for table, paper, ours in (("1", PAPER_T1, t.t1), ("2", PAPER_T2, t.t2)):
        for kind in HARDWARE:
            for config in SINGLE_FILES:
                yield table, kind, config, paper[kind][config], ours[kind][config]
    for kind in HARDWARE:
        for config in MULTI_FILES:
            yield "3", kind, config, PAPER_T3[kind][config], t3_range(t, kind, config)


def write_table(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], best: str, path: Path) -> None:
    """Tables 1-3 at the best parameter set, the paper's beside ours (the plotted numbers)."""
    t = tables_at(spec, rows, best)
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle, lineterminator="\n")
        w.writerow(
            [
                "table",
                "hardware",
                "files",
                "paper_total",
                "paper_write_or_min",
                "paper_read",
                "ours_total",
                "ours_write_or_min",
                "ours_read",
            ]
        )
        for table, kind, config, pp, oo in side_by_side(t):
            if table == "3":  # (max, min): no read column
                w.writerow([table, kind, config, *pp, "", *(f"{v:.4f}" for v in oo), ""])
            else:
                w.writerow([table, kind, config, *pp, *(f"{v:.4f}" for v in oo)])
