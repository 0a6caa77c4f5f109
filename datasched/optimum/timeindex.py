"""Pieces shared by the two time-indexed models: CP-SAT's threshold model (``branching``) and the MIP (``mip``).

Both state job ``j``'s start through literals ``[s_j <= t]``, one per
*breakpoint* ``t`` of its domain (a value other than the largest; between
breakpoints the previous literal holds, after the largest value it is 1), and
the capacity as one row per time unit at which the jobs that might run could
exceed the hosts. Writing these once keeps the two models the same program.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import TypeVar

from datasched.optimum.bounds import UnitJob

L = TypeVar("L")


def breakpoints(runs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(t, len)`` per literal ``[s <= t]`` of a domain given as sorted, disjoint ``(lo, hi)`` runs.

    ``t`` runs over the domain's values except its largest; ``len`` counts the
    time units from ``t`` up to the next value (or the largest one), so that
    ``s = hi - sum len * [s <= t]``.
    """
    values = [t for lo, hi in runs for t in range(lo, hi + 1)]
    return [(t, nxt - t) for t, nxt in itertools.pairwise(values)]


def literal_by_time(steps: Sequence[tuple[int, int, L]]) -> dict[int, L]:
    """Every time unit in ``[lo, hi)`` -> the literal of the last breakpoint ``<= t`` (gaps keep the previous one).

    ``steps`` are ``(t, len, literal)`` in breakpoint order (``breakpoints`` plus each literal).
    """
    return {u: literal for t, length, literal in steps for u in range(t, t + length)}


def started_by(by_time: dict[int, L], lo: int, hi: int, t: int) -> L | int:
    """``[s <= t]`` for a start in ``[lo, hi]``: 0 before ``lo``, 1 from ``hi``, else its literal."""
    if t < lo:
        return 0
    if t >= hi:
        return 1
    return by_time[t]


def crowded_times(
    jobs: Sequence[UnitJob], nb_hosts: int, lows: Sequence[int], highs: Sequence[int]
) -> Iterator[tuple[int, list[int]]]:
    """``(t, jobs that might run at t)`` for every time unit where those jobs' hosts exceed ``nb_hosts``.

    Job ``i`` starts in ``[lows[i], highs[i]]``; elsewhere a capacity row could never bind.
    """
    horizon = max(h + job.duration for h, job in zip(highs, jobs, strict=True))
    for t in range(min(lows), horizon):
        active = [i for i, job in enumerate(jobs) if lows[i] <= t < highs[i] + job.duration]
        if sum(jobs[i].hosts for i in active) > nb_hosts:
            yield t, active
