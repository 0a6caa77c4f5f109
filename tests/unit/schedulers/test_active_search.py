"""The active-schedule branch-and-bound (``datasched.optimum.active_search``) against brute force.

The brute force is ``test_cpsat_bounds``'s (serial schedules over every job
order: every active schedule, among which an optimal one). Each test was seen
failing once with a deliberate bug (noted in its docstring), then the code was
restored.
"""

from __future__ import annotations

import math
import random
import time
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.optimum.active_search import (
    MAX_JOBS,
    _Search,
    prove_by_active_search,
    search_active_schedules,
    why_not,
)
from datasched.optimum.bounds import UnitJob
from datasched.optimum.lagrangian import time_indexed_bound
from datasched.optimum.mip import schedule_fits
from datasched.optimum.schedule import Instance, OfflineJob, Plan, SolveOptions, solve
from datasched.optimum.warmstart import objective_units

from .test_cpsat_bounds import _optimal_schedules, tiny_instances
from .test_cpsat_branching import _latest_starts

OBJECTIVES = ["total_waiting", "total_weighted_completion"]


def _deadline(seconds: float = 30.0) -> float:
    return time.perf_counter() + seconds


def _one_after_another(jobs: list[UnitJob]) -> list[int]:
    """A poor incumbent: the jobs in release order, never two at once."""
    starts, end = [], 0
    for job in sorted(range(len(jobs)), key=lambda i: jobs[i].release):
        starts.append((job, max(end, jobs[job].release)))
        end = starts[-1][1] + jobs[job].duration
    return [s for _, s in sorted(starts)]


@settings(deadline=None, max_examples=150)
@given(
    instance=tiny_instances(max_jobs=6),
    objective=st.sampled_from(OBJECTIVES),
    weights=st.sampled_from(["hosts", "one", "random"]),
    relaxed=st.booleans(),
)
def test_search_finds_exactly_the_brute_force_optimum(instance, objective, weights, relaxed):
    """Below a poor incumbent the search ends with the optimum and its schedule; below OPT it finds nothing
    and proves bound == OPT (never more). With the Lagrangian fixing's multipliers and domains (rule 5) too.

    Seen failing: rule 3 keeping a node's ancestors as dominators (every wait is then cut); rule 4 bounding a
    passed-over job by the running jobs' first end, ignoring the ends of jobs started at ``t``; rule 5 with the
    capacity term at ``H - 1`` hosts. Each time the search "proved" a value above the optimum.
    """
    nb_hosts, jobs = instance
    rng = random.Random(len(jobs) * 31 + nb_hosts)
    if weights == "one":
        jobs = [UnitJob(j.release, j.duration, j.hosts, 1) for j in jobs]
    elif weights == "random":
        jobs = [UnitJob(j.release, j.duration, j.hosts, rng.randint(1, 5)) for j in jobs]
    optimum, _ = _optimal_schedules(objective, jobs, nb_hosts)
    poor = _one_after_another(jobs)
    incumbent = objective_units(objective, jobs, poor)
    multipliers: tuple[float, ...] = ()
    domains = None
    if relaxed:
        fixing = time_indexed_bound(objective, jobs, nb_hosts, _latest_starts(objective, jobs)(incumbent), incumbent)
        multipliers, domains = fixing.multipliers, fixing.domains
    found = search_active_schedules(
        objective, jobs, nb_hosts, incumbent + 1, deadline=_deadline(), multipliers=multipliers, domains=domains
    )
    assert found.complete and found.value == optimum == found.bound
    assert found.starts is not None and schedule_fits(jobs, nb_hosts, found.starts)
    assert objective_units(objective, jobs, found.starts) == optimum
    below = search_active_schedules(
        objective, jobs, nb_hosts, optimum, deadline=_deadline(), multipliers=multipliers, domains=domains
    )
    assert below.complete and below.value is None and below.bound == optimum


