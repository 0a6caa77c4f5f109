"""Adapter from pybatsim's ``BatsimScheduler`` callbacks to typed events and back.

pybatsim (3.2.1) owns the protocol: it binds the ZeroMQ REP socket, parses Batsim 4
messages, and calls ``onJobSubmission``, ``onJobCompletion`` ... once per event,
between ``onBeforeEvents`` and ``onNoMoreEvents``. This adapter collects those
callbacks into the events of one instant, calls ``policy.react`` once, and turns
the decisions into pybatsim calls (``execute_jobs``, ``reject_jobs_by_id``,
``kill_jobs``, ``wake_me_up_at``). The same policy object therefore runs against
our engine and against real Batsim without knowing which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from batsim.batsim import BatsimScheduler
from procset import ProcSet

from datasched.policy.base import Policy
from datasched.policy.decisions import CallMeLater, Decision, ExecuteJob, KillJobs, RejectJob, StageData
from datasched.policy.events import (
    CompletionState,
    Event,
    ItemEvicted,
    JobCompleted,
    JobInfo,
    JobsKilled,
    JobSubmitted,
    NoMoreSubmissions,
    RequestedCall,
    StageDone,
)
from datasched.policy.heap import set_aside_startup_heap
from datasched.policy.platform import PlatformView, StorageView
from datasched.policy.rates import rates_for
from datasched.policy.session import alloc_intervals
from datasched.policy.topology import distances_for

#: fields of a Batsim job object that JobInfo carries explicitly
_STANDARD_JOB_FIELDS = {"id", "subtime", "walltime", "res", "profile"}


def job_info_from_pybatsim(job: Any) -> JobInfo:
    """Typed view of a pybatsim ``Job`` (walltime ``-1``/absent becomes ``None``)."""
    walltime = job.requested_time
    if walltime is None or float(walltime) < 0:
        walltime = None
    raw = job.json_dict or {}
    return JobInfo(
        id=str(job.id),
        submit_time=float(job.submit_time),
        requested_hosts=int(job.requested_resources),
        walltime=None if walltime is None else float(walltime),
        profile_name=str(job.profile),
        profile=dict(job.profile_dict or {}),
        extra={k: v for k, v in raw.items() if k not in _STANDARD_JOB_FIELDS},
    )


class PybatsimAdapter(BatsimScheduler):
    """A pybatsim scheduler that delegates every decision to a :class:`Policy`."""

    def __init__(self, policy: Policy, platform_xml: str | Path | None = None, set_aside_heap: bool = False) -> None:
        """``set_aside_heap``: this process runs one simulation only (``serve``), so its
        start-up heap is set aside from the garbage collector once the policy has begun
        (:mod:`datasched.policy.heap`)."""
        super().__init__({})
        self.policy = policy
        self.platform_xml = platform_xml
        self.set_aside_heap = set_aside_heap
        self._events: list[Event] = []
        self._pending: list[Decision] = []
        self._jobs: dict[str, Any] = {}
        self._stage_done: list[Event] = []  # datasched extension events of the message being read
        self.decision_rounds = 0

    # -- simulation life cycle -------------------------------------------------
    def onSimulationBegins(self) -> None:
        resources = list(self.bs.compute_resources.values())
        platform = PlatformView.from_batsim_resources(resources)
        distances = distances_for(platform.hosts, self.platform_xml)
        config = getattr(self.bs, "batconf", None) or {}
        storage = StorageView.from_batsim_resources(self.bs.storage_resources.values(), platform.hosts, config)
        platform = PlatformView(platform.hosts, distances, storage, rates_for(platform.hosts, self.platform_xml))
        self._intercept_stage_done()
        self._pending.extend(self.policy.begin(platform, self.bs.time()))
        if self.set_aside_heap:
            set_aside_startup_heap()

    def _intercept_stage_done(self) -> None:
        """pybatsim 3.2.1 raises on an event type it does not know, and datasched-sim's
        DATASCHED_STAGE_DONE (the answer to a StageData decision) and DATASCHED_ITEM_EVICTED
        (asked for with --datasched-item-evictions) are such: take those events out of each
        message before pybatsim parses it, and hand them to the policy with the message's
        other events (an engine that never sends them is unaffected)."""
        network = self.bs.network
        receive = network.recv
        parsers = {"DATASCHED_STAGE_DONE": StageDone.from_json, "DATASCHED_ITEM_EVICTED": ItemEvicted.from_json}

        def recv(*args: Any, **kwargs: Any) -> Any:
            message = receive(*args, **kwargs)
            if isinstance(message, dict) and any(e.get("type") in parsers for e in message["events"]):
                now = message["now"]
                kept = []
                for event in message["events"]:
                    parse = parsers.get(event.get("type"))
                    if parse is not None:
                        self._stage_done.append(parse(now, event.get("data", {})))
                    else:
                        kept.append(event)
                message["events"] = kept
            return message

        network.recv = recv

    def onSimulationEnds(self) -> None:
        self.policy.end(self.bs.time())

    def onDeadlock(self) -> None:
        raise TimeoutError(
            f"datasched policy {self.policy.name!r}: no message from the simulator within "
            f"{self.bs.network.timeout} ms (is it alive? raise --timeout for slow simulations)"
        )

    # -- events ------------------------------------------------------------------
    def onBeforeEvents(self) -> None:
        self._events, self._stage_done = self._stage_done, []

    def onJobSubmission(self, job: Any) -> None:
        self._jobs[str(job.id)] = job
        self._events.append(JobSubmitted(self.bs.time(), job_info_from_pybatsim(job)))

    def onJobCompletion(self, job: Any) -> None:
        state = getattr(job.job_state, "name", str(job.job_state))
        self._events.append(JobCompleted(self.bs.time(), str(job.id), CompletionState.parse(state)))

    def onJobsKilled(self, jobs: list[Any]) -> None:
        self._events.append(JobsKilled(self.bs.time(), tuple(str(j.id) for j in jobs)))

    def onRequestedCall(self) -> None:
        self._events.append(RequestedCall(self.bs.time()))

    def onNoMoreJobsInWorkloads(self) -> None:
        self._events.append(NoMoreSubmissions(self.bs.time()))

    def onNoMoreExternalEvents(self) -> None:
        pass

    def onMachinePStateChanged(self, nodeid: Any, pstate: Any) -> None:
        pass

    def onReportEnergyConsumed(self, consumed_energy: Any) -> None:
        pass

    def onNoMoreEvents(self) -> None:
        decisions, self._pending = self._pending, []
        if self._events and self.bs.running_simulation:
            self.decision_rounds += 1
            decisions.extend(self.policy.react(self.bs.time(), self._events))
        self._events = []
        self._send(decisions)

    # -- decisions ---------------------------------------------------------------
    def _send(self, decisions: list[Decision]) -> None:
        to_execute = []
        storage: dict[str, dict[str, object]] = {}
        for decision in decisions:
            if isinstance(decision, ExecuteJob):
                job = self._jobs[decision.job_id]
                # from intervals: ProcSet(*hosts) merges host by host (quadratic; it was
                # most of this process's time on a 50,000-job trace)
                job.allocation = ProcSet(*alloc_intervals(decision.hosts))
                to_execute.append(job)
                if decision.storage is not None:
                    storage[str(job.id)] = decision.storage.to_json()
            elif isinstance(decision, RejectJob):
                self.bs.reject_jobs_by_id([decision.job_id])
            elif isinstance(decision, KillJobs):
                self.bs.kill_jobs([self._jobs[j] for j in decision.job_ids])
            elif isinstance(decision, CallMeLater):
                self.bs.wake_me_up_at(decision.at)
            elif isinstance(decision, StageData):  # datasched extension: pybatsim has no call for it
                self.bs._events_to_send.append(
                    {"timestamp": self.bs.time(), "type": "DATASCHED_STAGE", "data": decision.to_json()}
                )
            else:
                raise TypeError(f"unknown decision {decision!r}")
        if to_execute:
            self.bs.execute_jobs(to_execute)
            if storage:
                self._add_storage_fields(storage)

    def _add_storage_fields(self, storage: dict[str, dict[str, object]]) -> None:
        """pybatsim 3.2.1 has no way to add an extension field to EXECUTE_JOB: amend the
        events it has just queued (tested by tests/unit/policy/test_storage_choice.py)."""
        for event in self.bs._events_to_send:
            if event.get("type") == "EXECUTE_JOB" and event["data"]["job_id"] in storage:
                event["data"]["datasched_storage"] = storage[event["data"]["job_id"]]
