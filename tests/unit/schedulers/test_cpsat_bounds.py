"""The CP-SAT baseline's bounds are valid and its strengthening keeps the optimum.

Reference: a brute force independent of CP-SAT. For rigid jobs with releases on
identical hosts (a one-resource RCPSP), the serial schedule-generation scheme
over all job orders yields every *active* schedule, and for the regular
objectives used here (makespan, total waiting, weighted completion) some active
schedule is optimal (Kolisch 1996). So the minimum over all orders is the optimum.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.optimum.bounds import (
    UnitJob,
    makespan_bound,
    total_waiting_bound,
    weighted_completion_bound,
)
from datasched.optimum.lagrangian import time_indexed_bound
from datasched.optimum.schedule import Instance, Objective, OfflineJob, SolveOptions, objective_value, solve
from datasched.optimum.warmstart import best_heuristic_schedule, objective_units

OBJECTIVES = ["makespan", "total_waiting", "total_weighted_completion"]


def _serial_schedule(order, jobs: list[UnitJob], nb_hosts: int) -> list[int]:
    """Each job in turn at the earliest start >= its release where its hosts are free for its duration."""
    placed: list[tuple[int, int, int]] = []  # (start, end, hosts)
    starts = [0] * len(jobs)
    for i in order:
        job = jobs[i]
        for t in sorted({job.release} | {end for _, end, _ in placed if end > job.release}):
            points = {t} | {s for s, _, _ in placed if t < s < t + job.duration}
            if all(sum(h for s, e, h in placed if s <= p < e) + job.hosts <= nb_hosts for p in points):
                starts[i] = t
                placed.append((t, t + job.duration, job.hosts))
                break
    return starts


def brute_force_optimum(objective: str, jobs: list[UnitJob], nb_hosts: int) -> int:
    return min(
        objective_units(objective, jobs, _serial_schedule(order, jobs, nb_hosts))
        for order in itertools.permutations(range(len(jobs)))
    )


@st.composite
def tiny_instances(draw, max_jobs: int = 5):
    nb_hosts = draw(st.integers(1, 4))
    jobs = [
        UnitJob(draw(st.integers(0, 6)), draw(st.integers(1, 5)), draw(st.integers(1, nb_hosts)), 0)
        for _ in range(draw(st.integers(1, max_jobs)))
    ]
    return nb_hosts, [UnitJob(j.release, j.duration, j.hosts, j.hosts) for j in jobs]


def _instance(jobs: list[UnitJob], nb_hosts: int) -> Instance:
    return Instance(tuple(OfflineJob(f"j{i}", j.release, j.duration, j.hosts) for i, j in enumerate(jobs)), nb_hosts)


BOUNDS = {
    "makespan": makespan_bound,
    "total_waiting": total_waiting_bound,
    "total_weighted_completion": weighted_completion_bound,
}


@settings(deadline=None, max_examples=150)
@given(instance=tiny_instances(), objective=st.sampled_from(OBJECTIVES))
def test_combinatorial_bounds_never_exceed_the_brute_force_optimum(instance, objective):
    """bound <= min over all active schedules (weights = host counts, as the model's default)."""
    nb_hosts, jobs = instance
    assert BOUNDS[objective](jobs, nb_hosts) <= brute_force_optimum(objective, jobs, nb_hosts)


@settings(deadline=None, max_examples=40)
@given(
    instance=tiny_instances(max_jobs=5),
    objective=st.sampled_from(OBJECTIVES),
    strengthen=st.booleans(),
)
def test_cpsat_proves_the_brute_force_optimum_with_and_without_strengthening(instance, objective, strengthen):
    """CP-SAT's optimum == brute-force optimum, and its reported bound equals it (gap 0)."""
    nb_hosts, jobs = instance
    plan = solve(_instance(jobs, nb_hosts), SolveOptions(objective=objective, strengthen=strengthen, time_limit_s=20))
    assert plan.status == "OPTIMAL"
    assert plan.objective == pytest.approx(brute_force_optimum(objective, jobs, nb_hosts))
    assert plan.bound == plan.objective and plan.gap == 0.0


def test_hand_checked_four_job_instance():
    """Two hosts; A(r0, p3, 2 hosts), B(r0, p1, 1), C(r1, p2, 1), D(r2, p1, 2).

    Total waiting: B [0,1), C [1,3), D [3,4), A [4,7) waits 0+0+1+4 = 5, and no
    order does better (A first makes B, C and D wait >= 3+2+... >= 7).
    Makespan: the area 6+1+2+2 = 11 on 2 hosts needs >= 5.5, so >= 6, reached by
    A [0,3), B [3,4), C [3,5), D [5,6).
    """
    jobs = [UnitJob(0, 3, 2, 2), UnitJob(0, 1, 1, 1), UnitJob(1, 2, 1, 1), UnitJob(2, 1, 2, 2)]
    assert brute_force_optimum("total_waiting", jobs, 2) == 5
    assert brute_force_optimum("makespan", jobs, 2) == 6
    assert makespan_bound(jobs, 2) == 6  # area bound: 0 + ceil(11 / 2)
    cases: list[tuple[Objective, int]] = [("total_waiting", 5), ("makespan", 6)]
    for objective, optimum in cases:
        plan = solve(_instance(jobs, 2), SolveOptions(objective=objective))
        assert plan.status == "OPTIMAL" and plan.objective == optimum
        assert objective_value(objective, _instance(jobs, 2).jobs, plan.starts) == optimum


def test_squashed_area_bound_is_exact_for_full_width_jobs():
    """Full-width jobs p=2 and p=1 at t=0: SRPT gives sum C = 1 + 3 = 4, minus sum(r+p) = 3: bound 1 = optimum."""
    jobs = [UnitJob(0, 2, 4, 4), UnitJob(0, 1, 4, 4)]
    assert total_waiting_bound(jobs, 4) == 1 == brute_force_optimum("total_waiting", jobs, 4)


def test_release_tail_bound_sees_late_work():
    """Jobs released at t=5 with area 8 on 2 hosts cannot end before 5 + 8/2 = 9 (per-job bound says 7)."""
    jobs = [UnitJob(0, 1, 1, 1), UnitJob(5, 2, 2, 2), UnitJob(5, 2, 2, 2)]
    assert makespan_bound(jobs, 2) == 9 == brute_force_optimum("makespan", jobs, 2)


def test_big_jobs_form_a_single_machine():
    """Three 3-host jobs on 4 hosts (2h > H) never overlap: waits 0 + 2 + 4 = 6; the squashed bound alone gives 3."""
    jobs = [UnitJob(0, 2, 3, 3)] * 3
    assert total_waiting_bound(jobs, 4) == 6 == brute_force_optimum("total_waiting", jobs, 4)
    assert makespan_bound(jobs, 4) == 6


def test_warm_start_is_a_valid_upper_bound_and_recorded():
    """The plan is never worse than the heuristic hint it started from."""
    jobs = [UnitJob(i % 7, 1 + (3 * i) % 5, 1 + i % 3, 1 + i % 3) for i in range(12)]
    warm = best_heuristic_schedule("total_waiting", jobs, 3)
    assert warm is not None
    plan = solve(_instance(jobs, 3), SolveOptions(objective="total_waiting", time_limit_s=20))
    assert plan.warm_start == warm.policy and plan.warm_start_objective == warm.objective
    assert plan.objective is not None and plan.objective <= warm.objective
    assert plan.bound is not None and plan.bound <= plan.objective


def _active_horizon_latest_starts(jobs: list[UnitJob]) -> list[int]:
    """Some optimal schedule is active, so every job starts by max release + the other jobs' durations."""
    total = sum(j.duration for j in jobs)
    return [max(j.release for j in jobs) + total - j.duration for j in jobs]


def _optimal_schedules(objective: str, jobs: list[UnitJob], nb_hosts: int) -> tuple[int, list[list[int]]]:
    """The brute-force optimum and every serial schedule reaching it."""
    schedules = [_serial_schedule(order, jobs, nb_hosts) for order in itertools.permutations(range(len(jobs)))]
    values = [objective_units(objective, jobs, s) for s in schedules]
    best = min(values)
    return best, [s for s, v in zip(schedules, values, strict=True) if v == best]


@settings(deadline=None, max_examples=150)
@given(
    instance=tiny_instances(max_jobs=6),
    objective=st.sampled_from(["total_waiting", "total_weighted_completion"]),
    with_upper=st.booleans(),
)
def test_time_indexed_bound_never_exceeds_the_brute_force_optimum(instance, objective, with_upper):
    """ceil(L(λ)) <= optimum, and reduced-cost fixing with upper = optimum keeps every optimal schedule."""
    nb_hosts, jobs = instance
    optimum, optimal = _optimal_schedules(objective, jobs, nb_hosts)
    result = time_indexed_bound(
        objective, jobs, nb_hosts, _active_horizon_latest_starts(jobs), optimum if with_upper else None
    )
    assert result.bound <= optimum
    for starts in optimal:
        for s, runs in zip(starts, result.domains, strict=True):
            assert any(lo <= s <= hi for lo, hi in runs)


def test_time_indexed_bound_seeded_sweep_against_brute_force():
    """Seeded random 6-job instances on 3-4 hosts (weights = hosts): the bound never exceeds the optimum,
    and over the sweep it beats the combinatorial bound at least once (it is not a copy of it)."""
    rng = random.Random(2024)
    stronger = 0
    for _ in range(60):
        nb_hosts = rng.choice([3, 4])
        jobs = []
        for _ in range(6):
            hosts = rng.randint(1, nb_hosts)
            jobs.append(UnitJob(rng.randint(0, 5), rng.randint(1, 6), hosts, hosts))
        for objective in ("total_waiting", "total_weighted_completion"):
            optimum = brute_force_optimum(objective, jobs, nb_hosts)
            bound = time_indexed_bound(objective, jobs, nb_hosts, _active_horizon_latest_starts(jobs)).bound
            assert bound <= optimum
            stronger += bound > BOUNDS[objective](jobs, nb_hosts)
    assert stronger > 0


@pytest.mark.parametrize("p", [4, 6, 9])
def test_time_indexed_bound_hand_checked(p):
    """Two hosts; A(r0, p, 1 host) and B(r0, p, 2 hosts) cannot overlap, so the optimum waits p.

    The time-indexed LP value is p/2. Primal: A at 0, B half at 0 and half at p
    (hosts used on [0, p): 1 + 2 × 1/2 = 2), cost p/2. Dual λ_t = 1/2 on [0, p):
    A's best bracket is s + Λ(s, s + p) = p/2 at s = 0; B's is s + 2 Λ(s, s + p) = p
    for every s; minus H Λ(0, p) = p, so L = p/2 + p - p = p/2. The bound is
    ceil(p/2), while the squashed-area and big-job bounds give 0 (A is no big job).
    """
    jobs = [UnitJob(0, p, 1, 1), UnitJob(0, p, 2, 2)]
    assert brute_force_optimum("total_waiting", jobs, 2) == p
    assert total_waiting_bound(jobs, 2) == 0
    result = time_indexed_bound("total_waiting", jobs, 2, _active_horizon_latest_starts(jobs))
    assert result.bound == math.ceil(p / 2)
    assert result.value <= p / 2 + 1e-9


def test_time_indexed_bound_feeds_the_plan():
    """The plan records the time-indexed bound (never above the optimum) and its time; share 0 turns it off."""
    jobs = [UnitJob(0, 4, 1, 1), UnitJob(0, 4, 2, 2), UnitJob(1, 3, 1, 1)]
    optimum = brute_force_optimum("total_waiting", jobs, 2)
    plan = solve(_instance(jobs, 2), SolveOptions(objective="total_waiting", time_limit_s=20))
    assert plan.status == "OPTIMAL" and plan.objective == optimum
    assert plan.time_indexed_bound is not None and plan.time_indexed_bound <= optimum
    assert plan.time_indexed_s is not None and plan.time_indexed_s >= 0
    off = solve(_instance(jobs, 2), SolveOptions(objective="total_waiting", time_limit_s=20, lagrangian_share=0))
    assert off.time_indexed_bound is None and off.objective == optimum
