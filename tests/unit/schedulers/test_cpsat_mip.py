"""The time-indexed MIP (``datasched.optimum.mip``) against brute force and closed forms.

The brute force is ``test_cpsat_bounds``'s (serial schedules over every job
order: every active schedule, among which an optimal one). Each test was seen
failing once with a deliberate bug (noted in its docstring), then the code was
restored.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasched.errors import UserError
from datasched.optimum import mip
from datasched.optimum.bounds import UnitJob
from datasched.optimum.lagrangian import time_indexed_bound
from datasched.optimum.mip import MipOutcome, TimeIndexedProgram, certify_by_mip, prove_incumbent, schedule_fits
from datasched.optimum.schedule import Instance, OfflineJob, Plan, SolveOptions, solve
from datasched.optimum.timeindex import breakpoints
from datasched.policy.params import parse_params

from .test_cpsat_bounds import _optimal_schedules, tiny_instances
from .test_cpsat_branching import _latest_starts, _objective, warm_start

OBJECTIVES = ["total_waiting", "total_weighted_completion"]


@st.composite
def domains(draw):
    """Sorted, disjoint runs ``(lo, hi)`` with gaps between them (the shape the Lagrangian fixing leaves)."""
    runs, t = [], draw(st.integers(0, 5))
    for _ in range(draw(st.integers(1, 4))):
        hi = t + draw(st.integers(0, 4))
        runs.append((t, hi))
        t = hi + 2 + draw(st.integers(0, 3))
    return runs


@settings(max_examples=200)
@given(runs=domains())
def test_breakpoints_give_back_every_start(runs):
    """For every value v of the domain, y_t = [v <= t] gives s = hi - sum len_t y_t = v.

    Seen failing: with ``len`` counted to the next *time unit* instead of the next
    domain value (``1`` everywhere), every start after a gap came out wrong.
    """
    hi = runs[-1][1]
    steps = breakpoints(runs)
    for lo_run, hi_run in runs:
        for v in range(lo_run, hi_run + 1):
            assert hi - sum(length for t, length in steps if v <= t) == v


def _tiny_proof(objective, jobs, nb_hosts):
    warm = warm_start(objective, jobs, nb_hosts)
    return warm, prove_incumbent(
        objective,
        jobs,
        nb_hosts,
        warm.objective,
        warm.starts,
        _latest_starts(objective, jobs),
        lower=0,
        deadline=_now() + 20.0,
        max_starts=10**6,
    )


@settings(deadline=None, max_examples=60)
@given(instance=tiny_instances(max_jobs=5), objective=st.sampled_from(OBJECTIVES))
def test_mip_bound_never_exceeds_and_reaches_the_brute_force_optimum(instance, objective):
    """fixing bound <= OPT and MIP bound <= OPT; on tiny instances the MIP closes: value == bound == OPT.

    Seen failing: with the capacity rows at ``nb_hosts + 1``, Hypothesis found a
    "schedule" below the optimum (and ``schedule_fits`` refusing it).
    """
    nb_hosts, jobs = instance
    optimum, _ = _optimal_schedules(objective, jobs, nb_hosts)
    warm, proof = _tiny_proof(objective, jobs, nb_hosts)
    assert proof.fixing_bound <= optimum and proof.mip_bound <= optimum
    assert proof.value == optimum == max(proof.fixing_bound, proof.mip_bound)
    assert _objective(objective, jobs, proof.starts) == optimum
    assert schedule_fits(jobs, nb_hosts, proof.starts)


@settings(deadline=None, max_examples=60)
@given(instance=tiny_instances(max_jobs=5), objective=st.sampled_from(OBJECTIVES))
def test_program_keeps_every_optimal_schedule(instance, objective):
    """On the domains fixed at T = OPT, every optimal schedule satisfies the program with cost <= OPT.

    Seen failing: with ``started_by`` returning the literal of the *next*
    breakpoint inside a gap of the domain, some optimal schedules broke a
    capacity row.
    """
    from ortools.math_opt.python import mathopt

    nb_hosts, jobs = instance
    optimum, optimal = _optimal_schedules(objective, jobs, nb_hosts)
    fixed = time_indexed_bound(objective, jobs, nb_hosts, _latest_starts(objective, jobs)(optimum), optimum)
    for schedule in optimal:
        program = TimeIndexedProgram(objective, jobs, nb_hosts, fixed.domains)
        for start, value in zip(program.starts, schedule, strict=True):
            program.model.add_linear_constraint(start == value)
        program.model.add_linear_constraint(program.cost <= optimum)
        result = mathopt.solve(program.model, mathopt.SolverType.HIGHS)
        assert result.termination.reason == mathopt.TerminationReason.OPTIMAL, schedule
        assert program.starts_of(result.variable_values()) == tuple(schedule)


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize(("count", "duration"), [(3, 5), (4, 3), (5, 4)])
def test_weak_lp_family_is_closed_by_the_mip(objective, count, duration):
    """``count`` jobs of width 2 on 3 hosts, released at 0, duration p: they run one at a time.

    OPT (total waiting) = p count (count - 1) / 2; weighted completion (weight 2) =
    p count (count + 1). The time-indexed LP runs 1.5 jobs at once (below OPT);
    the MIP proves nothing costs OPT - 1 and finds OPT when allowed to.

    Seen failing: with the cutoff row at ``cutoff`` instead of ``cutoff - 1``, the
    search returned the optimum itself instead of "no-cheaper".
    """
    nb_hosts, jobs = 3, [UnitJob(0, duration, 2, 2) for _ in range(count)]
    optimum = duration * count * (count - 1) // 2 if objective == "total_waiting" else duration * count * (count + 1)
    full = time_indexed_bound(objective, jobs, nb_hosts, _latest_starts(objective, jobs)(10**6), None)
    assert full.bound < optimum
    no_cheaper = certify_by_mip(objective, jobs, nb_hosts, full.domains, optimum, time_limit_s=20)
    assert (no_cheaper.status, no_cheaper.bound) == ("no-cheaper", optimum)
    found = certify_by_mip(objective, jobs, nb_hosts, full.domains, optimum + 1, time_limit_s=20)
    assert (found.status, found.value, found.bound) == ("optimal", optimum, optimum)
    assert found.starts is not None and schedule_fits(jobs, nb_hosts, found.starts)


def test_a_schedule_below_the_mip_bound_discards_the_proof(monkeypatch):
    """A MIP bound above a known schedule's cost is numerical trouble: the proof is dropped, not trusted.

    Seen failing: without the check, the plan would have reported a bound above its own objective.
    """
    jobs = [UnitJob(0, 5, 2, 2), UnitJob(0, 5, 2, 2), UnitJob(3, 4, 1, 1)]
    monkeypatch.setattr(mip, "certify_by_mip", lambda *args, **kwargs: MipOutcome("limit", 10**6, None, None, 0))
    _, proof = _tiny_proof("total_waiting", jobs, 3)
    assert proof.outcome.startswith("inconsistent") and proof.mip_bound == -math.inf
    assert proof.fixing_bound <= proof.value


@pytest.mark.parametrize(
    ("starts", "fits"),
    [
        ((0, 5, 0), True),  # two 2-host jobs back to back (one ends at 5 as the other starts), 1 host beside: 3
        ((0, 4, 0), False),  # the 2-host jobs overlap by one unit: 2 + 2 + 1 = 5 hosts at t = 4
        ((0, 5, 4), True),  # 2 + 1 at t = 4, then 2 + 1 from t = 5
        ((0, 0, 9), False),  # both 2-host jobs at once: 4 hosts
    ],
)
def test_schedule_fits_counts_hosts_over_time(starts, fits):
    """Hosts in use at t = sum of h_j with s_j <= t < s_j + p_j must stay <= H; starts >= releases.

    Seen failing: with starts sorted before ends at equal times, back-to-back jobs were refused.
    """
    jobs = [UnitJob(0, 5, 2, 2), UnitJob(0, 5, 2, 2), UnitJob(0, 7, 1, 1)]
    assert schedule_fits(jobs, 3, starts) is fits


def test_schedule_fits_refuses_a_start_before_its_release():
    assert not schedule_fits([UnitJob(4, 2, 1, 1)], 1, (3,))
    assert schedule_fits([UnitJob(4, 2, 1, 1)], 1, (4,))


def test_shares_that_leave_cpsat_no_time_are_refused():
    with pytest.raises(UserError, match="mip_share \\+ branching_share must stay below 1"):
        parse_params(SolveOptions, {"mip_share": 0.6, "branching_share": 0.5}, "cpsat-plan")


def test_plan_records_and_rereads_the_mip_outcome(tmp_path):
    """A 20-job instance the cumulative path does not prove in 2 s (bench/cpsat_gap's seed 0 kind), the
    active-schedule search switched off (the MIP is its fallback): the MIP phase runs, its bound is valid
    (<= the objective) and its outcome survives write/read."""
    rng = random.Random(0)
    jobs, t = [], 0
    for i in range(20):
        t += rng.randint(0, 30)
        jobs.append(OfflineJob(f"j{i}", float(t), float(rng.randint(10, 300)), rng.choice([1, 1, 2, 4, 8, 16, 16])))
    plan = solve(
        Instance(tuple(jobs), 32),
        SolveOptions(objective="total_waiting", time_limit_s=8, mip_share=0.75, active_share=0),
    )
    assert plan.mip_outcome is not None and plan.mip_s is not None
    assert plan.bound is not None and plan.objective is not None and plan.bound <= plan.objective
    plan.write(tmp_path / "plan.json")
    again = Plan.read(tmp_path / "plan.json")
    assert (again.mip_outcome, again.mip_s, again.mip_starts) == (plan.mip_outcome, plan.mip_s, plan.mip_starts)


def _now() -> float:
    import time

    return time.perf_counter()


def test_a_warm_program_far_too_large_leaves_the_time_to_cpsat():
    """mip_max_starts = 0 (active-schedule search off): every warm-start program is too large, the MIP phase
    is not planned and says so.

    Seen failing: with the gate removed, the plan carried no "not tried" outcome.
    """
    jobs = tuple(OfflineJob(f"j{i}", 0.0, 5.0, 2) for i in range(3))
    plan = solve(
        Instance(jobs, 3), SolveOptions(objective="total_waiting", time_limit_s=5, mip_max_starts=0, active_share=0)
    )
    assert plan.mip_outcome is not None and plan.mip_outcome.startswith("not tried: the warm start's program has")
    assert plan.status == "OPTIMAL" and plan.objective == 15.0
