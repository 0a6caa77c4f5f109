"""Branching on the objective over the time-indexed CP-SAT model (``datasched.optimum.branching``), against brute force.

The brute force is ``test_cpsat_bounds``'s: serial schedule generation over every
job order, which yields every active schedule, and some optimal schedule is
active for the regular objectives here. Each test was seen failing once with a
deliberate bug (noted in its docstring), then the code was restored.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.optimum.bounds import UnitJob
from datasched.optimum.branching import certify, threshold_model
from datasched.optimum.lagrangian import time_indexed_bound
from datasched.optimum.schedule import Instance, OfflineJob, SolveOptions, _latest_ends, solve
from datasched.optimum.warmstart import best_heuristic_schedule

from .test_cpsat_bounds import _optimal_schedules, tiny_instances

OBJECTIVES = ["total_waiting", "total_weighted_completion"]


def _latest_starts(objective: str, jobs: list[UnitJob]):
    horizon = max(j.release for j in jobs) + sum(j.duration for j in jobs)

    def latest(threshold: int) -> list[int]:
        ends = _latest_ends(objective, jobs, horizon, threshold)  # type: ignore[arg-type]
        return [e - j.duration for e, j in zip(ends, jobs, strict=True)]

    return latest


def warm_start(objective: str, jobs: list[UnitJob], nb_hosts: int):
    """The best heuristic schedule, the incumbent both certifiers start from."""
    warm = best_heuristic_schedule(objective, jobs, nb_hosts)
    assert warm is not None
    return warm


def _certify(objective: str, jobs: list[UnitJob], nb_hosts: int, time_limit_s: float = 20.0):
    warm = warm_start(objective, jobs, nb_hosts)
    return certify(
        objective,
        jobs,
        nb_hosts,
        warm.objective,
        warm.starts,
        0,
        _latest_starts(objective, jobs),
        time_limit_s=time_limit_s,
    )


@settings(deadline=None, max_examples=60)
@given(instance=tiny_instances(max_jobs=5), objective=st.sampled_from(OBJECTIVES))
def test_branching_bound_never_exceeds_and_reaches_the_brute_force_optimum(instance, objective):
    """lower <= OPT always; on tiny instances the branching closes: lower == upper == OPT.

    Seen failing: with ``lower, threshold = threshold + 2, None`` after a refutation
    (an off-by-one that claims one unit too much), Hypothesis found lower > OPT.
    """
    nb_hosts, jobs = instance
    optimum, _ = _optimal_schedules(objective, jobs, nb_hosts)
    cert = _certify(objective, jobs, nb_hosts)
    assert cert.lower <= optimum
    assert cert.lower == cert.upper == optimum
    assert _objective(objective, jobs, cert.starts) == cert.upper


@settings(deadline=None, max_examples=60)
@given(instance=tiny_instances(max_jobs=5), objective=st.sampled_from(OBJECTIVES))
def test_threshold_model_keeps_every_optimal_schedule(instance, objective):
    """With T = OPT, every optimal schedule satisfies the model (fixing, active-schedule rule, capacity rows).

    Seen failing: without the release choice in ``_add_active_schedule_rule`` (a job
    may then only start at another job's end), the schedules starting at a release
    are refused.
    """
    nb_hosts, jobs = instance
    optimum, optimal = _optimal_schedules(objective, jobs, nb_hosts)
    fixed = time_indexed_bound(objective, jobs, nb_hosts, _latest_starts(objective, jobs)(optimum), optimum)
    from ortools.sat.python import cp_model

    for schedule in optimal:
        model, starts = threshold_model(objective, jobs, nb_hosts, fixed.domains, optimum, fixed.bound)
        for var, value in zip(starts, schedule, strict=True):
            model.add(var == value)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = 10
        assert solver.solve(model) == cp_model.OPTIMAL, schedule


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize(("count", "duration"), [(3, 5), (4, 3), (4, 5)])
def test_weak_lp_family_is_closed_by_branching(objective, count, duration):
    """``count`` jobs of width 2 on 3 hosts, all released at 0, duration p: no two can overlap (4 > 3 hosts).

    OPT (total waiting) = p (0 + 1 + ... + count-1) = p count (count - 1) / 2; weighted
    completion (weight 2) = 2 p (1 + ... + count) = p count (count + 1). The
    time-indexed LP treats the 3 hosts as divisible and runs 1.5 jobs at once, so
    its bound is well below (4 jobs, p = 5, total waiting: 18 against 30). The
    branching proves the optimum.

    Seen failing: with capacity ``nb_hosts + 1`` in the threshold model (its rows and
    its cumulative; two jobs then fit), it "found" 10 below OPT = 15 (3 jobs, p = 5).
    """
    nb_hosts, jobs = 3, [UnitJob(0, duration, 2, 2) for _ in range(count)]
    optimum = duration * count * (count - 1) // 2 if objective == "total_waiting" else duration * count * (count + 1)
    lp = time_indexed_bound(objective, jobs, nb_hosts, _latest_starts(objective, jobs)(10**6), None).bound
    assert lp < optimum
    cert = _certify(objective, jobs, nb_hosts)
    assert cert.lower == cert.upper == optimum


def test_plan_reports_the_branching_certificate():
    """A plan on the weak family through ``solve`` (no redundant big-job clique: widths 2 of 3 hosts are
    "big", so CP-SAT proves it at once): status OPTIMAL, bound == objective, a certificate line."""
    jobs = tuple(OfflineJob(f"j{i}", 0.0, 5.0, 2) for i in range(4))
    plan = solve(Instance(jobs, 3), SolveOptions(objective="total_waiting", time_limit_s=10))
    assert plan.status == "OPTIMAL" and plan.objective == plan.bound == 30.0
    line = plan.certificate()
    assert line.startswith("objective 30.0 bound 30.0 (by ") and "OPTIMAL" in line and "nodes" in line


def _objective(objective: str, jobs: list[UnitJob], starts) -> int:
    if objective == "total_waiting":
        return sum(s - j.release for s, j in zip(starts, jobs, strict=True))
    return sum(j.weight * (s + j.duration) for s, j in zip(starts, jobs, strict=True))
