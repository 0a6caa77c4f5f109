"""Offline optimal baseline: a CP-SAT model of rigid jobs on identical hosts.

Given every job's release time, true runtime and host count (all known in
advance — hence *offline*, an optimistic bound no online policy can reach), find
start times and hosts that minimise one objective: ``makespan``,
``total_waiting`` (sum of start − release) or ``total_weighted_completion``
(sum of weight × completion time; weight = host count unless given).

Times are integers in CP-SAT: releases and runtimes are rounded *up* to whole
``time_unit`` (runtimes to at least one unit, so a job always holds its hosts for
a positive time). The solver's status, objective, best bound, relative gap and
wall time are recorded with the plan; the plan is executed through the engine by
the ``replay`` policy so its metrics come from the same simulator as the
heuristics'.

Host assignment: ``host_model="explicit"`` gives CP-SAT one optional interval per
(job, host) with a no-overlap constraint per host. ``"cumulative"`` (default,
much faster to prove) constrains only the host count over time and then assigns
concrete hosts by a sweep in start order; on identical hosts that is exact: at a
start instant the count constraint guarantees enough hosts are free, and each
job keeps its hosts until its end.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from datasched.errors import UserError, parse_json, read_utf8
from datasched.optimum.active_search import ActiveProof, prove_by_active_search, why_not
from datasched.optimum.bounds import (
    UnitJob,
    makespan_bound,
    total_waiting_bound,
    weighted_completion_bound,
)
from datasched.optimum.branching import Certificate, certify
from datasched.optimum.lagrangian import LagrangianBound, time_indexed_bound
from datasched.optimum.mip import WARM_TOO_BIG, count_starts, prove_incumbent
from datasched.optimum.warmstart import best_heuristic_schedule, objective_units
from datasched.policy.params import PolicyParams

Objective = Literal["makespan", "total_waiting", "total_weighted_completion"]


@dataclass(frozen=True)
class OfflineJob:
    id: str
    release: float
    runtime: float
    hosts: int
    weight: float | None = None  # None: host count

    @property
    def effective_weight(self) -> float:
        return float(self.hosts) if self.weight is None else float(self.weight)


@dataclass(frozen=True)
class Instance:
    jobs: tuple[OfflineJob, ...]
    nb_hosts: int

    def __post_init__(self) -> None:
        for job in self.jobs:
            if not 1 <= job.hosts <= self.nb_hosts:
                raise UserError(f"job {job.id!r} requests {job.hosts} hosts; the instance has {self.nb_hosts}")
            if job.runtime < 0 or job.release < 0:
                raise UserError(f"job {job.id!r}: negative release or runtime")


class SolveOptions(PolicyParams):
    objective: Objective = Field("makespan", description="what to minimise")
    time_limit_s: float = Field(10.0, gt=0, description="CP-SAT wall-clock limit")
    workers: int = Field(1, ge=1, description="CP-SAT search workers (1 = deterministic)")
    seed: int = Field(0, ge=0, le=2**31 - 1, description="CP-SAT random seed (a 32-bit signed integer there)")
    host_model: Literal["cumulative", "explicit"] = Field("cumulative", description="how hosts are modelled")
    time_unit: float = Field(1.0, gt=0, description="seconds per CP-SAT time step")
    strengthen: bool = Field(
        True, description="warm start from the best heuristic, tightened domains, redundant constraints"
    )
    linearization_level: int = Field(2, ge=0, le=2, description="CP-SAT LP relaxation strength (2: cumulative cuts)")
    lagrangian_share: float = Field(
        0.1,
        ge=0,
        lt=1,
        description="share of time_limit_s spent on the time-indexed Lagrangian bound before CP-SAT (0: none)",
    )
    active_share: float = Field(
        0.75,
        ge=0,
        lt=1,
        description="share of time_limit_s left to the active-schedule search (active_search.py) when the cumulative "
        "CP-SAT run has not proven optimality; CP-SAT keeps searching beside it on the other workers. Total waiting, "
        "and weighted completion with positive weights; elsewhere, or at 0, the MIP phase runs instead",
    )
    mip_share: float = Field(
        0.5,
        ge=0,
        lt=1,
        description="share of time_limit_s left to the time-indexed MIP (mip.py, HiGHS inside OR-Tools) when the "
        "cumulative CP-SAT path has not proven optimality and the active-schedule search does not run; CP-SAT keeps "
        "the other workers meanwhile (0: off)",
    )
    mip_max_starts: int = Field(
        12_000,
        ge=0,
        description="largest number of (job, start) pairs left by the Lagrangian fixing for which the MIP is built; "
        "a larger program moves its threshold down first (measured: 12k pairs reach the root's cuts in ~20 s, 16k "
        "did not finish the root LP in 45 s)",
    )
    branching_share: float = Field(
        0.0,
        ge=0,
        lt=1,
        description="share of time_limit_s left to branching on the time-indexed model (branching.py) when "
        "CP-SAT has not proven optimality (0, the default: the cumulative CP-SAT path alone; branching does not pay "
        "yet on bench/cpsat_gap, schedulers/README.md)",
    )

    @model_validator(mode="after")
    def _shares_leave_cpsat_time(self) -> SolveOptions:
        for name, share in (("mip_share", self.mip_share), ("active_share", self.active_share)):
            if share + self.branching_share >= 1:
                raise ValueError(
                    f"{name} + branching_share must stay below 1 (the cumulative CP-SAT run needs time), "
                    f"got {share} + {self.branching_share}"
                )
        return self


@dataclass
class Plan:
    starts: dict[str, float]
    hosts: dict[str, tuple[int, ...]]
    status: str
    objective: float | None
    bound: float | None
    gap: float | None
    wall_time_s: float
    options: dict = field(default_factory=dict)
    nb_hosts: int = 0
    bound_source: str | None = None  # "cp-sat", "combinatorial" (bounds.py) or "time-indexed": the largest
    warm_start: str | None = None  # the heuristic whose schedule was the hint
    warm_start_objective: float | None = None
    time_indexed_bound: float | None = None  # the Lagrangian bound (lagrangian.py), before CP-SAT
    time_indexed_s: float | None = None  # its wall time (included in wall_time_s)
    nodes: int | None = None  # search branches: the cumulative CP-SAT run plus every branching threshold
    branching_s: float | None = None  # wall time of branching.py (included in wall_time_s)
    branching_thresholds: list = field(default_factory=list)  # [T, outcome] pairs tried by branching.py
    mip_outcome: str | None = None  # mip.py: "T: outcome" per threshold tried, or "not tried: ..." (too large)
    mip_s: float | None = None  # its wall time (included in wall_time_s)
    mip_starts: int | None = None  # (job, start) pairs of its program
    active_outcome: str | None = None  # active_search.py: "T: outcome" per threshold tried
    active_s: float | None = None  # its wall time (included in wall_time_s)

    def certificate(self) -> str:
        """One line: objective, bound, which computation proved it, proof status, nodes, time."""
        gap = "-" if self.gap is None else f"{self.gap * 100:.2f} %"
        return (
            f"objective {self.objective} bound {self.bound} (by {self.bound_source or '-'}) {self.status} gap {gap} "
            f"nodes {self.nodes if self.nodes is not None else '-'} time {self.wall_time_s:.2f} s"
        )

    @property
    def optimal(self) -> bool:
        return self.status == "OPTIMAL"

    def to_json(self) -> dict:
        data = asdict(self)
        data["jobs"] = {j: {"start": self.starts[j], "hosts": list(self.hosts[j])} for j in self.starts}
        del data["starts"], data["hosts"]
        return data

    def write(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    @classmethod
    def read(cls, path: str | Path) -> Plan:
        try:
            data = parse_json(read_utf8(path), path)
            jobs = data["jobs"]
            return cls(
                starts={j: float(v["start"]) for j, v in jobs.items()},
                hosts={j: tuple(int(h) for h in v["hosts"]) for j, v in jobs.items()},
                status=data.get("status", "UNKNOWN"),
                objective=data.get("objective"),
                bound=data.get("bound"),
                gap=data.get("gap"),
                wall_time_s=data.get("wall_time_s", 0.0),
                options=data.get("options", {}),
                nb_hosts=int(data.get("nb_hosts", 0)),
                bound_source=data.get("bound_source"),
                warm_start=data.get("warm_start"),
                warm_start_objective=data.get("warm_start_objective"),
                time_indexed_bound=data.get("time_indexed_bound"),
                time_indexed_s=data.get("time_indexed_s"),
                nodes=data.get("nodes"),
                branching_s=data.get("branching_s"),
                branching_thresholds=data.get("branching_thresholds", []),
                mip_outcome=data.get("mip_outcome"),
                mip_s=data.get("mip_s"),
                mip_starts=data.get("mip_starts"),
                active_outcome=data.get("active_outcome"),
                active_s=data.get("active_s"),
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UserError(f"{path}: not a readable plan file: {exc}") from None


def _units(value: float, unit: float, at_least: int = 0) -> int:
    return max(at_least, math.ceil(value / unit - 1e-9))


def objective_value(
    objective: Objective,
    jobs: Sequence[OfflineJob],
    starts: Mapping[str, float],
    runtimes: Mapping[str, float] | None = None,
) -> float:
    """Objective of any schedule (heuristic or optimal) with the same definition as the model."""
    ends = {j.id: starts[j.id] + (j.runtime if runtimes is None else runtimes[j.id]) for j in jobs}
    if objective == "makespan":
        return max(ends.values(), default=0.0)
    if objective == "total_waiting":
        return sum(starts[j.id] - j.release for j in jobs)
    return sum(j.effective_weight * ends[j.id] for j in jobs)


def solve(instance: Instance, options: SolveOptions | None = None) -> Plan:
    """Best schedule CP-SAT finds within the limit, with a proven lower bound.

    Strengthening (``options.strengthen``, on by default; every step keeps at
    least one optimal schedule, so the optimum is unchanged):

    - **warm start**: the best heuristic schedule (``warmstart``) is the
      solution hint, and its objective ``U`` bounds the optimum, so each job's
      domain shrinks: makespan ``e_i <= U``; total waiting ``s_i <= r_i + U``
      (every other wait is >= 0); weighted completion
      ``w_i e_i <= U - sum_{k != i} w_k (r_k + p_k)``;
    - **big-job clique**: jobs with ``2 h_i > H`` pairwise cannot overlap, so they
      share a no-overlap constraint (stronger propagation than the cumulative);
    - **identical jobs ordered**: jobs with the same duration, hosts and weight
      start in release order (exchanging two such jobs' starts keeps the schedule
      feasible and every objective unchanged);
    - **LP relaxation** at ``linearization_level`` 2 (the cumulative's energy
      cuts) and, with 2+ workers, a portfolio led by CP-SAT's ``max_lp`` worker;
    - **time-indexed Lagrangian bound** (``lagrangian``; total waiting and
      weighted completion, ``lagrangian_share`` of the time limit): its value
      ``L`` is added as ``objective >= L`` and its reduced-cost fixing removes
      the starts no schedule of cost ``<= U`` uses;
    - **active-schedule search** (``active_search``; total waiting and weighted
      completion with positive weights, ``active_share`` of the time limit, when
      the cumulative run has not proven optimality): a branch-and-bound over the
      schedules whose jobs start at releases or ends, with left-shift, dominance
      and Lagrangian rules, beside CP-SAT on the other workers; it proves every
      20-job bench instance of total waiting (``schedulers/README.md``). On warm
      programs above the MIP's gate it gets ``LARGE_ACTIVE_SHARE`` at the end and
      only raises the bound;
    - **time-indexed MIP** (``mip``; when the active search does not run,
      ``mip_share`` of the time limit, when the cumulative run has not proven
      optimality): the same time-indexed program, on the domains fixed at the
      incumbent minus one, solved by HiGHS's branch-and-cut (inside OR-Tools)
      while CP-SAT keeps the other workers; its cuts lift the bound well above
      the LP's on 20-job instances (``schedulers/README.md``);
    - the reported bound is ``max(CP-SAT's bound, bounds.py, time-indexed, active search, MIP)``.
    """
    from ortools.sat.python import cp_model

    options = options or SolveOptions()
    unit = options.time_unit
    jobs = instance.jobs
    nb_hosts = instance.nb_hosts
    weights, scale = _integer_weights(jobs, options.objective)
    unit_jobs = [
        UnitJob(_units(j.release, unit), _units(j.runtime, unit, at_least=1), j.hosts, w)
        for j, w in zip(jobs, weights, strict=True)
    ]
    release = [j.release for j in unit_jobs]
    duration = [j.duration for j in unit_jobs]
    horizon = max(release, default=0) + sum(duration)
    warm = best_heuristic_schedule(options.objective, unit_jobs, nb_hosts) if options.strengthen else None
    latest_end = _latest_ends(options.objective, unit_jobs, horizon, warm.objective if warm else None)
    t_start = time.perf_counter()
    lagrangian: LagrangianBound | None = None
    if warm is not None and options.objective != "makespan" and options.lagrangian_share > 0:
        lagrangian = time_indexed_bound(
            options.objective,
            unit_jobs,
            nb_hosts,
            [e - d for e, d in zip(latest_end, duration, strict=True)],
            warm.objective,
            time_limit_s=options.lagrangian_share * options.time_limit_s,
        )

    model = cp_model.CpModel()
    starts, ends, intervals = [], [], []
    for i in range(len(jobs)):
        if lagrangian is not None:
            domain = cp_model.Domain.from_intervals([list(run) for run in lagrangian.domains[i]])
            s = model.new_int_var_from_domain(domain, f"s_{i}")
        else:
            s = model.new_int_var(release[i], latest_end[i] - duration[i], f"s_{i}")
        e = model.new_int_var(release[i] + duration[i], latest_end[i], f"e_{i}")
        intervals.append(model.new_interval_var(s, duration[i], e, f"iv_{i}"))
        starts.append(s)
        ends.append(e)
        if warm is not None:
            model.add_hint(s, warm.starts[i])
    model.add_cumulative(intervals, [j.hosts for j in jobs], nb_hosts)
    if options.strengthen:
        _add_redundant_constraints(model, unit_jobs, nb_hosts, starts, intervals)
    assign = (
        _explicit_hosts(model, jobs, nb_hosts, starts, ends, duration) if options.host_model == "explicit" else None
    )

    if options.objective == "makespan":
        makespan = model.new_int_var(0, max(latest_end, default=0), "makespan")
        model.add_max_equality(makespan, ends) if ends else model.add(makespan == 0)
        model.minimize(makespan)
    else:
        if options.objective == "total_waiting":
            cost = sum(starts[i] - release[i] for i in range(len(jobs)))
        else:
            cost = sum(w * ends[i] for i, w in enumerate(weights))
        if lagrangian is not None:
            model.add(cost >= lagrangian.bound)
        model.minimize(cost)

    proving = options.strengthen and options.objective != "makespan" and options.host_model == "cumulative"

    def latest_starts(threshold: int) -> list[int]:
        """Per job, a latest start every schedule costing ``<= threshold`` respects (for the proof phases)."""
        ends = _latest_ends(options.objective, unit_jobs, horizon, threshold)
        return [e - d for e, d in zip(ends, duration, strict=True)]

    branching = proving and options.branching_share > 0
    proof_deadline = t_start + options.time_limit_s * (1 - (options.branching_share if branching else 0.0))
    warm_program = count_starts(lagrangian.domains) if lagrangian is not None else None
    active_refused = why_not(options.objective, unit_jobs) if proving and options.active_share > 0 else None
    active = proving and options.active_share > 0 and active_refused is None
    # a warm program this large (50 jobs: 212-448k starts) leaves the active search no chance of proving the
    # incumbent: CP-SAT keeps both workers for most of the time and the search only raises the bound at the end
    large = warm_program is not None and warm_program > WARM_TOO_BIG * options.mip_max_starts
    active_share = min(options.active_share, LARGE_ACTIVE_SHARE) if large else options.active_share
    mip = (
        proving
        and not active
        and options.mip_share > 0
        and warm_program is not None
        and warm_program <= WARM_TOO_BIG * options.mip_max_starts
    )
    reserved = (
        (options.branching_share if branching else 0.0)
        + (options.mip_share if mip else 0.0)
        + (active_share if active else 0.0)
    )
    solver = _cpsat_solver(options, options.time_limit_s * (1 - reserved) - (time.perf_counter() - t_start))
    status = solver.solve(model)
    wall = time.perf_counter() - t_start
    plan = Plan({}, {}, solver.status_name(status), None, None, None, wall, options.model_dump(), nb_hosts)
    plan.nodes = solver.num_branches
    if warm is not None:
        plan.warm_start = warm.policy
        plan.warm_start_objective = warm.objective / scale * unit
    if lagrangian is not None:
        plan.time_indexed_bound = lagrangian.bound / scale * unit
        plan.time_indexed_s = lagrangian.wall_time_s
    if active_refused is not None:
        plan.active_outcome = f"not tried: {active_refused}"
    if proving and options.mip_share > 0 and not mip and not active and warm_program is not None:
        plan.mip_outcome = f"not tried: the warm start's program has {warm_program} starts"
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        start_units = [solver.value(s) for s in starts]
        value = solver.objective_value
        host_sets = (
            {job.id: tuple(h for h in range(nb_hosts) if solver.value(assign[i, h])) for i, job in enumerate(jobs)}
            if assign is not None
            else None
        )
    elif warm is not None and assign is None:
        # the limit ended the search before CP-SAT restated the hint: keep the warm start, unproven
        plan.status = "FEASIBLE"
        start_units, value, host_sets = list(warm.starts), float(warm.objective), None
    else:
        return plan
    plan.starts = {job.id: start_units[i] * unit for i, job in enumerate(jobs)}
    plan.hosts = host_sets or _sweep_hosts(
        nb_hosts, [j.id for j in jobs], start_units, duration, [j.hosts for j in jobs]
    )

    def adopt(units: Sequence[int]) -> None:
        """A cheaper schedule found by a proof phase becomes the plan's (hosts assigned by the sweep)."""
        plan.starts = {job.id: units[i] * unit for i, job in enumerate(jobs)}
        plan.hosts = _sweep_hosts(nb_hosts, [j.id for j in jobs], list(units), duration, [j.hosts for j in jobs])

    solver_bound = solver.best_objective_bound if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 0.0
    # ties go to the bound computed outside CP-SAT: CP-SAT's bound starts at the time-indexed one
    candidates = {
        "time-indexed": float(lagrangian.bound) if lagrangian is not None else -math.inf,
        "cp-sat": solver_bound,
        "combinatorial": float(_combinatorial_bound(options.objective, unit_jobs, nb_hosts)),
    }
    if mip and status != cp_model.OPTIMAL and max(candidates.values()) < value - 1e-9:

        def more_cpsat(seconds: float, hint: Sequence[int], workers: int) -> tuple[int, float, list[int], float]:
            """CP-SAT again from the best schedule, beside or instead of the MIP: (branches, value, starts, bound)."""
            return _CpsatBeside(model, starts, options, hint, workers, seconds).result()

        proof = prove_incumbent(
            options.objective,
            unit_jobs,
            nb_hosts,
            round(value),
            start_units,
            latest_starts,
            lower=math.ceil(max(candidates.values()) - 1e-9),
            deadline=proof_deadline,
            max_starts=options.mip_max_starts,
            seed=options.seed,
            workers=options.workers,
            beside=more_cpsat,
        )
        plan.nodes = (plan.nodes or 0) + proof.nodes
        plan.mip_outcome, plan.mip_s, plan.mip_starts = proof.outcome, proof.seconds, proof.starts_count
        candidates["cp-sat"] = max(candidates["cp-sat"], proof.cpsat_bound)
        if proof.value < value:
            start_units, value = list(proof.starts), float(proof.value)
            adopt(start_units)
        candidates["time-indexed"] = max(candidates["time-indexed"], proof.fixing_bound)
        candidates["time-indexed-mip"] = proof.mip_bound
        plan.wall_time_s = time.perf_counter() - t_start
    if active and status != cp_model.OPTIMAL and max(candidates.values()) < value - 1e-9:
        search, (branches, found, found_starts, cpsat_bound) = _active_phase(
            options,
            model,
            starts,
            unit_jobs,
            nb_hosts,
            round(value),
            start_units,
            latest_starts,
            lower=math.ceil(max(candidates.values()) - 1e-9),
            deadline=proof_deadline,
            prove_first=not large,
        )
        plan.nodes = (plan.nodes or 0) + search.nodes + branches
        plan.active_outcome, plan.active_s = search.outcome, search.seconds
        candidates["cp-sat"] = max(candidates["cp-sat"], cpsat_bound)
        for cheaper, cheaper_starts in ((search.value, search.starts), (found, found_starts)):
            if cheaper is not None and cheaper_starts and cheaper < value:
                if objective_units(options.objective, unit_jobs, cheaper_starts) != round(cheaper):
                    raise AssertionError(f"a schedule reported at {cheaper} costs otherwise: solver bug")
                start_units, value = list(cheaper_starts), float(cheaper)
                adopt(start_units)
        candidates["active-search"] = float(min(search.bound, value))
        plan.wall_time_s = time.perf_counter() - t_start
    if branching and status != cp_model.OPTIMAL and max(candidates.values()) < value - 1e-9:
        remaining = options.time_limit_s - (time.perf_counter() - t_start)
        cert = certify(
            options.objective,
            unit_jobs,
            nb_hosts,
            round(value),
            start_units,
            math.ceil(max(candidates.values()) - 1e-9),
            latest_starts,
            time_limit_s=remaining,
            workers=options.workers,
            seed=options.seed,
        )
        _record_branching(plan, cert)
        if cert.upper < value:
            start_units, value = list(cert.starts), float(cert.upper)
            adopt(start_units)
        candidates["time-indexed-branching"] = float(cert.lower)
        plan.wall_time_s = time.perf_counter() - t_start
    plan.bound_source, bound = max(candidates.items(), key=lambda kv: kv[1])  # ties: the first listed
    if status == cp_model.OPTIMAL or bound >= value - 1e-9:
        plan.status, bound = "OPTIMAL", value
    # report in seconds: every objective is linear in time units
    plan.objective = value / scale * unit
    plan.bound = bound / scale * unit
    plan.gap = 0.0 if plan.status == "OPTIMAL" else (value - bound) / max(abs(value), 1e-9)
    return plan


def _active_phase(
    options: SolveOptions,
    model,
    starts: list,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    incumbent: int,
    incumbent_starts: Sequence[int],
    latest_starts,
    *,
    lower: int,
    deadline: float,
    prove_first: bool,
) -> tuple[ActiveProof, tuple[int, float, list[int], float]]:
    """The active-schedule search, with CP-SAT from the incumbent beside it on the other workers.

    CP-SAT tells the search the cost of every better schedule it finds (the
    search then seeks only cheaper ones) and is stopped when the search is done.
    Returns the search's proof and CP-SAT's (branches, value, starts, bound).
    """
    beside = (
        _CpsatBeside(model, starts, options, incumbent_starts, options.workers - 1, deadline - time.perf_counter())
        if options.workers >= 2
        else None
    )
    try:
        proof = prove_by_active_search(
            options.objective,
            jobs,
            nb_hosts,
            incumbent,
            latest_starts,
            lower=lower,
            deadline=deadline,
            known_best=beside.best_cost if beside is not None else None,
            prove_first=prove_first,
        )
    finally:
        found = beside.stop() if beside is not None else (0, math.inf, [], -math.inf)
    return proof, found


class _CpsatBeside:
    """CP-SAT from a schedule, in a thread beside a search in Python (CP-SAT releases the interpreter lock)."""

    def __init__(self, model, starts: list, options: SolveOptions, hint: Sequence[int], workers: int, seconds: float):
        import threading

        from ortools.sat.python import cp_model

        model.clear_hints()
        for var, start in zip(starts, hint, strict=True):
            model.add_hint(var, start)
        self.model, self.starts = model, starts
        self.solver = _cpsat_solver(options, seconds, workers)
        self.best = math.inf
        self.code = None
        self.failure: BaseException | None = None
        self.stopping = threading.Event()
        outer = self

        class _Costs(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                outer.best = min(outer.best, self.objective_value)

        self.callback = _Costs()
        self.thread = threading.Thread(target=self._run, name="cp-sat-beside")
        self.thread.start()

    def _run(self) -> None:
        try:
            if not self.stopping.is_set():
                self.code = self.solver.solve(self.model, self.callback)
        except BaseException as exc:  # re-raised by stop()
            self.failure = exc

    def best_cost(self) -> float:
        """The cost of the best schedule CP-SAT has found so far (inf: none yet)."""
        return self.best

    def stop(self) -> tuple[int, float, list[int], float]:
        """Stop the search, wait for it; what ``result`` returns."""
        self.stopping.set()
        while self.thread.is_alive():  # a stop asked before CP-SAT started is asked again
            self.solver.stop_search()
            self.thread.join(0.05)
        return self.result()

    def result(self) -> tuple[int, float, list[int], float]:
        """Wait for the search to end; (branches, value, starts, bound), value inf when it found nothing."""
        from ortools.sat.python import cp_model

        self.thread.join()
        if self.failure is not None:
            raise self.failure
        if self.code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return (self.solver.num_branches if self.code is not None else 0), math.inf, [], -math.inf
        return (
            self.solver.num_branches,
            self.solver.objective_value,
            [self.solver.value(v) for v in self.starts],
            self.solver.best_objective_bound,
        )


def _cpsat_solver(options: SolveOptions, seconds: float, workers: int | None = None):
    """A CP-SAT solver with the options' seed and LP level, ``workers`` (default: the options')
    and, with 2+ workers and strengthening, the portfolio led by the LP-heavy worker."""
    from ortools.sat.python import cp_model

    workers = options.workers if workers is None else workers
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, seconds)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = options.seed
    solver.parameters.linearization_level = options.linearization_level
    if workers >= 2 and options.strengthen:
        solver.parameters.subsolvers.extend(PORTFOLIO[:workers])
    return solver


def _record_branching(plan: Plan, cert: Certificate) -> None:
    plan.nodes = (plan.nodes or 0) + cert.nodes
    plan.branching_s = cert.wall_time_s
    plan.branching_thresholds = [[threshold, outcome] for threshold, outcome in cert.thresholds]


# The active search's share when the warm program is large (above WARM_TOO_BIG x mip_max_starts): measured on
# bench/cpsat_gap at 50 jobs, three quarters of the time beside one CP-SAT worker cost 9-21 % of schedule quality
# (e.g. 7512 against 6185) for bounds 0.5-7.5 % higher; a quarter at the end keeps CP-SAT's schedules.
LARGE_ACTIVE_SHARE = 0.25

# CP-SAT workers used when more than one is allowed, in this order: the LP-heavy worker
# proves the bound, quick restarts find schedules (measured on bench/cpsat_gap: the default
# 2-worker portfolio proved no bound at all on 20-job instances).
PORTFOLIO = ("max_lp", "quick_restart", "default_lp", "core", "no_lp", "pseudo_costs", "reduced_costs")


def _integer_weights(jobs: Sequence[OfflineJob], objective: Objective) -> tuple[list[int], float]:
    """Integer objective weights and their scale (only weighted completion uses them)."""
    if objective != "total_weighted_completion":
        return [1] * len(jobs), 1.0
    weights = [j.effective_weight for j in jobs]
    scale = 1.0 if all(float(w).is_integer() for w in weights) else 1000.0
    return [round(w * scale) for w in weights], scale


def _latest_ends(objective: Objective, jobs: Sequence[UnitJob], horizon: int, upper: int | None) -> list[int]:
    """Each job's latest end: the horizon, tightened by an upper bound on the optimum when one is known."""
    ends = [horizon + j.duration for j in jobs]
    if upper is None:
        return ends
    floor = sum(j.weight * (j.release + j.duration) for j in jobs)
    for i, job in enumerate(jobs):
        if objective == "makespan":
            tight = upper
        elif objective == "total_waiting":
            tight = job.release + upper + job.duration
        elif job.weight > 0:
            tight = (upper - (floor - job.weight * (job.release + job.duration))) // job.weight
        else:
            continue
        ends[i] = max(job.release + job.duration, min(ends[i], tight))
    return ends


def _add_redundant_constraints(model, jobs: Sequence[UnitJob], nb_hosts: int, starts: list, intervals: list) -> None:
    big = [intervals[i] for i, j in enumerate(jobs) if 2 * j.hosts > nb_hosts]
    if len(big) > 1:
        model.add_no_overlap(big)
    alike: dict[tuple[int, int, int], list[int]] = {}
    for i, j in enumerate(jobs):
        alike.setdefault((j.duration, j.hosts, j.weight), []).append(i)
    for group in alike.values():
        ordered = sorted(group, key=lambda i: (jobs[i].release, i))
        for a, b in itertools.pairwise(ordered):
            model.add(starts[a] <= starts[b])


def _explicit_hosts(model, jobs: Sequence[OfflineJob], nb_hosts: int, starts, ends, duration) -> dict:
    """One optional interval per (job, host) and a no-overlap per host; returns the choice booleans."""
    assign = {}
    per_host: list[list] = [[] for _ in range(nb_hosts)]
    for i, job in enumerate(jobs):
        row = []
        for h in range(nb_hosts):
            x = model.new_bool_var(f"x_{i}_{h}")
            per_host[h].append(model.new_optional_interval_var(starts[i], duration[i], ends[i], x, f"o_{i}_{h}"))
            row.append(x)
            assign[i, h] = x
        model.add(sum(row) == job.hosts)
    for host_intervals in per_host:
        model.add_no_overlap(host_intervals)
    return assign


def _combinatorial_bound(objective: Objective, jobs: Sequence[UnitJob], nb_hosts: int) -> int:
    if objective == "makespan":
        return makespan_bound(jobs, nb_hosts)
    if objective == "total_waiting":
        return total_waiting_bound(jobs, nb_hosts)
    return weighted_completion_bound(jobs, nb_hosts)


def _sweep_hosts(
    nb_hosts: int, ids: list[str], starts: list[int], durations: list[int], counts: list[int]
) -> dict[str, tuple[int, ...]]:
    import heapq

    order = sorted(range(len(ids)), key=lambda i: (starts[i], i))
    free = list(range(nb_hosts))
    heapq.heapify(free)
    running: list[tuple[int, int, tuple[int, ...]]] = []  # (end, index, hosts)
    hosts: dict[str, tuple[int, ...]] = {}
    for i in order:
        while running and running[0][0] <= starts[i]:
            _, _, released = heapq.heappop(running)
            for h in released:
                heapq.heappush(free, h)
        if len(free) < counts[i]:
            raise AssertionError("cumulative schedule without enough free hosts: model bug")
        chosen = tuple(sorted(heapq.heappop(free) for _ in range(counts[i])))
        hosts[ids[i]] = chosen
        heapq.heappush(running, (starts[i] + durations[i], i, chosen))
    return hosts


def instance_from_workload(workload_path: str | Path, nb_hosts: int, *, max_jobs: int | None = None) -> Instance:
    """Offline instance from a Batsim workload JSON: runtimes from ``delay`` profiles.

    Other profile types have no runtime known before simulation; they are an error
    naming the job (the optimal baseline is for small delay-profile instances).
    """
    path = Path(workload_path)
    try:
        data = parse_json(read_utf8(path), path, parse_constant=_refuse_constant)
    except (OSError, ValueError) as exc:  # JSONDecodeError is a ValueError
        raise UserError(f"{path}: cannot read workload JSON: {getattr(exc, 'strerror', None) or exc}") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: the top level must be a JSON object")
    profiles, raw_jobs = data.get("profiles"), data.get("jobs")
    if not isinstance(profiles, dict):
        raise UserError(f"{path}: missing object 'profiles'")
    if not isinstance(raw_jobs, list):
        raise UserError(f"{path}: missing array 'jobs'")
    jobs = []
    for index, raw in enumerate(raw_jobs[: max_jobs if max_jobs is not None else None]):
        jobs.append(_offline_job(raw, profiles, f"{path}: job #{index}"))
    return Instance(tuple(jobs), nb_hosts)


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _offline_job(raw: object, profiles: dict, where: str) -> OfflineJob:
    """One job of a workload document, checked field by field (errors name the job)."""
    if not isinstance(raw, dict):
        raise UserError(f"{where}: every job must be a JSON object")
    job_id = raw.get("id")
    if isinstance(job_id, bool) or not isinstance(job_id, (str, int)):
        raise UserError(f"{where}: 'id' must be a string or an integer")
    where = f"{where.rsplit(': ', 1)[0]}: job {str(job_id)!r}"
    subtime = _number(raw.get("subtime"), "subtime", where)
    res = raw.get("res")
    if isinstance(res, bool) or not isinstance(res, int) or res < 1:
        raise UserError(f"{where}: 'res' must be a positive integer")
    name = raw.get("profile")
    profile = profiles.get(name) if isinstance(name, str) else None
    if not isinstance(profile, dict) or profile.get("type") != "delay":
        raise UserError(f"{where}: the CP-SAT baseline needs a 'delay' profile (runtime known offline)")
    return OfflineJob(str(job_id), subtime, _number(profile.get("delay"), f"profile {name!r}: delay", where), res)


def _number(value: object, name: str, where: str) -> float:
    number = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond the doubles
            number = math.inf
    if not math.isfinite(number) or number < 0:
        raise UserError(f"{where}: '{name}' must be a finite number >= 0, got {str(value)[:40]}")
    return number


def instance_from_pairs(jobs: Iterable[OfflineJob], nb_hosts: int) -> Instance:
    return Instance(tuple(jobs), nb_hosts)
