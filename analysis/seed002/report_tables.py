"""Seed 002's report tables beside the claims: how the TWINS-vs-FIFO gains move with the seek-aware
HDD curve and with the servers' cache, and the mechanism (server concurrency and balance) behind
the makespans at one parameter set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.seed002.claims import claim_values
from datasched.analysis.seed002.spec import MIB
from datasched.analysis.seed002.table import find_row, in_set


def seek_movement_table(
    rows: Sequence[Mapping[str, Any]], alphas: Sequence[float], small: int, seeks: Sequence[float]
) -> list[str]:
    """Markdown: the TWINS-vs-FIFO gains (strided, contiguous, IFER 8 ms) per α (rows) and seek
    scale (columns), so the reader sees how they move with the seek-aware curve."""
    keys = ("twins.strided-vs-fifo", "twins.contiguous-vs-fifo", "ifer.twins-8ms-vs-fifo")
    out = [
        "| α | claim | " + " | ".join("count-only" if s == 0 else f"seek scale {s / MIB:g} MiB" for s in seeks) + " |",
        "|---|---|" + "---|" * len(seeks),
    ]
    for a in alphas:
        values = {s: {c.key: c for c in claim_values(rows, a, small, s)} for s in seeks if s == 0 or a > 0}
        for key in keys:
            cells = [values[s][key].text if s in values and key in values[s] else "–" for s in seeks]
            if all(c == "–" for c in cells):
                continue
            out.append(f"| {a:g} | {key} | " + " | ".join(cells) + " |")
    return out


def cache_movement_table(
    rows: Sequence[Mapping[str, Any]], alphas: Sequence[float], small: int, caches: Sequence[str]
) -> list[str]:
    """Markdown: the write claim and the TWINS-vs-FIFO read gains per α (rows) and server cache
    setting (columns, on the count-only curve)."""
    keys = ("twins.writes-no-difference", "twins.strided-vs-fifo", "twins.contiguous-vs-fifo")
    out = ["| α | claim | " + " | ".join(caches) + " |", "|---|---|" + "---|" * len(caches)]
    for a in alphas:
        values = {c: {v.key: v for v in claim_values(rows, a, small, 0.0, c)} for c in caches}
        for key in keys:
            cells = [values[c][key].text if key in values[c] else "–" for c in caches]
            out.append(f"| {a:g} | {key} | " + " | ".join(cells) + " |")
    return out


def mechanism_table(
    rows: Sequence[Mapping[str, Any]], small: int, alpha: float, seek: float = 0.0, cache: str = "none"
) -> list[str]:
    """Markdown: per access pattern (small single-application reads) and configuration, the
    makespan, the servers' concurrency and balance, at one parameter set."""
    single = [
        r
        for r in rows
        if r["kind"] == "single"
        and r["request_size"] == small
        and r["operation"] == "read"
        and in_set(r, alpha, seek, cache)
    ]
    if not single:
        return []
    configurations = list(dict.fromkeys(r["configuration"] for r in single))
    out = [
        "| pattern | " + " | ".join(configurations) + " |",
        "|---|" + "---|" * len(configurations),
    ]
    for pattern in dict.fromkeys(r["pattern"] for r in single):
        cells = []
        for cfg in configurations:
            r = find_row(single, pattern=pattern, configuration=cfg)
            cells.append(
                f"{r['makespan_mean']:.2f} s, n = {r['server_concurrency']:.0f}, balance {r['server_balance']:.2f}"
                if r
                else "–"
            )
        out.append(f"| {pattern} | " + " | ".join(cells) + " |")
    return out
