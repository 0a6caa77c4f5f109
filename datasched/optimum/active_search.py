"""Branch-and-bound over active schedules: a proof of optimality the time-indexed relaxation cannot give.

Why (issue 38, measured on ``bench/cpsat_gap``, 20 jobs, 32 hosts, total
waiting): the time-indexed LP stays 13-40 % below the best schedule and
HiGHS's cut loop on the same program stalls about 7 % below it after a minute;
CP-SAT finds good schedules in a second but never moves its bound. The
instances have little room, though: at any moment only a few released jobs are
waiting. Walking time forward and deciding, at each moment something happens,
which waiting jobs start now, visits few states once the rules below cut the
schedules no optimum needs: with rules 1-4 alone the five 20-job instances
took 1.4 s to more than 120 s of one core, with rule 5 0.1-11 s (2k-80k nodes),
where the other paths proved two of the five.

The problem, on the integer instance (``UnitJob``; ``H`` hosts): starts
``s_j >= r_j`` such that the hosts in use never exceed ``H``; minimise
``sum w_j s_j`` (total waiting: ``w_j = 1`` and the constant ``-sum r_j``;
weighted completion: the constant ``sum w_j p_j``). Every weight must be
positive; the rules below need it.

The search. A node is a moment ``t``, the jobs started so far (their starts,
hence the hosts in use from ``t`` on) and the jobs waiting (released, not
started). Its children choose a set ``S`` of waiting jobs that fit in the free
hosts and start them at ``t``; the next moment is the next release or end.
Every job thus starts at a release or at another job's end, and no other
schedule is needed: each rule below keeps at least one optimal schedule.

1. **Active schedules** (the only starts tried): in an optimal schedule every
   job starts at its release or at another job's end. Otherwise moving it one
   unit earlier is feasible (at ``s_j - 1`` no job ends at ``s_j``, so the
   hosts in use there are those at ``s_j`` minus the jobs starting at ``s_j``,
   ``j`` among them) and lowers the cost by ``w_j > 0``.
2. **Left shift**: no job of an optimal schedule can be moved earlier at all.
   A waiting job ``j`` that fits beside everything started, from moment ``a``
   on, keeps that *free stretch* until a start raises the hosts in use above
   ``H - h_j``. If the stretch lasts ``p_j`` units, ``j`` could run entirely
   inside it: the node is cut. ``j`` is never started while its stretch lasts:
   started at ``s``, it could move to ``a`` (the hosts it would newly occupy,
   ``[a, min(s, a + p_j))``, are all inside the stretch, and jobs started at
   ``s`` or later do not touch it). So a job that fits and is passed over must
   be blocked by later starts before ``p_j`` units pass, and cannot start
   before that.
3. **Dominance between nodes**: two nodes with the same started jobs, at
   moments ``t_A <= t_B``, costs so far ``g_A <= g_B`` and hosts in use from
   ``t_B`` on ``u_A(x) <= u_B(x)`` at every ``x >= t_B``: whatever ``B`` does
   next, ``A`` can do too (waiting until ``t_B`` first) at no more cost. ``B``
   is cut when ``A`` was searched before it (``A`` is no ancestor: ``A``'s
   search is over). An optimal schedule through ``B`` becomes one through
   ``A`` that is still optimal, so never cut by rule 2; were it cut by rule 3
   again, it would be by a node searched earlier still, which cannot go on for
   ever. Only the latest ``DOMINANCE_MEMORY`` nodes per set of started jobs
   are kept as candidates ``A``: cutting less never loses a schedule, and a
   full list (thousands of nodes per set at 150k nodes) made this check most
   of the search's time.
4. **Bound**: the cost so far plus, for every job not started,
   ``w_j`` times its earliest possible start: not before its release, the next
   moment (the next one after that while its free stretch lasts, rule 2), and
   the moment the jobs already started leave ``h_j`` hosts free (later starts
   only take hosts). A node whose bound reaches the best cost known is cut.
5. **Lagrangian bound** (``_Relaxation``): the time-indexed Lagrangian bound
   of the node's remaining problem with the multipliers of the threshold's
   fixing (``lagrangian``), each job's term a suffix minimum computed once;
   jobs start only inside that fixing's domains, which keep every schedule
   below the threshold.

Correctness is tested against a brute force on random small instances (both
objectives, three weightings, with and without rule 5) and hand cases; each
rule was broken once to see those tests fail
(``tests/unit/schedulers/test_active_search.py``).

A search that ends within its time has proven its threshold: nothing costs less
than the cheapest schedule it found, or than the threshold if it found none.
When the time runs out, the bound is the smallest bound among the nodes still
open (usually little: they are near the root); ``prove_by_active_search`` turns
partial searches into certified bounds by lowering the threshold.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from datasched.optimum.bounds import UnitJob

# nodes kept per set of started jobs for rule 3 (the latest): measured on the 20-job weighted-completion bench
# instances that need 140-190k nodes, keeping 5-30 costs 4-9 % more nodes than keeping all (up to 6.7k per set)
# but checks 8-10 times faster
DOMINANCE_MEMORY = 16
MAX_NODES_PER_CLOCK_CHECK = 512  # nodes between two reads of the clock
FIRST_SHARE = 0.5  # share of the time for the run that would prove the incumbent optimal
RUN_SHARE = 1 / 3  # share of the time left for each later threshold
FIXING_S = 2.0  # longest Lagrangian fixing per threshold (measured: 0.3-2 s at 20-50 jobs)
MIN_RUN_S = 0.2  # no threshold is started with less time left
MAX_JOBS = 100  # above, the recursion (3 frames per moment, 2 moments per job) nears Python's limit of 1000


@dataclass(frozen=True)
class SearchOutcome:
    """One search for a schedule costing less than ``below`` (objective units of the integer instance)."""

    complete: bool  # the search ended within its time
    bound: int  # proven: no schedule costs less (complete: the cheapest cost found, or the threshold reached)
    value: int | None  # the cheapest cost found below the threshold, if any
    starts: tuple[int, ...] | None  # its schedule
    nodes: int
    seconds: float


def why_not(objective: str, jobs: Sequence[UnitJob]) -> str | None:
    """Why the search cannot run on this problem (None: it can).

    The rules need a sum objective with positive weights; the depth-first search recurses once per moment
    (up to two per job), so instances above ``MAX_JOBS`` are left to the other paths.
    """
    if objective not in ("total_waiting", "total_weighted_completion"):
        return f"the objective {objective!r} is not a weighted sum of starts"
    if objective == "total_weighted_completion" and any(job.weight <= 0 for job in jobs):
        return "a job has a weight <= 0 (the left-shift rules need positive weights)"
    if any(job.release < 0 for job in jobs):
        return "a job is released before time 0"
    if len(jobs) > MAX_JOBS:
        return f"{len(jobs)} jobs, above the search's {MAX_JOBS}"
    return None


def search_active_schedules(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    below: int,
    *,
    deadline: float,
    multipliers: Sequence[float] = (),
    domains: Sequence[Sequence[tuple[int, int]]] | None = None,
    known_best: Callable[[], float] | None = None,
) -> SearchOutcome:
    """Seek the cheapest schedule costing less than ``below``; when the search completes, none cheaper exists.

    ``multipliers`` and ``domains`` (a ``lagrangian`` fixing whose domains keep
    every schedule costing less than ``below``) add rule 5; ``known_best()``, read
    now and then, is the cost of a schedule found elsewhere (CP-SAT running
    beside): the search then only seeks schedules cheaper than that.
    ``deadline`` is a ``time.perf_counter`` value.
    """
    reason = why_not(objective, jobs)
    if reason is not None:
        raise ValueError(f"the active-schedule search cannot run: {reason}")
    t0 = time.perf_counter()
    weights = [1 if objective == "total_waiting" else job.weight for job in jobs]
    offset = _offset(objective, jobs)
    relaxation = (
        _Relaxation(jobs, weights, nb_hosts, multipliers, domains) if multipliers and domains is not None else None
    )
    outside = None if known_best is None else (lambda: known_best() - offset)
    search = _Search(jobs, weights, nb_hosts, below - offset, deadline, relaxation, outside)
    search.run()
    value = None if search.found is None else search.found + offset
    starts = None if search.best_starts is None else tuple(search.best_starts)
    bound = search.best + offset  # every node cut had a bound >= the threshold of its time, which only fell
    if search.timed_out:
        bound = min(bound, search.open_bound + offset)
    return SearchOutcome(not search.timed_out, bound, value, starts, search.nodes, time.perf_counter() - t0)


def _offset(objective: str, jobs: Sequence[UnitJob]) -> int:
    """Objective minus ``sum w_j s_j``."""
    if objective == "total_waiting":
        return -sum(job.release for job in jobs)
    return sum(job.weight * job.duration for job in jobs)


class _Search:
    """Depth-first search of the module docstring; costs are ``sum w_j s_j``."""

    def __init__(
        self,
        jobs: Sequence[UnitJob],
        weights: Sequence[int],
        nb_hosts: int,
        upper: int,
        deadline: float,
        relaxation: _Relaxation | None = None,
        outside: Callable[[], float] | None = None,
    ) -> None:
        self.relaxation = relaxation
        self.outside = outside  # cost (sum w s) of the best schedule known elsewhere, read at each clock check
        self.release = [job.release for job in jobs]
        self.duration = [job.duration for job in jobs]
        self.hosts = [job.hosts for job in jobs]
        self.weight = list(weights)
        self.nb_hosts = nb_hosts
        self.by_release = sorted(range(len(jobs)), key=lambda j: (self.release[j], j))
        # tail_cost[k]: sum of w_j r_j over the jobs from the k-th release on (their bound once nothing runs)
        self.tail_cost = [0] * (len(jobs) + 1)
        for k in range(len(jobs) - 1, -1, -1):
            j = self.by_release[k]
            self.tail_cost[k] = self.tail_cost[k + 1] + self.weight[j] * self.release[j]
        # tail_relaxed[k]: the same jobs' rule-5 terms, each at its release
        self.tail_relaxed = [0.0] * (len(jobs) + 1)
        if relaxation is not None:
            for k in range(len(jobs) - 1, -1, -1):
                j = self.by_release[k]
                self.tail_relaxed[k] = self.tail_relaxed[k + 1] + relaxation.job_term(j, self.release[j])
        self.full = (1 << len(jobs)) - 1
        self.best = upper  # a schedule must cost less than this to be kept (lowered by finds and by `outside`)
        self.found: int | None = None  # cost of best_starts, the cheapest schedule this search found
        self.best_starts: list[int] | None = None
        self.starts = [0] * len(jobs)
        self.deadline = deadline
        self.nodes = 0
        self.timed_out = False
        self.open_bound = upper  # smallest bound of a node left open by the time limit
        # mask -> [moment, cost so far, hosts in use as ((end, hosts), ...), their ends, hosts held by each
        # suffix of them, still on the search path]
        self.seen: dict[int, deque[list]] = {}

    def run(self) -> None:
        if not self.release:
            if self.best > 0:
                self.best = self.found = 0
                self.best_starts = []
            return
        first = self.release[self.by_release[0]]
        released = self._released_up_to(0, first)
        waiting = self.by_release[:released]
        root_bound = self._bound((), 0, first, waiting, {}, released)
        if root_bound < self.best:
            self._node(first, (), 0, 0, waiting, {}, released, root_bound)

    def _released_up_to(self, k: int, t: int) -> int:
        """Index in ``by_release`` of the first job released after ``t``, starting the scan at ``k``."""
        while k < len(self.by_release) and self.release[self.by_release[k]] <= t:
            k += 1
        return k

    def _node(
        self,
        t: int,
        running: tuple[tuple[int, int], ...],
        mask: int,
        cost: int,
        waiting: list[int],
        stretch: dict[int, int],
        released: int,
        bound: int,
    ) -> None:
        """Search below the moment ``t``: ``running`` (end, hosts) all end after ``t``; ``stretch`` rule 2."""
        self.nodes += 1
        if (self.nodes - 1) % MAX_NODES_PER_CLOCK_CHECK == 0:  # the root checks too
            if time.perf_counter() > self.deadline:
                self.timed_out = True
            if self.outside is not None and self.outside() < self.best:
                self.best = math.ceil(self.outside())
        if self.timed_out:
            self.open_bound = min(self.open_bound, bound)
            return
        entry = self._remember(mask, t, cost, running)
        try:
            self._children(t, running, mask, cost, waiting, stretch, released)
        finally:
            entry[-1] = False  # off the search path: a dominator from now on
        if self.timed_out:
            self.open_bound = min(self.open_bound, bound)

    def _children(
        self,
        t: int,
        running: tuple[tuple[int, int], ...],
        mask: int,
        cost: int,
        waiting: list[int],
        stretch: dict[int, int],
        released: int,
    ) -> None:
        free = self.nb_hosts - sum(h for _, h in running)
        startable = [j for j in waiting if self.hosts[j] <= free and j not in stretch]
        if self.relaxation is not None:
            startable = [j for j in startable if self.relaxation.allows(j, t)]
        next_release = self.release[self.by_release[released]] if released < len(self.by_release) else None
        for chosen in _subsets_that_fit(startable, self.hosts, free):
            if self.timed_out:
                return
            self._child(t, running, mask, cost, waiting, stretch, released, chosen, next_release)

    def _child(
        self,
        t: int,
        running: tuple[tuple[int, int], ...],
        mask: int,
        cost: int,
        waiting: list[int],
        stretch: dict[int, int],
        released: int,
        chosen: list[int],
        next_release: int | None,
    ) -> None:
        hosts, duration = self.hosts, self.duration
        if chosen:
            running = tuple(sorted(running + tuple((t + duration[j], hosts[j]) for j in chosen)))
        later = [x for x in (next_release, running[0][0] if running else None) if x is not None]
        left = [j for j in waiting if j not in chosen]
        for j in chosen:
            self.starts[j] = t
            mask |= 1 << j
            cost += self.weight[j] * t
        if mask == self.full:
            if cost < self.best:
                self.best = self.found = cost
                self.best_starts = list(self.starts)
            return
        if not later:  # nothing will ever happen again, yet jobs wait
            return
        nxt = min(later)
        in_use = sum(h for _, h in running)
        new_stretch: dict[int, int] = {}
        for j in left:  # rule 2
            if in_use + hosts[j] <= self.nb_hosts:
                since = stretch.get(j, t)
                if nxt - since >= duration[j]:
                    return
                new_stretch[j] = since
        still_running = tuple(run for run in running if run[0] > nxt)
        now_released = self._released_up_to(released, nxt)
        now_waiting = left + self.by_release[released:now_released]
        bound = self._bound(still_running, cost, nxt, now_waiting, new_stretch, now_released)
        if bound >= self.best:
            return
        if self._dominated(mask, nxt, cost, still_running):
            return
        self._node(nxt, still_running, mask, cost, now_waiting, new_stretch, now_released, bound)

    def _bound(
        self,
        running: tuple[tuple[int, int], ...],
        cost: int,
        t: int,
        waiting: list[int],
        stretch: dict[int, int],
        released: int,
    ) -> int:
        """Rules 4 and 5 at the moment ``t`` (``running`` all end after ``t``, sorted by end)."""
        free_from = _FreeMoments(running, t, self.nb_hosts)
        after_t = None
        if stretch:  # the moment after t: the next release, or end of a job running or started at t
            candidates = [running[0][0]] if running else []
            if released < len(self.by_release):
                candidates.append(self.release[self.by_release[released]])
            candidates.extend(t + self.duration[j] for j in waiting if j not in stretch)
            if not candidates:
                return self.best  # the waiting jobs can never start: no schedule below this node
            after_t = min(candidates)
        weight, hosts, relax = self.weight, self.hosts, self.relaxation
        bound = cost
        relaxed = float(cost)
        for j in waiting:
            earliest = free_from.moment(hosts[j])
            if after_t is not None and j in stretch:
                earliest = max(earliest, after_t)
            bound += weight[j] * earliest
            if relax is not None:
                relaxed += relax.job_term(j, earliest)
        last_end = running[-1][0] if running else t
        k = released
        while k < len(self.by_release) and self.release[self.by_release[k]] < last_end:
            j = self.by_release[k]
            earliest = max(self.release[j], free_from.moment(hosts[j]))
            bound += weight[j] * earliest
            if relax is not None:
                relaxed += relax.job_term(j, earliest)
            k += 1
        bound += self.tail_cost[k]
        if relax is None:
            return bound
        relaxed += self.tail_relaxed[k] - relax.capacity_term(t, running)
        if relaxed == math.inf:
            return self.best
        return max(bound, math.ceil(relaxed - 1e-7 * max(1.0, abs(relaxed))))

    def _remember(self, mask: int, t: int, cost: int, running: tuple[tuple[int, int], ...]) -> list:
        ends = tuple(end for end, _ in running)
        # in_use_from[i], held_from[i]: hosts held by running[i:], and the sum of hosts x end over them
        in_use_from = [0] * (len(running) + 1)
        held_from = [0] * (len(running) + 1)
        for i in range(len(running) - 1, -1, -1):
            end, hosts = running[i]
            in_use_from[i] = in_use_from[i + 1] + hosts
            held_from[i] = held_from[i + 1] + hosts * end
        entry = [t, cost, running, ends, in_use_from, held_from, True]
        kept = self.seen.get(mask)
        if kept is None:
            kept = self.seen[mask] = deque(maxlen=DOMINANCE_MEMORY)
        kept.append(entry)
        return entry

    def _dominated(self, mask: int, t: int, cost: int, running: tuple[tuple[int, int], ...]) -> bool:
        """Rule 3: a node searched before, not on the current path, at least as good from ``t`` on."""
        kept = self.seen.get(mask)
        if not kept:
            return False
        in_use = sum(h for _, h in running)
        held = sum(h * (end - t) for end, h in running)  # host-time held after t: no more is necessary
        for earlier_t, earlier_cost, earlier_running, ends, in_use_from, held_from, on_path in kept:
            if on_path or earlier_t > t or earlier_cost > cost:
                continue
            first = bisect_right(ends, t)  # the earlier node's jobs still running after t
            if (
                in_use_from[first] <= in_use
                and held_from[first] - t * in_use_from[first] <= held
                and _uses_no_more(earlier_running, in_use_from, first, running, in_use)
            ):
                return True
        return False


class _Relaxation:
    """Rule 5: the time-indexed Lagrangian bound of a node, with the multipliers of the root (``lagrangian``).

    For multipliers ``λ >= 0`` (per time unit) and the jobs not started at the
    moment ``t``, every completion of the node costs at least
    ``cost so far + sum_j min_{s in D_j, s >= e_j} [w_j s + h_j Λ(s, s + p_j)]
    - sum_{x >= t} λ_x (H - u(x))``, with ``e_j`` the job's earliest start of
    rule 4, ``u`` the hosts the running jobs hold and ``Λ(a, b)`` the sum of ``λ``
    over ``[a, b)``: the proof of ``lagrangian``'s claim on the times from ``t``
    on. The minimum over ``s >= e`` is a suffix minimum computed once per job.
    ``D_j`` are the root's fixed domains, which keep every schedule cheaper than
    the incumbent; jobs start only inside them.
    """

    def __init__(
        self,
        jobs: Sequence[UnitJob],
        weights: Sequence[int],
        nb_hosts: int,
        multipliers: Sequence[float],
        domains: Sequence[Sequence[tuple[int, int]]],
    ) -> None:
        self.nb_hosts = nb_hosts
        prefix = np.concatenate([[0.0], np.cumsum(np.asarray(multipliers, dtype=np.float64))])
        self.total = float(prefix[-1])
        # Λ(0, x) for every moment the search can reach (a start is at most the last release plus every other
        # job's duration), so that no lookup needs clamping
        latest_end = max((job.release for job in jobs), default=0) + sum(job.duration for job in jobs)
        self.prefix = prefix.tolist() + [self.total] * max(0, latest_end + 1 - len(prefix))
        self.lows: list[int] = []
        self.best_from: list[list[float]] = []
        self.allowed: list[bytearray] = []
        for job, weight, runs in zip(jobs, weights, domains, strict=True):
            if not runs:
                self.lows.append(0)
                self.best_from.append([])
                self.allowed.append(bytearray())
                continue
            low, high = runs[0][0], runs[-1][1]
            allowed = np.zeros(high - low + 1, dtype=bool)
            for lo, hi in runs:
                allowed[lo - low : hi - low + 1] = True
            s = np.arange(low, high + 1)
            last = len(prefix) - 1
            held = prefix[np.clip(s + job.duration, 0, last)] - prefix[np.clip(s, 0, last)]
            costs = np.where(allowed, weight * s + job.hosts * held, np.inf)
            self.lows.append(low)
            self.best_from.append(np.minimum.accumulate(costs[::-1])[::-1].tolist())
            self.allowed.append(bytearray(allowed.astype(np.uint8).tobytes()))

    def allows(self, j: int, t: int) -> bool:
        k = t - self.lows[j]
        return 0 <= k < len(self.allowed[j]) and self.allowed[j][k] == 1

    def job_term(self, j: int, earliest: int) -> float:
        k = max(0, earliest - self.lows[j])
        costs = self.best_from[j]
        return costs[k] if k < len(costs) else math.inf

    def capacity_term(self, t: int, running: tuple[tuple[int, int], ...]) -> float:
        prefix = self.prefix
        at_t = prefix[t]
        return self.nb_hosts * (self.total - at_t) - sum(h * (prefix[end] - at_t) for end, h in running)


class _FreeMoments:
    """From which moment ``>= t`` the running jobs leave ``need`` hosts free (they only end); cached per need."""

    def __init__(self, running: tuple[tuple[int, int], ...], t: int, nb_hosts: int) -> None:
        self.running, self.t, self.nb_hosts = running, t, nb_hosts
        self.in_use = sum(h for _, h in running)
        self.cache: dict[int, int] = {}

    def moment(self, need: int) -> int:
        found = self.cache.get(need)
        if found is None:
            found = self.t
            in_use = self.in_use
            for end, h in self.running:
                if in_use + need <= self.nb_hosts:
                    break
                in_use -= h
                found = end
            self.cache[need] = found
        return found


def _uses_no_more(
    a: tuple[tuple[int, int], ...],
    a_in_use_from: Sequence[int],
    first: int,
    b: tuple[tuple[int, int], ...],
    b_in_use: int,
) -> bool:
    """Whether the hosts in use by ``a`` never exceed ``b``'s at any moment from ``t`` on.

    Both sorted by end; ``a[first:]`` are ``a``'s jobs ending after ``t``, holding ``a_in_use_from[first]``
    hosts; every job of ``b`` ends after ``t`` and together they hold ``b_in_use``.
    """
    i, j, len_a, len_b = first, 0, len(a), len(b)
    used_a, used_b = a_in_use_from[first], b_in_use
    while True:
        if used_a > used_b:
            return False
        if i == len_a:
            return True
        if j == len_b:
            return used_a == 0
        moment = min(a[i][0], b[j][0])
        while i < len_a and a[i][0] == moment:
            used_a -= a[i][1]
            i += 1
        while j < len_b and b[j][0] == moment:
            used_b -= b[j][1]
            j += 1


def _subsets_that_fit(candidates: list[int], hosts: Sequence[int], free: int) -> Iterator[list[int]]:
    """Every subset of ``candidates`` whose hosts fit in ``free``, those taking each job first (greedy first).

    A generator: with many jobs waiting the subsets are too many to list, and the search's clock (checked
    per node) must stay in charge.
    """
    chosen: list[int] = []

    def extend(i: int, used: int) -> Iterator[list[int]]:
        if i == len(candidates):
            yield list(chosen)
            return
        j = candidates[i]
        if used + hosts[j] <= free:
            chosen.append(j)
            yield from extend(i + 1, used + hosts[j])
            chosen.pop()
        yield from extend(i + 1, used)

    return extend(0, 0)


@dataclass(frozen=True)
class ActiveProof:
    """What ``prove_by_active_search`` proved and found (objective units)."""

    outcome: str  # "T: result" per threshold tried, "; "-separated
    bound: int  # proven: no schedule costs less
    value: int | None  # the cheapest schedule it found, if cheaper than the incumbent it was given
    starts: tuple[int, ...] | None
    nodes: int
    seconds: float


def prove_by_active_search(
    objective: str,
    jobs: Sequence[UnitJob],
    nb_hosts: int,
    incumbent: int,
    latest_starts: Callable[[int], list[int]],
    *,
    lower: int,
    deadline: float,
    known_best: Callable[[], float] | None = None,
    prove_first: bool = True,
) -> ActiveProof:
    """Raise the bound ``lower`` to the incumbent's cost (proving it optimal), or as far as the time allows.

    Each run seeks a schedule below a threshold ``T`` on the domains of the
    Lagrangian fixing at ``T - 1`` (``lagrangian``; the fixing alone may refute
    ``T``). The first threshold is the incumbent's cost and gets ``FIRST_SHARE``
    of the time: a complete run proves the optimum. If it runs out of time, the
    next threshold sits halfway between the bound and the last one and each run
    gets ``RUN_SHARE`` of the time left; after a run that ends, the threshold
    moves halfway up towards the incumbent. ``latest_starts(T)`` gives per job a
    latest start every schedule of cost ``<= T`` respects; ``known_best()`` the cost
    of the best schedule known elsewhere (it lowers the incumbent as it goes).
    ``prove_first=False`` (large instances, where that run cannot end) starts a
    quarter of the way from the bound to the incumbent instead.
    """
    from datasched.optimum.lagrangian import time_indexed_bound

    t0 = time.perf_counter()
    best, best_starts = incumbent, None
    tried: list[str] = []
    nodes = 0

    def upper() -> int:
        elsewhere = math.inf if known_best is None else known_best()
        return best if elsewhere >= best else math.ceil(elsewhere)

    threshold = upper() if prove_first else lower + max(1, (upper() - lower) // 4)
    share = FIRST_SHARE if prove_first else RUN_SHARE
    while lower < upper() and deadline - time.perf_counter() > MIN_RUN_S:
        threshold = min(threshold, upper())
        run_deadline = time.perf_counter() + share * (deadline - time.perf_counter())
        fixing = time_indexed_bound(
            objective,
            jobs,
            nb_hosts,
            latest_starts(threshold - 1),
            threshold - 1,
            time_limit_s=max(0.1, min(FIXING_S, (run_deadline - time.perf_counter()) / 4)),
        )
        lower = max(lower, fixing.bound)
        if fixing.refutes(threshold - 1):
            tried.append(f"{threshold}: refuted by the fixing")
            lower = max(lower, threshold)
            complete = True
        else:
            run = search_active_schedules(
                objective,
                jobs,
                nb_hosts,
                threshold,
                deadline=run_deadline,
                multipliers=fixing.multipliers,
                domains=fixing.domains,
                known_best=known_best,
            )
            nodes += run.nodes
            lower = max(lower, run.bound)
            complete = run.complete
            if run.value is not None and run.value < best:
                best, best_starts = run.value, run.starts
            found = f", found {run.value}" if run.value is not None else ""
            tried.append(f"{threshold}: {'ended' if complete else 'limit'}{found} ({run.nodes} nodes)")
        share = RUN_SHARE
        if complete:
            threshold = lower + max(1, (upper() - lower) // 2) if lower < upper() else upper()
        else:
            threshold = lower + max(1, (threshold - lower) // 2)
    return ActiveProof(
        "; ".join(tried) or "-",
        min(lower, upper()),
        best if best_starts is not None else None,
        best_starts,
        nodes,
        time.perf_counter() - t0,
    )
