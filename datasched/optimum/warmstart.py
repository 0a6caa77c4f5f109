"""A feasible schedule to start CP-SAT from: the best of our heuristics on the model's integer instance.

Why: CP-SAT on loaded instances spends most of its time finding a first good
schedule; giving it EASY's (or whichever heuristic is best) as a hint makes the
search start there, and the hint's objective ``U`` is an upper bound on the
optimum that shrinks every variable's domain (see ``optimal.solve``).

The heuristics run through the in-memory driver on the *rounded* instance
(releases and durations in whole time units, walltime = duration), so their
starts are integers and satisfy exactly the model's constraints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from datasched.optimum.bounds import UnitJob

WARM_START_POLICIES = ("easy", "conservative", "sjf", "fcfs")


@dataclass(frozen=True)
class WarmStart:
    policy: str
    starts: tuple[int, ...]
    objective: int


def objective_units(objective: str, jobs: Sequence[UnitJob], starts: Sequence[int]) -> int:
    """The model's integer objective of a schedule given by its starts (same definition as the model)."""
    if objective == "makespan":
        return max((s + j.duration for s, j in zip(starts, jobs, strict=True)), default=0)
    if objective == "total_waiting":
        return sum(s - j.release for s, j in zip(starts, jobs, strict=True))
    return sum(j.weight * (s + j.duration) for s, j in zip(starts, jobs, strict=True))


def best_heuristic_schedule(objective: str, jobs: Sequence[UnitJob], nb_hosts: int) -> WarmStart | None:
    """The heuristic schedule with the smallest objective (ties: the first in WARM_START_POLICIES)."""
    from datasched.policy import JobInfo, PlatformView, create_policy
    from datasched.policy.driver import InMemoryDriver, SimJob

    if not jobs:
        return None
    sims = [
        SimJob(JobInfo(str(i), float(j.release), j.hosts, float(j.duration)), float(j.duration))
        for i, j in enumerate(jobs)
    ]
    best: WarmStart | None = None
    for name in WARM_START_POLICIES:
        result = InMemoryDriver(PlatformView.uniform(nb_hosts), sims).run(create_policy(name))
        raw = [result.outcomes[str(i)].start for i in range(len(jobs))]
        if any(s is None or not float(s).is_integer() for s in raw):
            continue  # cannot happen with integer inputs; a hint must be exact, so skip rather than round
        starts = tuple(int(s) for s in raw)  # type: ignore[arg-type]
        value = objective_units(objective, jobs, starts)
        if best is None or value < best.objective:
            best = WarmStart(name, starts, value)
    return best