@pytest.mark.parametrize(
    ("second_release", "optimum", "starts"),
    [
        (1, 14, (2, 1)),  # A waits with a free stretch of 1 < p_A = 2 units, then B blocks it: kept
        (2, 17, (0, 2)),  # a free stretch of 2 = p_A units: A could run inside it, waiting is cut
    ],
)
def test_passing_over_a_job_that_fits(second_release, optimum, starts):
    """One host; A = (release 0, p 2, weight 1), B = (release r, p 1, weight 5); weighted completion.

    r = 1: A at 0 costs 1*2 + 5*3 = 17, A passed over costs 5*2 + 1*4 = 14: the optimum leaves the host idle
    over [0, 1) although A fits there, which rule 2 must keep (the stretch, 1 unit, is shorter than p_A).
    r = 2: A at 0 costs 2 + 15 = 17, A after B 15 + 5 = 20.

    Seen failing: rule 2 cutting a stretch one unit early (``>= p_j - 1``) finds 17 for r = 1 (the random
    instances of the other tests did not catch it).
    """
    jobs = [UnitJob(0, 2, 1, 1), UnitJob(second_release, 1, 1, 5)]
    found = search_active_schedules("total_weighted_completion", jobs, 1, 10**6, deadline=_deadline())
    assert (found.complete, found.value, found.starts) == (True, optimum, starts)


@settings(deadline=None, max_examples=80)
@given(
    instance=tiny_instances(max_jobs=6),
    objective=st.sampled_from(OBJECTIVES),
    above=st.integers(0, 3),
    known=st.one_of(st.none(), st.integers(0, 3)),
)
def test_proof_reaches_the_optimum_from_any_incumbent(instance, objective, above, known):
    """``prove_by_active_search`` from an incumbent costing OPT + k (k = 0..3): bound == OPT, and any schedule it
    returns costs what it says; a cost known elsewhere (``known_best``: OPT + k') never lifts the bound above OPT.

    Seen failing: the fixing at ``T - 2`` instead of ``T - 1`` (it drops the schedules costing ``T - 1``, the
    optimum when the incumbent is OPT + 1); rule 3 keeping ancestors as dominators.
    """
    nb_hosts, jobs = instance
    optimum, _ = _optimal_schedules(objective, jobs, nb_hosts)
    proof = prove_by_active_search(
        objective,
        jobs,
        nb_hosts,
        optimum + above,
        _latest_starts(objective, jobs),
        lower=0,
        deadline=_deadline(),
        known_best=None if known is None else (lambda: float(optimum + known)),
    )
    assert proof.bound == optimum
    if proof.value is not None:
        assert proof.starts is not None and objective_units(objective, jobs, proof.starts) == proof.value


@settings(deadline=None, max_examples=60)
@given(instance=tiny_instances(max_jobs=6), objective=st.sampled_from(OBJECTIVES), reads=st.integers(1, 8))
def test_a_cost_known_elsewhere_is_never_reported_as_the_search_own(instance, objective, reads):
    """CP-SAT beside the search tells it a cost (here OPT, from the ``reads``-th read on, the clock and the
    cost read at every node): the search may stop looking, but the value it reports is always the cost of
    the schedule it returns, and its bound never exceeds OPT.

    Seen failing: the reported value taken from the threshold (lowered by the outside cost) instead of the
    search's own find: a schedule costing more than the value reported beside it.
    """
    nb_hosts, jobs = instance
    optimum, _ = _optimal_schedules(objective, jobs, nb_hosts)
    incumbent = objective_units(objective, jobs, _one_after_another(jobs))
    calls = iter(range(10**9))

    def known() -> float:
        return float(optimum) if next(calls) >= reads else math.inf

    with mock.patch("datasched.optimum.active_search.MAX_NODES_PER_CLOCK_CHECK", 1):
        out = search_active_schedules(objective, jobs, nb_hosts, incumbent + 1, deadline=_deadline(), known_best=known)
    assert out.complete and out.bound <= optimum
    if out.value is not None:
        assert out.starts is not None and objective_units(objective, jobs, out.starts) == out.value


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize(("count", "duration"), [(3, 5), (4, 3), (6, 4)])
def test_weak_lp_family_is_closed_by_the_search(objective, count, duration):
    """``count`` jobs of width 2 on 3 hosts, released at 0, duration p: they run one at a time.

    OPT (total waiting) = p count (count - 1) / 2; weighted completion (weight 2) = p count (count + 1).
    The time-indexed LP runs 1.5 jobs at once (its bound is below OPT); the search proves OPT.

    Seen failing: rule 4 adding one unit to every waiting job's earliest start (the bound then cuts the
    optimum, and the proof claims the incumbent OPT + 1).
    """
    nb_hosts, jobs = 3, [UnitJob(0, duration, 2, 2) for _ in range(count)]
    optimum = duration * count * (count - 1) // 2 if objective == "total_waiting" else duration * count * (count + 1)
    lp = time_indexed_bound(objective, jobs, nb_hosts, _latest_starts(objective, jobs)(10**6), None)
    assert lp.bound < optimum
    proof = prove_by_active_search(
        objective, jobs, nb_hosts, optimum + 1, _latest_starts(objective, jobs), lower=lp.bound, deadline=_deadline()
    )
    assert (proof.bound, proof.value) == (optimum, optimum)


