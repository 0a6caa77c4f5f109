"""A certified bound from the time-indexed integer program, solved by HiGHS's branch-and-cut.

Why (issue 38, measured on ``bench/cpsat_gap``, 20 jobs, 32 hosts, total
waiting, seed 0, best schedule 1332): the time-indexed LP gives 899-949; the
branching of ``branching`` (CP-SAT as the search engine, LP = the time-indexed
LP) raised it to 1230 in 500 s. The *same* integer program handed to a
branch-and-cut MIP solver gets 1234 at its root node in about 50 s, because its
cut loop (lifted knapsack covers on the capacity rows, clique and conflict cuts)
strengthens the LP where a fractional 16-host job "runs half at two starts";
seed 2's optimum (1086) is proven in 7 s against ~40 s for the cumulative
CP-SAT model. HiGHS ships inside OR-Tools (MathOpt's ``SolverType.HIGHS``): no
dependency is added and no solver outside OR-Tools is used.

The program, on the integer instance (``UnitJob``; ``H`` hosts) and start
domains ``D_j`` (unions of intervals, e.g. after the Lagrangian reduced-cost
fixing of ``lagrangian``; some optimal schedule must lie in them):

- one binary ``y_{j,t} = [s_j <= t]`` per job and *breakpoint* ``t`` (a value
  of ``D_j`` other than its largest; between breakpoints ``[s_j <= t]`` keeps the
  previous literal's value, after the largest value it is 1), monotone:
  ``y_{j,t} <= y_{j,t'}`` for consecutive breakpoints ``t < t'``;
- ``s_j = hi_j - sum_t len_{j,t} y_{j,t}`` with ``len_{j,t}`` the number of time
  units up to the next breakpoint (or ``hi_j``), so the cost is linear in ``y``;
- capacity, for every time unit ``t`` at which the jobs that might run exceed
  ``H``: ``sum_j h_j ([s_j <= t] - [s_j <= t - p_j]) <= H``.

Integer solutions are exactly the feasible schedules with starts in the
domains, so the MIP's dual bound is a lower bound on their cheapest cost. The
program states the incumbent's cost ``U`` as a row ``cost <= U - 1`` (HiGHS
takes no cutoff through MathOpt): proven infeasible, it proves ``U`` optimal.
The objective is integral, so the dual bound is rounded up.

Size: the program has one column per breakpoint. At 50 jobs the fixed domains
keep ~150k starts and the root LP does not finish in 90 s, so the caller gates
this path by the number of starts (``schedule.SolveOptions.mip_max_starts``).
"""

from __future__ import annotations

import datetime
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from datasched.optimum.bounds import UnitJob
from datasched.optimum.timeindex import breakpoints, crowded_times, literal_by_time, started_by

# HiGHS checks its time limit between the steps of its root cut loop, and one step can take
# seconds (measured: a 30 s limit ended at 34.8 s on 20 jobs); the MIP gets this share of the time
# left so that the whole solve stays near its limit.
OVERSHOOT_MARGIN = 0.85
MIN_MIP_S = 1.0  # no threshold is started with less time left
# The incumbent's program this many times above max_starts: the MIP is not tried at all (measured on
# 50 jobs: 170k starts, the halving reached 12k only 2 % above the Lagrangian bound, and the CP-SAT
# time it took cost more than the bound gained), the time goes back to CP-SAT.
TOO_BIG = 4
# The warm start's program (before CP-SAT runs) this many times above max_starts: the MIP phase is
# not planned and CP-SAT keeps the whole time limit in one run (measured on bench/cpsat_gap: 20 jobs
# 13-49k starts, 50 jobs 212-448k; a second CP-SAT run from a hint lost up to a fifth of the
# schedule's quality against one uninterrupted run at 50 jobs).
WARM_TOO_BIG = 8


@dataclass(frozen=True)
class MipOutcome:
    status: str  # "optimal" (value proven), "no-cheaper" (nothing below the cutoff), "feasible", "limit"
    bound: int  # proven: no schedule in the domains costs less (integer model units)
    value: int | None  # cost of ``starts`` when the search found a schedule below the cutoff
    starts: tuple[int, ...] | None
    nodes: int


