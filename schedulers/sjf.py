"""Shortest job first, by requested walltime (jobs without one go last).

Ties keep submission order. By default the shortest waiting job blocks the
others like an FCFS head; with ``skip_blocked`` every job that fits starts, in
SJF order (greedy list scheduling, which can starve wide jobs).
"""

from __future__ import annotations

import math

from pydantic import Field

from datasched.policy.decisions import Decision
from datasched.policy.queue import QueueParams, QueuePolicy
from datasched.policy.registry import register_policy


class SjfParams(QueueParams):
    skip_blocked: bool = Field(False, description="keep scanning past a job that does not fit")


@register_policy
class Sjf(QueuePolicy):
    name = "sjf"
    description = "shortest requested walltime first"
    Params = SjfParams

    def schedule(self, now: float) -> list[Decision]:
        params: SjfParams = self.params  # type: ignore[assignment]
        order = sorted(
            enumerate(self.waiting.values()),
            key=lambda item: (math.inf if item[1].walltime is None else item[1].walltime, item[0]),
        )
        started: list[Decision] = []
        for _, job in order:
            decision = self.try_start(job, now)
            if decision is not None:
                started.append(decision)
            elif not params.skip_blocked:
                break
        return started
