"""Typed events a policy receives.

Policies never see protocol dictionaries or sockets: the adapter (real engine or
Batsim) and the in-memory driver both translate what happened into these frozen
records, so a policy behaves identically whichever drives it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class JobInfo:
    """What the scheduler may know about a job at submission.

    ``walltime`` is the user's requested time (``None`` when the workload has none);
    the real runtime is deliberately absent. ``profile`` is the profile description
    when the engine forwards it, and ``extra`` holds any further fields of the
    workload's job object (e.g. data descriptors added by later issues), so
    data-aware allocators can read them without a protocol change.
    """

    id: str
    submit_time: float
    requested_hosts: int
    walltime: float | None
    profile_name: str = ""
    profile: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False, repr=False)


class CompletionState(Enum):
    """Final states as Batsim reports them in ``JOB_COMPLETED`` (``job_state``)."""

    COMPLETED_SUCCESSFULLY = "COMPLETED_SUCCESSFULLY"
    COMPLETED_FAILED = "COMPLETED_FAILED"
    COMPLETED_WALLTIME_REACHED = "COMPLETED_WALLTIME_REACHED"
    COMPLETED_KILLED = "COMPLETED_KILLED"
    UNKNOWN = "UNKNOWN"

    @classmethod
    def parse(cls, text: str) -> CompletionState:
        try:
            return cls(text)
        except ValueError:
            return cls.UNKNOWN


@dataclass(frozen=True)
class Event:
    """Base class: every event carries the simulated time it happened at."""

    time: float


@dataclass(frozen=True)
class JobSubmitted(Event):
    job: JobInfo


@dataclass(frozen=True)
class JobCompleted(Event):
    job_id: str
    state: CompletionState = CompletionState.COMPLETED_SUCCESSFULLY


@dataclass(frozen=True)
class JobsKilled(Event):
    """Acknowledges a ``KillJobs`` decision; the hosts of these jobs are free again."""

    job_ids: tuple[str, ...]


@dataclass(frozen=True)
class RequestedCall(Event):
    """The wake-up asked for with a ``CallMeLater`` decision."""


@dataclass(frozen=True)
class NoMoreSubmissions(Event):
    """The workload will submit no further static jobs."""


@dataclass(frozen=True)
class StageDone(Event):
    """A :class:`~datasched.policy.decisions.StageData` copy ended (the engine's
    ``DATASCHED_STAGE_DONE``): ``kind`` is ``stage_in``, ``stage_out`` or ``stage_move``,
    ``bytes`` what moved, ``start_time`` when the mover started."""

    stage_id: str
    item: str
    kind: str = ""
    bytes: float = 0.0
    start_time: float = 0.0

    @classmethod
    def from_json(cls, now: float, data: Mapping[str, Any]) -> StageDone:
        return cls(
            now,
            str(data["stage_id"]),
            str(data["item"]),
            str(data.get("kind", "")),
            float(data.get("bytes", 0.0)),
            float(data.get("start_time", now)),
        )


@dataclass(frozen=True)
class ItemEvicted(Event):
    """The engine evicted a named data item from node NVM to make room (datasched-sim's
    ``DATASCHED_ITEM_EVICTED``, sent only to decision processes that ask for it:
    :attr:`datasched.policy.base.Policy.wants_item_evictions`). The whole item left the
    NVMs of ``nodes`` (compute node ids) at ``time``; ``written_back`` says it was dirty and
    this eviction writes it back, ``on_central`` that a central copy remains (always, in
    this engine: a clean victim had one, a dirty one gets one). Without them a policy's book
    would keep the item on nodes that no longer hold it."""

    item: str
    nodes: tuple[int, ...] = ()
    bytes: float = 0.0
    written_back: bool = False
    on_central: bool = True

    @classmethod
    def from_json(cls, now: float, data: Mapping[str, Any]) -> ItemEvicted:
        return cls(
            float(data.get("date", now)),
            str(data["item"]),
            tuple(int(n) for n in data.get("nodes", ())),
            float(data.get("bytes", 0.0)),
            bool(data.get("written_back", False)),
            bool(data.get("on_central", True)),
        )