def test_what_the_search_refuses_is_said():
    """Rules 1-2 need every weight positive and a sum objective, the recursion a bounded size: the search
    refuses, ``why_not`` says why, and ``solve`` records it and runs the MIP phase instead.

    Seen failing: with the weight check removed, the zero-weight instance was searched (and rule 1, wrong
    there, could have cut its only optimum).
    """
    jobs = [UnitJob(0, 3, 1, 0), UnitJob(0, 2, 1, 1)]
    assert why_not("total_waiting", jobs) is None
    assert "weight <= 0" in (why_not("total_weighted_completion", jobs) or "")
    assert "not a weighted sum" in (why_not("makespan", jobs) or "")
    assert "above the search's" in (why_not("total_waiting", [UnitJob(0, 1, 1, 1)] * (MAX_JOBS + 1)) or "")
    assert "before time 0" in (why_not("total_waiting", [UnitJob(-1, 1, 1, 1)]) or "")
    with pytest.raises(ValueError, match="weight <= 0"):
        search_active_schedules("total_weighted_completion", jobs, 1, 100, deadline=_deadline())
    zero = Instance((OfflineJob("a", 0, 3, 1, weight=0.0), OfflineJob("b", 0, 2, 1, weight=1.0)), 1)
    plan = solve(zero, SolveOptions(objective="total_weighted_completion", time_limit_s=2))
    assert plan.active_outcome is not None and plan.active_outcome.startswith("not tried: a job has a weight <= 0")
    assert plan.status == "OPTIMAL" and plan.objective == 2.0


def _in_use(running: tuple[tuple[int, int], ...], x: int) -> int:
    return sum(h for end, h in running if end > x)


running_jobs = st.lists(st.tuples(st.integers(0, 12), st.integers(1, 4)), max_size=5).map(
    lambda pairs: tuple(sorted(pairs))
)


@settings(deadline=None, max_examples=300)
@given(earlier=running_jobs, later=running_jobs, t=st.integers(0, 8), earlier_t=st.integers(0, 8))
def test_dominance_compares_hosts_in_use_at_every_later_moment(earlier, later, t, earlier_t):
    """Rule 3's test, against its definition: node A (moment ``t_A <= t``, cost no higher) dominates node B at
    ``t`` iff ``u_A(x) <= u_B(x)`` for every integer ``x >= t``, with ``u(x)`` the hosts of the jobs ending
    after ``x`` (B's jobs all end after ``t``; A's may have ended between ``t_A`` and ``t``).

    Seen failing: the check skipping one more of A's jobs than those ended by ``t``.
    """
    earlier_t = min(earlier_t, t)
    earlier = tuple(run for run in earlier if run[0] > earlier_t)
    later = tuple(run for run in later if run[0] > t)
    search = _Search([UnitJob(0, 1, 1, 1)], [1], 8, 100, _deadline())
    search._remember(1, earlier_t, 0, earlier)[-1] = False  # searched, off the path
    horizon = max([end for end, _ in earlier + later] + [t])
    expected = all(_in_use(earlier, x) <= _in_use(later, x) for x in range(t, horizon + 1))
    assert search._dominated(1, t, 0, later) == expected
    assert not search._dominated(1, t, -1, later)  # A costs more than B
    assert not search._dominated(2, t, 0, later)  # other jobs started


