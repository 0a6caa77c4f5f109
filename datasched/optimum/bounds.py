"""Valid lower bounds for the offline rigid-job problem, computed without a solver.

The CP-SAT model proves its own bound from its LP relaxation, which on loaded
instances can stay far below the optimum. These combinatorial bounds are cheap
and hold for *every* schedule, so ``max(solver bound, these)`` is still a valid
bound; the plan records which one was the larger.

Everything works on the integer instance the model solves (releases and runtimes
already rounded up to time units). ``H`` is the host count, job ``i`` has
release ``r_i``, duration ``p_i``, hosts ``h_i`` and weight ``w_i``.

- **Per-job**: a job cannot end before ``r_i + p_i``.
- **Release-tail area** (makespan): the jobs released at or after ``t`` all run
  after ``t`` on ``H`` hosts, so ``Cmax >= t + ceil(sum(h_i p_i) / H)``.
- **Squashed area** (total completion): run each job on the whole machine at
  rate ``h_i / H``; any real schedule then is a preemptive single-machine
  schedule of lengths ``h_i p_i / H`` with the same completion times, and SRPT
  minimises the sum of completion times there, so ``sum C_i >= SRPT``.
- **Pairwise-disjoint big jobs**: two jobs with ``h_i + h_j > H`` never overlap;
  the jobs with ``2 h_i > H`` form a single machine. Its release-order schedule
  bounds the makespan, and SRPT on it bounds the sum of their completions.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class UnitJob:
    """One job of the integer instance the model solves."""

    release: int
    duration: int
    hosts: int
    weight: int


def makespan_bound(jobs: Sequence[UnitJob], nb_hosts: int) -> int:
    """Largest of the per-job, release-tail area and big-job chain bounds on the makespan."""
    if not jobs:
        return 0
    best = max(j.release + j.duration for j in jobs)
    for t in sorted({j.release for j in jobs}):
        area = sum(j.hosts * j.duration for j in jobs if j.release >= t)
        best = max(best, t + math.ceil(area / nb_hosts))
    end = 0
    for job in sorted(_big_jobs(jobs, nb_hosts), key=lambda j: j.release):
        end = max(end, job.release) + job.duration
    return max(best, end)


def total_waiting_bound(jobs: Sequence[UnitJob], nb_hosts: int) -> int:
    """Lower bound on sum(start - release): completion bounds minus sum(r + p), never below 0."""
    floor = sum(j.release + j.duration for j in jobs)
    squashed = _srpt_total_completion([(j.release, j.hosts * j.duration / nb_hosts) for j in jobs])
    big = _big_jobs(jobs, nb_hosts)
    big_chain = _srpt_total_completion([(j.release, float(j.duration)) for j in big])
    big_floor = sum(j.release + j.duration for j in big)
    return max(0, math.ceil(squashed - floor - 1e-9), math.ceil(big_chain - big_floor - 1e-9))


def weighted_completion_bound(jobs: Sequence[UnitJob], nb_hosts: int) -> int:
    """Per-job bound sum(w (r + p)); with unit-free weights nothing stronger is claimed here."""
    return sum(j.weight * (j.release + j.duration) for j in jobs)


def _big_jobs(jobs: Sequence[UnitJob], nb_hosts: int) -> list[UnitJob]:
    return [j for j in jobs if 2 * j.hosts > nb_hosts]


def _srpt_total_completion(jobs: Sequence[tuple[float, float]]) -> float:
    """Sum of completion times of SRPT on one machine (optimal for 1|r_j, pmtn|sum C_j).

    ``jobs`` are (release, processing time) pairs.
    """
    pending = sorted(jobs)
    ready: list[float] = []  # remaining processing times
    now, total, k = 0.0, 0.0, 0
    while k < len(pending) or ready:
        if not ready:
            now = max(now, pending[k][0])
        while k < len(pending) and pending[k][0] <= now:
            heapq.heappush(ready, pending[k][1])
            k += 1
        shortest = heapq.heappop(ready)
        next_release = pending[k][0] if k < len(pending) else math.inf
        if now + shortest <= next_release:
            now += shortest
            total += now
        else:
            heapq.heappush(ready, shortest - (next_release - now))
            now = next_release
    return total
