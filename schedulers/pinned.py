"""Pinned: every job runs on the same hosts, as soon as its dependencies completed.

A benchmark harness rather than a scheduler: the seed 001 producer-consumer benchmark
(Tables 1-3) runs producers and consumers on one node, a consumer right after its
producer, as the paper's measurements did. Each job starts on the first ``requested``
ids of the ``hosts`` option the moment it is submitted and every job listed in its
``dependencies`` field (the workload's job field, as ``datasched workload from-workflow``
writes it) has completed; several jobs then share the hosts, which needs the engine's
``--enable-compute-sharing`` (the runner's ``engine_args``). A job whose dependency did not
complete successfully is rejected.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from datasched.errors import UserError
from datasched.policy.base import Policy
from datasched.policy.decisions import Decision, ExecuteJob, RejectJob
from datasched.policy.events import CompletionState, Event, JobCompleted, JobInfo, JobsKilled, JobSubmitted
from datasched.policy.params import PolicyParams
from datasched.policy.registry import register_policy


class PinnedParams(PolicyParams):
    hosts: tuple[int, ...] = Field((0,), min_length=1, description="compute host ids every job runs on (its first n)")


@register_policy
class Pinned(Policy):
    name = "pinned"
    description = "every job on the same hosts, started when its dependencies completed (needs compute sharing)"
    Params = PinnedParams
    params: PinnedParams
    shares_hosts = True

    def __init__(self, params: PinnedParams) -> None:
        super().__init__(params)
        self.waiting: dict[str, JobInfo] = {}
        self.completed: set[str] = set()
        self.failed: set[str] = set()

    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        for event in events:
            if isinstance(event, JobSubmitted):
                job = event.job
                if job.requested_hosts > len(self.params.hosts):
                    raise UserError(
                        f"pinned: job {job.id!r} requests {job.requested_hosts} hosts; "
                        f"the hosts option lists {len(self.params.hosts)}"
                    )
                self.waiting[job.id] = job
            elif isinstance(event, JobCompleted):
                ok = event.state == CompletionState.COMPLETED_SUCCESSFULLY
                (self.completed if ok else self.failed).add(event.job_id)
            elif isinstance(event, JobsKilled):
                self.failed.update(event.job_ids)
        decisions: list[Decision] = []
        for job_id in sorted(self.waiting):
            job = self.waiting[job_id]
            workload = job_id.split("!")[0]
            needs = {f"{workload}!{d}" for d in (job.extra.get("dependencies") or ())}
            if needs & self.failed:
                decisions.append(RejectJob(job_id))
                del self.waiting[job_id]
            elif needs <= self.completed:
                decisions.append(ExecuteJob(job_id, self.params.hosts[: job.requested_hosts]))
                del self.waiting[job_id]
        return decisions
