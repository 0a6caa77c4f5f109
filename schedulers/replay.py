"""Replay a precomputed plan (e.g. the CP-SAT optimum) through the simulator.

The plan file (``datasched.optimum.schedule.Plan`` JSON) gives each job a start
time and hosts. A job starts at its planned time on its planned hosts — or later,
as soon as those hosts are free, if the simulator's runtimes exceed the plan's —
and never overtakes a job planned earlier on one of its hosts, so the plan's
order per host is kept. Metrics then come from the same engine as every other
policy's, which is the point of replaying rather than trusting the model.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

from pydantic import Field, FilePath

from datasched.errors import UserError
from datasched.optimum.schedule import Plan
from datasched.policy.base import Policy
from datasched.policy.decisions import CallMeLater, Decision, ExecuteJob
from datasched.policy.events import Event, JobCompleted, JobInfo, JobsKilled, JobSubmitted
from datasched.policy.params import PolicyParams
from datasched.policy.platform import PlatformView
from datasched.policy.registry import register_policy


class ReplayParams(PolicyParams):
    plan: FilePath = Field(description="plan JSON written by `datasched cpsat-plan` (or any Plan)")


@register_policy
class Replay(Policy):
    name = "replay"
    description = "replay a precomputed plan (CP-SAT baseline): planned start times and hosts"
    Params = ReplayParams
    params: ReplayParams

    def __init__(self, params: ReplayParams) -> None:
        super().__init__(params)
        self.plan = Plan.read(params.plan)
        self.waiting: dict[str, JobInfo] = {}
        self.busy: dict[int, str] = {}
        self.running: dict[str, tuple[int, ...]] = {}
        self.host_queues: dict[int, deque[str]] = {}
        self._calls: set[float] = set()

    def begin(self, platform: PlatformView, now: float) -> list[Decision]:
        super().begin(platform, now)
        order = sorted(self.plan.starts, key=lambda j: (self.plan.starts[j], j))
        for job_id in order:
            for host in self.plan.hosts[job_id]:
                if not 0 <= host < platform.nb_hosts:
                    raise UserError(
                        f"{self.params.plan}: job {job_id!r} is planned on host {host}; "
                        f"the platform has {platform.nb_hosts} compute hosts"
                    )
                self.host_queues.setdefault(host, deque()).append(job_id)
        return []

    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        for event in events:
            if isinstance(event, JobSubmitted):
                if event.job.id not in self.plan.starts:
                    raise UserError(f"{self.params.plan}: job {event.job.id!r} has no planned start")
                self.waiting[event.job.id] = event.job
            elif isinstance(event, JobCompleted):
                self._release(event.job_id)
            elif isinstance(event, JobsKilled):
                for job_id in event.job_ids:
                    self._release(job_id)
        decisions: list[Decision] = []
        next_call = math.inf
        for job_id in sorted(self.waiting, key=lambda j: (self.plan.starts[j], j)):
            planned = self.plan.starts[job_id]
            if planned > now:
                next_call = min(next_call, planned)
                continue
            hosts = self.plan.hosts[job_id]
            if all(h not in self.busy and self.host_queues[h][0] == job_id for h in hosts):
                for h in hosts:
                    self.host_queues[h].popleft()
                    self.busy[h] = job_id
                self.running[job_id] = hosts
                del self.waiting[job_id]
                decisions.append(ExecuteJob(job_id, hosts))
        if next_call < math.inf and next_call not in self._calls:
            self._calls.add(next_call)
            decisions.append(CallMeLater(next_call))
        return decisions

    def _release(self, job_id: str) -> None:
        for host in self.running.pop(job_id, ()):
            self.busy.pop(host, None)
