"""EASY backfilling: one reservation, for the queue head.

Jobs start in submission order while they fit. When the head does not fit, it is
given a reservation at the *shadow time* — the earliest time enough hosts are free
if running jobs end at their requested walltimes — and later jobs may start now
only if they do not delay it: they end (by walltime) before the shadow time, or
use no more than the *extra* hosts the head will leave unused then.
Reservations count hosts, which is exact for allocators with ``any_subset_fits``.
"""

from __future__ import annotations

import math

from datasched.policy.decisions import Decision
from datasched.policy.events import JobInfo
from datasched.policy.queue import QueuePolicy
from datasched.policy.registry import register_policy


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
        shadow, extra = self._shadow(head, now)
        self.head_reservations.setdefault(head.id, shadow)
        for job in queue[position + 1 :]:
            if not self.free_hosts:
                break
            if job.requested_hosts > len(self.free_hosts):
                continue
            end = math.inf if job.walltime is None else now + job.walltime
            if end <= shadow:
                decision = self.try_start(job, now)
            elif job.requested_hosts <= extra:
                decision = self.try_start(job, now)
                if decision is not None:
                    extra -= job.requested_hosts
            else:
                decision = None
            if decision is not None:
                started.append(decision)
        return started

    def _shadow(self, head: JobInfo, now: float) -> tuple[float, int]:
        """Shadow time of ``head`` and the hosts it leaves spare at that time."""
        available = len(self.free_hosts)
        if available >= head.requested_hosts:
            # enough hosts but the allocator refused (e.g. fragmentation): no safe backfill
            return now, 0
        for running in sorted(self.running.values(), key=lambda r: (r.expected_end, r.start)):
            available += len(running.hosts)
            if available >= head.requested_hosts:
                return max(running.expected_end, now), available - head.requested_hosts
        return math.inf, 0