class TimeIndexedProgram:
    """The integer program of the module docstring on given domains, without objective row or sense.

    ``starts[j]`` is job ``j``'s start as a linear expression of its literals and
    ``cost`` the objective's; the caller adds its own rows (a cutoff, or a fixed
    schedule in the tests).
    """

    def __init__(
        self, objective: str, jobs: Sequence[UnitJob], nb_hosts: int, domains: Sequence[Sequence[tuple[int, int]]]
    ) -> None:
        from ortools.math_opt.python import mathopt

        self.model = mathopt.Model(name="time_indexed")
        self.domains = domains
        self.literals: list[list[tuple[int, int, mathopt.Variable]]] = []  # per job: (t, len, y)
        self.starts: list[mathopt.LinearExpression] = []
        cost: mathopt.LinearExpression | int = 0
        for i, (job, runs) in enumerate(zip(jobs, domains, strict=True)):
            steps = []
            previous = None
            for t, length in breakpoints(runs):
                y = self.model.add_binary_variable(name=f"y_{i}_{t}")
                if previous is not None:
                    self.model.add_linear_constraint(previous <= y)
                steps.append((t, length, y))
                previous = y
            self.literals.append(steps)
            start = runs[-1][1] - mathopt.fast_sum(length * y for _, length, y in steps)
            self.starts.append(start)
            cost += start - job.release if objective == "total_waiting" else job.weight * (start + job.duration)
        self.cost = cost
        _add_capacity_rows(self.model, jobs, nb_hosts, domains, self.literals)

    def starts_of(self, values) -> tuple[int, ...]:
        """The schedule of a solution (``values``: variable -> value)."""
        return tuple(
            runs[-1][1] - sum(length * round(values[y]) for _, length, y in steps)
            for runs, steps in zip(self.domains, self.literals, strict=True)
        )


def certify_by_mip(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    domains: Sequence[Sequence[tuple[int, int]]],
    cutoff: int,
    *,
    time_limit_s: float,
    seed: int = 0,
) -> MipOutcome:
    """Seek a schedule costing ``<= cutoff - 1`` in the domains; return what the search proved.

    ``cutoff`` is the cost of a known schedule (or any integer above which
    nothing needs finding). The bound holds for every schedule in the domains.
    """
    from ortools.math_opt.python import mathopt

    t0 = time.perf_counter()
    program = TimeIndexedProgram(objective, jobs, nb_hosts, domains)
    program.model.add_linear_constraint(program.cost <= cutoff - 1)  # HiGHS takes no cutoff limit through MathOpt
    program.model.minimize(program.cost)
    params = mathopt.SolveParameters(
        time_limit=datetime.timedelta(seconds=max(0.1, time_limit_s - (time.perf_counter() - t0))),
        random_seed=seed,
        heuristics=mathopt.Emphasis.OFF,  # CP-SAT supplies the schedules; the time goes to the bound
    )
    result = mathopt.solve(program.model, mathopt.SolverType.HIGHS, params=params)
    nodes = int(result.solve_stats.node_count)
    reason = result.termination.reason
    if reason == mathopt.TerminationReason.INFEASIBLE:
        return MipOutcome("no-cheaper", cutoff, None, None, nodes)
    found = None
    if result.has_primal_feasible_solution():
        values = result.variable_values()
        found = program.starts_of(values)
    dual = result.termination.objective_bounds.dual_bound
    bound = math.ceil(dual - 1e-6) if math.isfinite(dual) else 0
    if reason == mathopt.TerminationReason.OPTIMAL and found is not None:
        value = round(result.objective_value())
        return MipOutcome("optimal", value, value, found, nodes)
    if found is not None:
        return MipOutcome("feasible", min(bound, cutoff), round(result.objective_value()), found, nodes)
    return MipOutcome("limit", min(bound, cutoff), None, None, nodes)


def _add_capacity_rows(model, jobs: Sequence[UnitJob], nb_hosts: int, domains, literals) -> None:
    """One row per time unit at which the jobs that might run there could exceed ``nb_hosts``."""
    from ortools.math_opt.python import mathopt

    lows = [runs[0][0] for runs in domains]
    highs = [runs[-1][1] for runs in domains]
    by_time = [literal_by_time(steps) for steps in literals]

    def step(i: int, t: int):  # [s_i <= t]: a constant or a literal
        return started_by(by_time[i], lows[i], highs[i], t)

    for t, active in crowded_times(jobs, nb_hosts, lows, highs):
        usage = mathopt.fast_sum(jobs[i].hosts * (step(i, t) - step(i, t - jobs[i].duration)) for i in active)
        model.add_linear_constraint(usage <= nb_hosts)


