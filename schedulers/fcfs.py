"""First come, first served: start jobs strictly in submission order.

The queue head blocks everything behind it until the allocator finds it hosts.
"""

from __future__ import annotations

from datasched.policy.decisions import Decision
from datasched.policy.queue import QueuePolicy
from datasched.policy.registry import register_policy


@register_policy
class Fcfs(QueuePolicy):
    name = "fcfs"
    description = "first come, first served; the queue head blocks the rest"

    def schedule(self, now: float) -> list[Decision]:
        started: list[Decision] = []
        for job in list(self.waiting.values()):
            decision = self.try_start(job, now)
            if decision is None:
                break
            started.append(decision)
        return started
