"""Batsim 4 protocol messages in, replies out, for one policy, without pybatsim.

:class:`PybatsimAdapter` lets pybatsim parse and write the protocol; that is the
path for a decision process behind a socket, and it is what runs against real
Batsim. :class:`ProtocolSession` does the same translation itself, one message at a
time (``handle(request) -> reply``), for the in-process mode
(:mod:`datasched.policy.inprocess`), where pybatsim's per-event cost (a ``Job`` object
and several dictionaries per event, an ``ProcSet`` built host by host) would dominate.

It mirrors the adapter exactly: the same typed events per message (stamped with the
message's ``now``), one ``react`` per message that carries events, decisions stamped
``now``, rejections, kills and calls first and executions last, and the same JSON
text as pybatsim writes (``json.dumps`` with its default separators), so the engine
receives byte-identical replies (checked against a pybatsim recording by
``tests/integration/test_inprocess.py``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from datasched.errors import UserError
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
from datasched.policy.topology import distances_for

#: fields of a Batsim job object that JobInfo carries explicitly
STANDARD_JOB_FIELDS = frozenset({"id", "subtime", "walltime", "res", "profile"})

#: Batsim separates a job id's workload name from the rest with this character
WORKLOAD_SEPARATOR = "!"

_COMPLETION_STATES = {state.value: state for state in CompletionState}

_DECODER = json.JSONDecoder()


def _decode(text: str) -> Any:
    """``json.loads`` without its per-call encoding detection and whitespace regexes
    (the engine writes compact JSON); anything after the value is still an error."""
    try:
        value, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError:
        return json.loads(text)  # the same error message as json.loads
    if end != len(text) and text[end:].strip():
        return json.loads(text)
    return value


_json_string = json.encoder.encode_basestring_ascii  # what json.dumps writes a str as (ensure_ascii)


def _number(value: Any) -> str:
    """A protocol date as ``json.dumps`` writes it: ``repr`` of a finite float or an int."""
    if (type(value) is float and math.isfinite(value)) or type(value) is int:
        return repr(value)
    return json.dumps(value)


def alloc_text(hosts: Iterable[int]) -> str:
    """Batsim's interval text for a host set: ``(0, 1, 2, 5)`` -> ``"0-2 5"``
    (what ``str(ProcSet(*hosts))`` gives, without building a ProcSet host by host)."""
    ordered = hosts if isinstance(hosts, tuple) else tuple(hosts)
    if ordered:
        low, high = min(ordered), max(ordered)
        if high - low == len(ordered) - 1 and len(set(ordered)) == len(ordered):
            # distinct ints spanning exactly their count: one interval (sequential allocation)
            return str(low) if low == high else f"{low}-{high}"
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in alloc_intervals(ordered))


def alloc_intervals(hosts: Iterable[int]) -> list[tuple[int, int]]:
    """The closed intervals of a host set, ascending and non-adjacent."""
    ordered = sorted(set(hosts))
    intervals: list[tuple[int, int]] = []
    for host in ordered:
        if intervals and intervals[-1][1] == host - 1:
            intervals[-1] = (intervals[-1][0], host)
        else:
            intervals.append((host, host))
    return intervals


def job_info_from_json(job: dict[str, Any], profile: Any) -> JobInfo:
    """Typed view of a Batsim job object (walltime ``-1``/absent becomes ``None``), as
    :func:`datasched.policy.adapter.job_info_from_pybatsim` builds it."""
    walltime = job.get("walltime", -1)
    if walltime is None or float(walltime) < 0:
        walltime = None
    # (five keys with a walltime are exactly the standard ones: the others are required)
    extra = (
        {k: v for k, v in job.items() if k not in STANDARD_JOB_FIELDS} if len(job) > 5 or "walltime" not in job else {}
    )
    return JobInfo(
        str(job["id"]),
        float(job["subtime"]),
        int(job["res"]),
        None if walltime is None else float(walltime),
        str(job["profile"]),
        profile if profile is not None else {},
        extra,
    )


class ProtocolSession:
    """One simulation's conversation with the engine, for ``policy``.

    ``handle`` takes a request (bytes or text) and returns the reply as UTF-8 bytes.
    ``finished`` is true once SIMULATION_ENDS was answered. The counters match what
    ``python -m datasched.policy.serve`` prints from pybatsim's.
    """

    def __init__(self, policy: Policy, platform_xml: str | Path | None = None, set_aside_heap: bool = False) -> None:
        """``set_aside_heap``: this process runs this simulation only (``python -m
        datasched.policy.inprocess``), so its start-up heap is set aside from the garbage
        collector once the policy has begun (:mod:`datasched.policy.heap`)."""
        self.policy = policy
        self.platform_xml = platform_xml
        self.set_aside_heap = set_aside_heap
        self.running = False
        self.finished = False
        self.forward_unknown_events = False
        self.profiles: dict[str, dict[str, Any]] = {}
        self.decision_rounds = 0
        self.nb_jobs_submitted = 0
        self.nb_jobs_scheduled = 0
        self.nb_jobs_rejected = 0
        self._pending: list[Decision] = []

    def handle(self, request: bytes | str) -> bytes:
        message = _decode(request.decode() if isinstance(request, bytes) else request)
        now = message["now"]
        events: list[Event] = []
        append = events.append
        for event in message["events"]:
            kind = event["type"]
            data = event.get("data", {})
            if kind == "JOB_SUBMITTED":
                append(JobSubmitted(now, self._job_info(data)))
            elif kind == "JOB_COMPLETED":
                state = _COMPLETION_STATES.get(data["job_state"], CompletionState.UNKNOWN)
                append(JobCompleted(now, str(data["job_id"]), state))
            elif kind == "REQUESTED_CALL":
                append(RequestedCall(now))
            elif kind == "JOB_KILLED":
                # as pybatsim: an empty progress map means the jobs had completed meanwhile
                if data["job_progress"] and data["job_ids"]:
                    append(JobsKilled(now, tuple(str(j) for j in data["job_ids"])))
            elif kind == "NOTIFY":
                self._notify(now, data, append)
            elif kind == "DATASCHED_STAGE_DONE":  # datasched-sim's data movers (decisions.StageData)
                append(StageDone.from_json(now, data))
            elif kind == "DATASCHED_ITEM_EVICTED":  # only with --datasched-item-evictions
                append(ItemEvicted.from_json(now, data))
            elif kind == "SIMULATION_BEGINS":
                self._begin(now, data)
            elif kind == "SIMULATION_ENDS":
                self.running = False
                self.finished = True
                self.policy.end(now)
            elif kind in ("RESOURCE_STATE_CHANGED", "ANSWER"):
                pass  # the adapter ignores them too (no energy or power-state policy yet)
            else:
                raise UserError(f"datasched policy {self.policy.name!r}: unsupported Batsim event {kind!r}")
        decisions, self._pending = self._pending, []
        if events and self.running:
            self.decision_rounds += 1
            decisions.extend(self.policy.react(now, events))
        if not decisions:
            return b'{"now": %s, "events": []}' % _number(now).encode()
        executions = [d for d in decisions if type(d) is ExecuteJob and d.storage is None]
        if len(executions) == len(decisions):
            return self._executions_only(now, executions)
        return json.dumps({"now": now, "events": self._encode(now, decisions)}).encode()

    # -- events ------------------------------------------------------------------
    def _job_info(self, data: dict[str, Any]) -> JobInfo:
        job = data["job"]
        self.nb_jobs_submitted += 1
        job_id = data["job_id"]
        workload = job_id.split(WORKLOAD_SEPARATOR, 1)[0]
        profiles = self.profiles.get(workload)
        if profiles is None:
            profiles = self.profiles[workload] = {}
        name = job["profile"]
        profile = profiles.get(name)
        if profile is None:
            profile = profiles[name] = data.get("profile") or {}
        return job_info_from_json(job, profile)

    def _notify(self, now: float, data: dict[str, Any], append) -> None:
        kind = data["type"]
        if kind == "no_more_static_job_to_submit":
            append(NoMoreSubmissions(now))
        elif kind == "no_more_external_event_to_occur":
            pass
        else:
            raise UserError(f"datasched policy {self.policy.name!r}: unsupported Batsim notification {kind!r}")

    def _begin(self, now: float, data: dict[str, Any]) -> None:
        if self.running:
            raise UserError("SIMULATION_BEGINS received twice (is more than one simulator connected?)")
        self.running = True
        self.forward_unknown_events = bool(data.get("config", {}).get("forward-unknown-events", False))
        compute = {r["id"]: r for r in data["compute_resources"]}
        storage = {r["id"]: r for r in data["storage_resources"]}
        self.profiles = data.get("profiles", {})
        platform = PlatformView.from_batsim_resources(list(compute.values()))
        distances = distances_for(platform.hosts, self.platform_xml)
        storage_view = StorageView.from_batsim_resources(storage.values(), platform.hosts, data.get("config", {}))
        platform = PlatformView(platform.hosts, distances, storage_view, rates_for(platform.hosts, self.platform_xml))
        self._pending.extend(self.policy.begin(platform, now))
        if self.set_aside_heap:
            set_aside_startup_heap()

    # -- decisions ---------------------------------------------------------------
    def _executions_only(self, now: Any, executions: Sequence[ExecuteJob]) -> bytes:
        """The common reply (only EXECUTE_JOBs, no storage choice), written directly: the
        same bytes as ``json.dumps`` of :meth:`_encode`'s events (checked against it by
        tests/unit/policy/test_session.py), without building the dictionaries; on
        delay_50k it takes a sixth off the decision side's CPU."""
        stamp = _number(now)
        head = '{"timestamp": ' + stamp + ', "type": "EXECUTE_JOB", "data": {"job_id": '
        events = ", ".join(
            head + _json_string(e.job_id) + ', "alloc": "' + alloc_text(e.hosts) + '"}}' for e in executions
        )
        self.nb_jobs_scheduled += len(executions)
        return ('{"now": ' + stamp + ', "events": [' + events + "]}").encode()

    def _encode(self, now: float, decisions: list[Decision]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        executes: list[dict[str, Any]] = []
        for decision in decisions:
            if isinstance(decision, ExecuteJob):
                data: dict[str, Any] = {"job_id": decision.job_id, "alloc": alloc_text(decision.hosts)}
                if decision.storage is not None:
                    data["datasched_storage"] = decision.storage.to_json()
                executes.append({"timestamp": now, "type": "EXECUTE_JOB", "data": data})
            elif isinstance(decision, RejectJob):
                out.append({"timestamp": now, "type": "REJECT_JOB", "data": {"job_id": decision.job_id}})
                self.nb_jobs_rejected += 1
            elif isinstance(decision, KillJobs):
                out.append({"timestamp": now, "type": "KILL_JOB", "data": {"job_ids": list(decision.job_ids)}})
            elif isinstance(decision, CallMeLater):
                out.append({"timestamp": now, "type": "CALL_ME_LATER", "data": {"timestamp": decision.at}})
            elif isinstance(decision, StageData):
                out.append({"timestamp": now, "type": "DATASCHED_STAGE", "data": decision.to_json()})
            else:
                raise TypeError(f"unknown decision {decision!r}")
        self.nb_jobs_scheduled += len(executes)
        out.extend(executes)
        return out