@dataclass(frozen=True)
class IncumbentProof:
    """What the MIP phase of ``schedule.solve`` proved and found (integer model units)."""

    outcome: str  # "T: outcome" per threshold tried ("; "-separated), or "inconsistent: ..."
    fixing_bound: float  # the best Lagrangian bound of the fixings (valid for every schedule)
    mip_bound: float  # the bound after every refutation and MIP (valid); -inf if it contradicted a schedule
    value: float  # the cheapest schedule known at the end (the incumbent when nothing cheaper was found)
    starts: tuple[int, ...]
    cpsat_bound: float  # CP-SAT's bound from the run beside the MIP (-inf without one)
    nodes: int  # MIP nodes plus CP-SAT branches beside it
    seconds: float
    starts_count: int | None  # (job, start) pairs of the program


def prove_incumbent(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    incumbent: int,
    incumbent_starts: Sequence[int],
    latest_starts: Callable[[int], list[int]],
    *,
    lower: int,
    deadline: float,
    max_starts: int,
    seed: int = 0,
    workers: int = 1,
    beside: Callable[[float, Sequence[int], int], tuple[int, float, list[int], float]] | None = None,
) -> IncumbentProof:
    """Raise the bound ``lower`` towards ``incumbent`` (or beat it) before ``deadline`` (a ``time.perf_counter`` value).

    Destructive lower bounding with the MIP as the judge: for a threshold ``T``
    (first ``incumbent - 1``), the Lagrangian fixing at ``T`` keeps every start of
    a schedule costing ``<= T`` and may alone refute ``T``; otherwise the MIP on
    those domains refutes it (``OPT >= T + 1``), finds a cheaper schedule, or
    leaves its bound at the time limit. A program above ``max_starts`` pairs (its
    root LP would not finish in time) moves ``T`` halfway down towards ``lower``
    first: smaller domains, a weaker but quicker claim; after a refutation ``T``
    goes back up to ``incumbent - 1``. When the incumbent's own program is
    ``TOO_BIG`` times too large, no threshold is tried. The MIP loop runs in a thread while
    ``beside(seconds, hint, workers)`` (CP-SAT) keeps searching for schedules on
    the ``workers - 1`` others; when no threshold's program fits, ``beside`` gets
    all the workers and the time. ``latest_starts(T)`` gives per job a latest
    start every schedule of cost ``<= T`` respects.
    """
    t0 = time.perf_counter()
    starts = tuple(incumbent_starts)
    search = _ThresholdSearch(objective, jobs, nb_hosts, incumbent, starts, lower, latest_starts, max_starts, seed)
    first = search.next_program(deadline)
    if first is None and search.proven():
        return search.proof(0, math.inf, (), -math.inf, _since(t0))
    if first is None:  # no threshold's program fits: the time goes back to CP-SAT
        branches, found, found_starts, cpsat_bound = (
            beside(deadline - time.perf_counter(), starts, workers)
            if beside is not None
            else (0, math.inf, [], -math.inf)
        )
        return search.proof(branches, found, tuple(found_starts), cpsat_bound, _since(t0))
    failure: list[BaseException] = []

    def run_mip() -> None:
        try:
            search.run(first, deadline)
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=run_mip, name="time-indexed-mip")
    thread.start()
    branches, found, found_starts, cpsat_bound = (
        beside(deadline - time.perf_counter(), starts, workers - 1)
        if beside is not None and workers >= 2
        else (0, math.inf, [], -math.inf)
    )
    thread.join()
    if failure:
        raise failure[0]
    return search.proof(branches, found, tuple(found_starts), cpsat_bound, _since(t0))