def test_dominance_skips_the_search_path_and_later_moments():
    """A node still on the search path (its own descendants with the same started jobs) or at a later moment
    never dominates. Seen failing: with the path flag ignored, the search proved values above the optimum
    (``test_search_finds_exactly_the_brute_force_optimum``); here directly."""
    search = _Search([UnitJob(0, 1, 1, 1)], [1], 8, 100, _deadline())
    entry = search._remember(1, 0, 0, ())
    assert not search._dominated(1, 5, 0, ((9, 1),))
    entry[-1] = False
    assert search._dominated(1, 5, 0, ((9, 1),))
    assert not search._dominated(1, 0 - 1, 0, ())  # B earlier than A


def test_a_search_out_of_time_keeps_a_valid_bound():
    """A deadline already past: the search stops at once, says so, and claims no more than the root's bound."""
    jobs = [UnitJob(0, 5, 2, 1) for _ in range(6)]
    out = search_active_schedules("total_waiting", jobs, 3, 10**6, deadline=time.perf_counter() - 1)
    assert not out.complete
    assert out.bound <= 5 * 6 * 5 // 2  # the optimum


def test_degenerate_instance_keeps_its_optimal_schedule_in_the_fixing():
    """Two jobs, the LP tight at OPT = 108 (weighted completion), fixed at an upper bound above OPT: the ascent
    used to accept rounding noise as progress, the multipliers grew without bound and the fixing emptied both
    domains ("refuted", wrongly). Now the bound stays at 108 and the optimal schedule (12, 5) survives.

    Seen failing before the fix (the bug this test was written for): bound -7854908491, domains ((), ()).
    """
    jobs = [UnitJob(3, 6, 1, 2), UnitJob(5, 7, 6, 6)]
    for upper in (110, 113, 200):
        fixed = time_indexed_bound("total_weighted_completion", jobs, 6, [14, 8], upper, time_limit_s=2)
        assert fixed.bound == 108
        assert any(lo <= 12 <= hi for lo, hi in fixed.domains[0])
        assert any(lo <= 5 <= hi for lo, hi in fixed.domains[1])


def _bench_like(n_jobs: int, nb_hosts: int, seed: int) -> Instance:
    """``bench/cpsat_gap``'s generator: arrivals 0-30 s apart, runtimes 10-300 s, widths 1..H/2."""
    rng = random.Random(seed)
    jobs, t = [], 0
    for i in range(n_jobs):
        t += rng.randint(0, 30)
        runtime = float(rng.randint(10, 300))
        jobs.append(OfflineJob(f"j{i}", float(t), runtime, rng.choice([1, 1, 2, 4, 8, 16, nb_hosts // 2])))
    return Instance(tuple(jobs), nb_hosts)


def test_solve_proves_what_cumulative_cpsat_leaves_open(tmp_path):
    """bench/cpsat_gap's 20-job seed 3 (total waiting): the cumulative CP-SAT path leaves a 39.6 % gap after 60 s;
    the active search proves the optimum (866) in about a second. Through ``solve`` with 8 s: OPTIMAL, bound by
    the active search, its outcome recorded and read back; the plan's schedule fits and costs 866.

    Without the search (``active_share=0``, the path before) the same call ends FEASIBLE with a bound below 866.
    """
    instance = _bench_like(20, 32, 3)
    plan = solve(instance, SolveOptions(objective="total_waiting", time_limit_s=8, workers=2, seed=3))
    assert (plan.status, plan.objective, plan.bound, plan.bound_source) == ("OPTIMAL", 866, 866, "active-search")
    assert plan.active_outcome and "ended" in plan.active_outcome
    starts = [round(plan.starts[j.id]) for j in instance.jobs]
    unit = [UnitJob(round(j.release), round(j.runtime), j.hosts, 1) for j in instance.jobs]
    assert schedule_fits(unit, 32, starts) and objective_units("total_waiting", unit, starts) == 866
    plan.write(tmp_path / "plan.json")
    again = Plan.read(tmp_path / "plan.json")
    assert (again.active_outcome, again.active_s) == (plan.active_outcome, plan.active_s)
    assert "by active-search" in plan.certificate()


def test_active_and_mip_shares_are_checked_against_branching():
    with pytest.raises(ValueError, match="active_share \\+ branching_share"):
        SolveOptions(active_share=0.6, branching_share=0.4)
