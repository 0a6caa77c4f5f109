"""EASY backfilling: one reservation, for the queue head.

Jobs start in submission order while they fit. When the head does not fit, it is
given a reservation at the *shadow time* — the earliest time it can start if running
jobs end at their requested walltimes — and later jobs may start now only if they do
not delay it.

How the reservation is kept depends on the allocator:

* allocators with ``any_subset_fits`` (sequential, random, topology): any set of
  enough free hosts will do, so the reservation counts hosts. A backfilled job must
  end (by walltime) before the shadow time, or use no more than the *extra* hosts
  the head will leave unused then. This is the classic EASY rule (Lifka 1995).
* other allocators (e.g. ``contiguous``): a count is not enough, since free hosts
  may be too fragmented for the head. The shadow time is the earliest expected end
  of running jobs at which the allocator itself places the head on the hosts free
  then, and those hosts are the reservation. A backfilled job must end before the
  shadow time, or be placed entirely outside the reserved hosts. (pybatsim's
  ``easyBackfill`` keeps its reservation the same geometric way.)

Either way the head never starts later than its first reservation when jobs run
exactly their walltimes (property-tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import groupby, islice
from operator import attrgetter

from datasched.policy.allocation import AllocationRequest
from datasched.policy.decisions import Decision
from datasched.policy.events import JobInfo
from datasched.policy.queue import QueuePolicy
from datasched.policy.registry import register_policy

_END_THEN_START = attrgetter("expected_end", "start")
_END = attrgetter("expected_end")


@dataclass(frozen=True)
class Reservation:
    """When the head will start; ``extra`` spare hosts then (count rule) or the
    ``hosts`` it will use (geometric rule, ``None`` for the count rule)."""

    shadow: float
    extra: int = 0
    hosts: frozenset[int] | None = None


@register_policy
class Easy(QueuePolicy):
    name = "easy"
    description = "EASY backfilling: FCFS plus backfilling that never delays the queue head"

    def __init__(self, params) -> None:
        super().__init__(params)
        #: first reservation (shadow time) given to each job when it became the head
        self.head_reservations: dict[str, float] = {}

    def schedule(self, now: float) -> list[Decision]:
        started: list[Decision] = []
        queue = list(self.waiting.values())
        position = 0
        while position < len(queue):
            decision = self.try_start(queue[position], now)
            if decision is None:
                break
            started.append(decision)
            position += 1
        if position >= len(queue):
            return started
        head = queue[position]
        if self.allocator.any_subset_fits:
            reservation = self._count_reservation(head, now)
        else:
            reservation = self._placed_reservation(head, now)
        self.head_reservations.setdefault(head.id, reservation.shadow)
        shadow, reserved, extra = reservation.shadow, reservation.hosts, reservation.extra
        free_count = len(self.free_hosts)  # changes only when a job starts below
        for job in islice(queue, position + 1, None):
            if not free_count:
                break
            needed = job.requested_hosts
            if needed > free_count:
                continue
            end = math.inf if job.walltime is None else now + job.walltime
            if end <= shadow:
                decision = self.try_start(job, now)
            elif reserved is not None:
                decision = self.try_start(job, now, excluded=reserved)
            elif needed <= extra:
                decision = self.try_start(job, now)
                if decision is not None:
                    extra -= needed
            else:
                continue
            if decision is not None:
                started.append(decision)
                free_count = len(self.free_hosts)
        return started

    def _expected_releases(self):
        """Running jobs grouped by expected end (walltime), earliest first."""
        ordered = sorted(self.running.values(), key=_END_THEN_START)
        return groupby(ordered, key=_END)

    def _count_reservation(self, head: JobInfo, now: float) -> Reservation:
        """Shadow time of ``head`` by host count, and the hosts it leaves spare then."""
        available = len(self.free_hosts)
        needed = head.requested_hosts
        if available >= needed:
            return Reservation(now)  # the allocator refused although enough hosts are free: no backfill
        ordered = sorted(self.running.values(), key=_END)
        last = len(ordered) - 1
        for index, running in enumerate(ordered):
            available += len(running.hosts)
            end = running.expected_end
            # decide only once every job ending at this date is counted
            if available >= needed and (index == last or ordered[index + 1].expected_end != end):
                return Reservation(max(end, now), available - needed)
        return Reservation(math.inf)

    def _placed_reservation(self, head: JobInfo, now: float) -> Reservation:
        """Earliest expected end at which the allocator places ``head``, and where.

        The allocator is asked about hypothetical future free sets, so its ``choose``
        must not depend on hidden state that such a probe would change.
        """
        free = set(self.free_hosts)
        for end, ending in self._expected_releases():
            for running in ending:
                free.update(running.hosts)
            if len(free) < head.requested_hosts:
                continue
            at = max(end, now)
            request = AllocationRequest(job=head, free_hosts=tuple(sorted(free)), platform=self.platform, now=at)
            hosts = self.allocator.choose(request)
            if hosts is not None:
                return Reservation(at, hosts=frozenset(hosts))
        return Reservation(math.inf, hosts=frozenset())