class _ThresholdSearch:
    """The state of ``prove_incumbent``'s threshold loop: bounds proven, thresholds tried, best schedule."""

    def __init__(self, objective, jobs, nb_hosts, incumbent, starts, lower, latest_starts, max_starts, seed) -> None:
        self.objective, self.jobs, self.nb_hosts = objective, jobs, nb_hosts
        self.incumbent, self.best = incumbent, starts
        self.lower = lower  # proven by the caller, the fixings and the MIP (model units)
        self.fixing_bound = -math.inf
        self.latest_starts, self.max_starts, self.seed = latest_starts, max_starts, seed
        self.tried: list[str] = []
        self.nodes = 0
        self.size: int | None = None  # starts of the last program built

    def proven(self) -> bool:
        return self.lower >= self.incumbent

    def next_program(self, deadline: float) -> tuple[int, tuple] | None:
        """The next threshold and its fixed domains, or None when proven, out of time or nothing fits."""
        from datasched.optimum.lagrangian import time_indexed_bound

        threshold = self.incumbent - 1
        while not self.proven() and deadline - time.perf_counter() > MIN_MIP_S:
            fixed = time_indexed_bound(
                self.objective,
                self.jobs,
                self.nb_hosts,
                self.latest_starts(threshold),
                threshold,
                time_limit_s=max(0.1, min(2.0, (deadline - time.perf_counter()) / 4)),
            )
            self.fixing_bound = max(self.fixing_bound, fixed.bound)
            self.lower = max(self.lower, fixed.bound)
            if fixed.refutes(threshold):
                self.tried.append(f"{threshold}: refuted by the fixing")
                self.lower = max(self.lower, threshold + 1)
                threshold = self.incumbent - 1
                continue
            self.size = count_starts(fixed.domains)
            if self.size <= self.max_starts:
                return threshold, fixed.domains
            self.tried.append(f"{threshold}: {self.size} starts")
            if threshold <= self.lower or (threshold == self.incumbent - 1 and self.size > TOO_BIG * self.max_starts):
                return None
            threshold = self.lower + (threshold - self.lower) // 2
        return None

    def run(self, program: tuple[int, tuple] | None, deadline: float) -> None:
        """The MIP on each threshold in turn, until the time ends, a limit stops it, or the incumbent is proven."""
        while program is not None:
            threshold, domains = program
            mip = certify_by_mip(
                self.objective,
                self.jobs,
                self.nb_hosts,
                domains,
                threshold + 1,
                time_limit_s=(deadline - time.perf_counter()) * OVERSHOOT_MARGIN,
                seed=self.seed,
            )
            self.nodes += mip.nodes
            self.tried.append(f"{threshold}: {mip.status}")
            if mip.starts is not None and mip.value is not None and mip.value < self.incumbent:
                if schedule_fits(self.jobs, self.nb_hosts, mip.starts):
                    self.incumbent, self.best = mip.value, mip.starts
            self.lower = max(self.lower, mip.bound)
            if mip.status == "limit":
                return
            program = self.next_program(deadline)

    def proof(self, branches, found, found_starts, cpsat_bound, seconds) -> IncumbentProof:
        value, best = float(self.incumbent), self.best
        if found < value:
            value, best = found, found_starts
        outcome, mip_bound = "; ".join(self.tried) or "-", float(self.lower)
        if mip_bound > value + 1e-9:  # a schedule beats a proof: numerical trouble, do not trust the MIP
            outcome, mip_bound = f"inconsistent: bound {mip_bound:.0f} above a schedule of {value:.0f}", -math.inf
        return IncumbentProof(
            outcome, self.fixing_bound, mip_bound, value, best, cpsat_bound, self.nodes + branches, seconds, self.size
        )


def count_starts(domains: Sequence[Sequence[tuple[int, int]]]) -> int:
    """Number of (job, start) pairs in the domains."""
    return sum(hi - lo + 1 for runs in domains for lo, hi in runs)


def schedule_fits(jobs: Sequence[UnitJob], nb_hosts: int, starts: Sequence[int]) -> bool:
    """Whether the starts respect releases and never use more than ``nb_hosts`` at once."""
    if any(s < job.release for s, job in zip(starts, jobs, strict=True)):
        return False
    events = sorted(
        [(s + job.duration, -job.hosts) for s, job in zip(starts, jobs, strict=True)]
        + [(s, job.hosts) for s, job in zip(starts, jobs, strict=True)]
    )  # at equal times the ends (negative) come first
    in_use = 0
    for _, change in events:
        in_use += change
        if in_use > nb_hosts:
            return False
    return True


def _since(t0: float) -> float:
    return time.perf_counter() - t0
