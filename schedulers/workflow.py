"""Workflow-aware list scheduling (seed 001 section 4.1), data-aware or data-unaware.

Queue: jobs in submission order (ties by job number), each started as soon as its
dependencies are met and enough hosts are free ("scheduled by incrementing ID, if there
is sufficient space": a job that does not fit does not block the ones behind it).
Dependencies are the workload's job fields written by ``datasched workload
from-workflow``: ``dependencies`` (Slurm ``afterok``: the job waits, queued, until every
listed job completed successfully) and ``datasched_submit_after`` (chaining: the job
enters the queue only when every listed job completed, behind everything queued
meanwhile). A job whose dependency failed or was killed is rejected.

``data_aware`` (the compared variable, everything else equal):

- ``false``: hosts from the ``allocation`` option (default sequential: lowest free
  ids); every named data item is written to central storage (``items_to: central``), as
  on a system whose jobs share data through the external file system.
- ``true``: the policy tracks where the items written to node NVM are (the hosts that
  wrote them: the first I/O tasks of the write phase) and places a job on the free
  hosts that hold most of its input bytes (a holder of an item striped over h hosts
  holds 1/h of the bytes read from it), the rest at the lowest free ids; items stay
  where the profile says (node NVM for intermediate products, central storage for a
  workflow's final output). Released steps whose inputs are on node NVM are tried
  before the other waiting jobs in each round, so that the nodes holding their data are
  not taken by another job the moment they free up (our choice: the paper only says
  the steps "are now scheduled to use the same nodes").

Not (yet) done: pre-staging inputs of the next ready steps with data movers
(DATASCHED_STAGE), post-moving outputs, holding nodes for a next step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import Field

from datasched.policy.decisions import Decision, ExecuteJob, RejectJob, StorageChoice
from datasched.policy.events import CompletionState, Event, JobCompleted, JobInfo, JobsKilled
from datasched.policy.queue import QueueParams, QueuePolicy, RunningJob
from datasched.policy.registry import register_policy
from datasched.policy.storage import is_phase_job


class WorkflowParams(QueueParams):
    data_aware: bool = Field(True, description="place steps near their input data and keep data on node NVM")


def _number(job_id: str) -> int:
    tail = job_id.split("!")[-1]
    return int(tail) if tail.lstrip("-").isdigit() else 0


def _job_ids(job: JobInfo, key: str) -> tuple[str, ...]:
    """Full ids of the jobs listed in the job's ``key`` field (same workload)."""
    workload = job.id.split("!")[0]
    value = job.extra.get(key) or ()
    return tuple(f"{workload}!{v}" for v in value)


def _io_hosts(profile: Mapping[str, Any], phase: Mapping[str, Any], hosts: tuple[int, ...]) -> tuple[int, ...]:
    """The hosts doing a phase's I/O: the first min(phase nodes, io_tasks) of the job's."""
    active = phase.get("nodes") or len(hosts)
    io_tasks = profile.get("io_tasks") or len(hosts)
    return hosts[: min(active, io_tasks, len(hosts))]


