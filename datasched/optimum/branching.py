"""A certified lower bound by branching on the objective over a time-indexed CP-SAT model.

Why (measured on ``bench/cpsat_gap``, 20 jobs, 32 hosts, total waiting): the
cumulative CP-SAT model of ``optimal.solve`` finds its best schedule within a
second and then never moves its bound; the time-indexed Lagrangian bound of
``lagrangian`` is the exact time-indexed LP (899 on seed 0 against a
best schedule of 1332). Closing that gap needs branching *on the time-indexed
relaxation*. Here CP-SAT is the branch-and-cut engine: the model states every
job's start through the literals ``y_{j,t} = [s_j <= t]`` (monotone in ``t``),
the capacity at every time unit ``t`` as the linear row
``sum_j h_j (y_{j,t} - y_{j,t-p_j}) <= H`` and the objective as a linear form of
the ``y`` (``s_j = lo_j + sum_t (1 - y_{j,t})``), so CP-SAT's LP relaxation *is*
the time-indexed LP and its search branches on start-time intervals
(``s_j <= t`` or ``s_j > t``); the cumulative constraint stays for propagation.

The model is only small enough on shrunken domains, so the objective is
branched on first (destructive lower bounding): for a threshold ``T``, the
Lagrangian reduced-cost fixing with upper bound ``T`` keeps every start that a
schedule of cost ``<= T`` uses (``lagrangian``), the model adds
``cost <= T`` and CP-SAT either

- proves it infeasible: no schedule costs ``<= T``, so ``OPT >= T + 1``;
- proves its minimum ``v`` optimal: every schedule of cost ``<= T`` is in the
  model, so ``v`` is the optimum;
- returns a schedule of cost ``v`` (a new upper bound) and a bound ``b``:
  ``OPT >= min(b, T + 1)``;
- or runs out of its time slice: the bound ``min(b, T + 1)`` still holds.

A fresh threshold sits a quarter of the way from ``lower`` to ``upper - 1`` and
gets at most a third of the remaining time (refutations get much harder close to
the optimum: on seed 0 at 20 jobs, T = 998 took 3.6 s and T = 1082 14.6 s;
bisecting from the middle spent half the budget on one time-out); after a
time-out the next threshold moves halfway towards the lower bound. A threshold whose
fixing leaves more than ``MAX_STARTS`` (job, start) pairs is moved the same way
before any model is built.

Dominance (keeps every optimal schedule; measured: the infeasibility proof at
T = 998 on seed 0 took 3.6 s with it against 10.5 s without, and the 50 s
run reached 1083 against 999): in an optimal schedule for total waiting, or
weighted completion with positive weights, every job starts at its release or
at another job's end. Otherwise shifting it one unit earlier is feasible (at
``s_j - 1`` no job ends at ``s_j``, so the hosts in use at ``s_j - 1`` are those
at ``s_j`` minus the jobs starting there, ``j`` included) and strictly lowers the
cost. Added to the cumulative model of ``optimal.solve`` instead, it did not
move the bound (20 jobs, 20 s, seeds 0 and 1: gaps unchanged), so it lives here only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from datasched.optimum.bounds import UnitJob
from datasched.optimum.lagrangian import time_indexed_bound
from datasched.optimum.timeindex import breakpoints, crowded_times, literal_by_time, started_by

MAX_STARTS = 60_000  # (job, start) pairs above which a threshold model is not built (memory, build time)
MIN_SLICE_S = 1.0  # shortest CP-SAT run per threshold
FIRST_STEP = 4  # a fresh threshold sits this fraction of the way from the lower to the upper bound
SLICE_SHARE = 3  # each threshold gets at most 1/SLICE_SHARE of the remaining time


@dataclass(frozen=True)
class Certificate:
    lower: int  # proven: no schedule costs less (integer model units)
    upper: int  # cost of ``starts``
    starts: tuple[int, ...]  # the best schedule known (the caller's, or one found here)
    nodes: int  # CP-SAT search branches over all thresholds
    thresholds: tuple[tuple[int, str], ...]  # (T, outcome) in the order tried
    wall_time_s: float


def certify(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    upper: int,
    upper_starts: Sequence[int],
    lower: int,
    latest_starts: Callable[[int], list[int]],
    *,
    time_limit_s: float,
    workers: int = 1,
    seed: int = 0,
) -> Certificate:
    """Raise ``lower`` (and maybe lower ``upper``) within the budget; every step keeps the bound valid.

    ``latest_starts(T)`` gives per job a latest start that every schedule of cost
    ``<= T`` respects (``optimal._latest_ends`` minus durations).
    """
    t0 = time.perf_counter()
    best_starts = tuple(upper_starts)
    nodes = 0
    tried: list[tuple[int, str]] = []
    threshold: int | None = None
    while lower < upper:
        remaining = time_limit_s - (time.perf_counter() - t0)
        if remaining < MIN_SLICE_S:
            break
        if threshold is None or threshold < lower:
            threshold = lower + (upper - 1 - lower) // FIRST_STEP
        fixed = time_indexed_bound(
            objective,
            jobs,
            nb_hosts,
            latest_starts(threshold),
            threshold,
            time_limit_s=min(2.0, remaining / 4),
        )
        lower = max(lower, fixed.bound)
        if fixed.refutes(threshold):
            tried.append((threshold, "refuted by the time-indexed bound"))
            lower, threshold = max(lower, threshold + 1), None
            continue
        if sum(hi - lo + 1 for runs in fixed.domains for lo, hi in runs) > MAX_STARTS:
            tried.append((threshold, "too many starts"))
            threshold = lower + (threshold - lower) // 2
            continue
        remaining = time_limit_s - (time.perf_counter() - t0)
        outcome, value, solver_bound, starts, branches = _solve_threshold(
            objective,
            jobs,
            nb_hosts,
            fixed.domains,
            threshold,
            fixed.bound,
            time_limit_s=max(MIN_SLICE_S / 2, min(remaining, max(MIN_SLICE_S, remaining / SLICE_SHARE))),
            workers=workers,
            seed=seed,
        )
        nodes += branches
        tried.append((threshold, outcome))
        if outcome == "INFEASIBLE":
            lower, threshold = threshold + 1, None
        elif outcome == "OPTIMAL":
            upper, best_starts, lower = value, starts, value
        else:
            lower = max(lower, min(solver_bound, threshold + 1))
            if outcome == "FEASIBLE" and value < upper:
                upper, best_starts, threshold = value, starts, None
            else:
                threshold = lower + (threshold - lower) // 2
    return Certificate(min(lower, upper), upper, best_starts, nodes, tuple(tried), time.perf_counter() - t0)


def _solve_threshold(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    domains: Sequence[Sequence[tuple[int, int]]],
    threshold: int,
    lagrangian_bound: int,
    *,
    time_limit_s: float,
    workers: int,
    seed: int,
) -> tuple[str, int, int, tuple[int, ...], int]:
    """(status, best cost, CP-SAT bound, starts, branches) of ``min cost s.t. cost <= threshold`` on the domains."""
    from ortools.sat.python import cp_model

    model, starts = threshold_model(objective, jobs, nb_hosts, domains, threshold, lagrangian_bound)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit_s
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    if workers >= 2:
        solver.parameters.subsolvers.extend(["max_lp", "quick_restart", "default_lp", "core"][:workers])
    status = solver.solve(model)
    name = solver.status_name(status)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        value = round(solver.objective_value)
        chosen = tuple(solver.value(s) for s in starts)
        return name, value, int(solver.best_objective_bound), chosen, solver.num_branches
    bound = int(solver.best_objective_bound) if status == cp_model.UNKNOWN else 0
    return name, 0, max(bound, lagrangian_bound), (), solver.num_branches


def threshold_model(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    domains: Sequence[Sequence[tuple[int, int]]],
    threshold: int,
    lagrangian_bound: int,
):
    """The time-indexed CP-SAT model of ``min cost s.t. lagrangian_bound <= cost <= threshold``; (model, starts)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    starts: list[Any] = []
    intervals: list[Any] = []
    cost_terms: list[tuple[int, Any]] = []
    step_literals: list[dict[int, Any]] = []
    lows = [runs[0][0] for runs in domains]
    highs = [runs[-1][1] for runs in domains]
    for i, (job, runs) in enumerate(zip(jobs, domains, strict=True)):
        s = model.new_int_var_from_domain(cp_model.Domain.from_intervals([list(r) for r in runs]), f"s_{i}")
        starts.append(s)
        intervals.append(model.new_fixed_size_interval_var(s, job.duration, f"iv_{i}"))
        steps: list[tuple[int, int, Any]] = []
        for t, length in breakpoints(runs):
            y = model.new_bool_var(f"y_{i}_{t}")
            model.add(s <= t).only_enforce_if(y)
            model.add(s > t).only_enforce_if(~y)
            if steps:
                model.add_implication(steps[-1][2], y)
            steps.append((t, length, y))
        literals = literal_by_time(steps)
        step_literals.append(literals)
        # s_i = lo_i + sum_t (1 - y_{i,t}), linear in the literals
        cost_terms.append((i, lows[i] + sum(1 - y for y in literals.values())))

    def step(i: int, t: int):  # [s_i <= t] as a constant or a literal
        return started_by(step_literals[i], lows[i], highs[i], t)

    for t, active in crowded_times(jobs, nb_hosts, lows, highs):
        model.add(sum(jobs[i].hosts * (step(i, t) - step(i, t - jobs[i].duration)) for i in active) <= nb_hosts)
    model.add_cumulative(intervals, [j.hosts for j in jobs], nb_hosts)
    _add_active_schedule_rule(model, objective, jobs, domains, starts)
    if objective == "total_waiting":
        cost = sum(start_expr - jobs[i].release for i, start_expr in cost_terms)
    else:
        cost = sum(jobs[i].weight * (start_expr + jobs[i].duration) for i, start_expr in cost_terms)
    model.add(cost <= threshold)
    model.add(cost >= lagrangian_bound)
    model.minimize(cost)
    return model, starts


def _add_active_schedule_rule(model, objective: str, jobs: Sequence[UnitJob], domains, starts) -> None:
    """Each job starts at its release or at some other job's end (see the module docstring)."""
    for j, job in enumerate(jobs):
        if objective == "total_weighted_completion" and job.weight <= 0:
            continue  # a zero weight gains nothing from moving earlier: the rule would not be safe
        lo, hi = domains[j][0][0], domains[j][-1][1]
        choices = []
        if lo == job.release:
            at_release = model.new_bool_var(f"rel_{j}")
            model.add(starts[j] == job.release).only_enforce_if(at_release)
            choices.append(at_release)
        for k, other in enumerate(jobs):
            end_lo, end_hi = domains[k][0][0] + other.duration, domains[k][-1][1] + other.duration
            if k == j or end_hi < lo or end_lo > hi:
                continue
            after = model.new_bool_var(f"after_{j}_{k}")
            model.add(starts[j] == starts[k] + other.duration).only_enforce_if(after)
            choices.append(after)
        model.add_bool_or(choices)