@register_policy
class WorkflowPolicy(QueuePolicy):
    name = "workflow"
    description = "workflow-aware list scheduling (dependencies, chains); data_aware places steps on their data"
    Params = WorkflowParams

    def __init__(self, params: WorkflowParams) -> None:
        super().__init__(params)
        self.data_aware = params.data_aware
        self.succeeded: set[str] = set()
        self.failed: set[str] = set()
        self.held: dict[str, JobInfo] = {}  # chained jobs not submitted yet (datasched_submit_after)
        self.item_hosts: dict[str, tuple[int, ...]] = {}  # item -> hosts whose NVM holds its stripes
        self._release_order: dict[str, tuple[float, int]] = {}

    # ---- events ---------------------------------------------------------------
    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        decisions: list[Decision] = []
        for event in events:
            if isinstance(event, JobCompleted):
                running = self.running.get(event.job_id)
                if event.state is CompletionState.COMPLETED_SUCCESSFULLY:
                    self.succeeded.add(event.job_id)
                    if running is not None:
                        self._record_writes(running)
                else:
                    self.failed.add(event.job_id)
            elif isinstance(event, JobsKilled):
                self.failed.update(event.job_ids)
        decisions.extend(super().react(now, events))
        return decisions

    def on_submitted(self, job: JobInfo, now: float) -> None:
        if _job_ids(job, "datasched_submit_after"):
            del self.waiting[job.id]  # the predecessor's script has not submitted it yet
            self.held[job.id] = job
        else:
            self._release_order[job.id] = (job.submit_time, _number(job.id))

    def _record_writes(self, finished: RunningJob) -> None:
        """Where the job's named items are now: its write phases' I/O hosts (NVM) or gone
        from node storage (central)."""
        profile = finished.job.profile
        for phase in profile.get("phases") or ():
            if phase.get("kind") != "write":
                continue
            for item in phase.get("items") or ():
                to = "central" if not self.data_aware else item.get("to", "nvm")
                if to == "nvm":
                    self.item_hosts[item["name"]] = _io_hosts(profile, phase, finished.hosts)
                else:
                    self.item_hosts.pop(item["name"], None)

    # ---- scheduling -------------------------------------------------------------
    def schedule(self, now: float) -> list[Decision]:
        decisions: list[Decision] = []
        for job_id in sorted(self.held, key=lambda j: _number(j)):
            after = _job_ids(self.held[job_id], "datasched_submit_after")
            if all(a in self.succeeded or a in self.failed for a in after):
                job = self.held.pop(job_id)
                self.waiting[job.id] = job
                self._release_order[job.id] = (now, _number(job.id))  # queued behind everything so far
        for job in self._candidates():
            deps = _job_ids(job, "dependencies") + _job_ids(job, "datasched_submit_after")
            if any(d in self.failed for d in deps):
                del self.waiting[job.id]
                decisions.append(RejectJob(job.id))
                continue
            if not all(d in self.succeeded for d in deps):
                continue
            started = self._start(job, now)
            if started is not None:
                decisions.append(started)
        return decisions

    def _candidates(self) -> list[JobInfo]:
        jobs = sorted(self.waiting.values(), key=lambda j: self._release_order.get(j.id, (j.submit_time, 0)))
        if not self.data_aware:
            return jobs
        with_data = [j for j in jobs if self._input_bytes_by_host(j)]
        return with_data + [j for j in jobs if j not in with_data]

    def _input_bytes_by_host(self, job: JobInfo) -> dict[int, float]:
        held: dict[int, float] = {}
        for phase in job.profile.get("phases") or ():
            if phase.get("kind") != "read":
                continue
            for item in phase.get("items") or ():
                hosts = self.item_hosts.get(item["name"], ())
                for h in hosts:
                    held[h] = held.get(h, 0.0) + float(item["bytes"]) / len(hosts)
        return held

    def _start(self, job: JobInfo, now: float) -> ExecuteJob | None:
        if not self.data_aware:
            decision = self.try_start(job, now)
            if decision is None or not is_phase_job(job):
                return decision
            storage = decision.storage or StorageChoice()
            return ExecuteJob(decision.job_id, decision.hosts, _with_items_to(storage, "central"))
        if job.requested_hosts > len(self.free_hosts):
            return None
        held = self._input_bytes_by_host(job)
        free = self.free_hosts.ascending()
        ranked = sorted(free, key=lambda h: (-held.get(h, 0.0), h))
        hosts = tuple(sorted(ranked[: job.requested_hosts]))
        choice = self.assign_storage(job, hosts, now)
        del self.waiting[job.id]
        self.running[job.id] = RunningJob.started(job, hosts, now)
        self.free_hosts.difference_update(hosts)
        return ExecuteJob(job.id, hosts, choice)


def _with_items_to(storage: StorageChoice, items_to: str) -> StorageChoice:
    return StorageChoice(
        devices=storage.devices, access=storage.access, allocation=storage.allocation, items_to=items_to
    )
