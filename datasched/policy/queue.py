"""Shared bookkeeping for queue policies (FCFS, SJF, backfilling ...).

A queue policy only has to say, in :meth:`QueuePolicy.schedule`, which waiting
jobs start now; this base keeps the waiting queue in submission order, the running
jobs and the free hosts, rejects jobs that can never fit, and asks the configured
allocator (the ``allocation`` option) for hosts.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from pydantic import Field

from datasched.policy.allocation import AllocationChoice, AllocationRequest, Allocator
from datasched.policy.base import Policy
from datasched.policy.decisions import Decision, ExecuteJob, RejectJob, StorageChoice
from datasched.policy.events import Event, JobCompleted, JobInfo, JobsKilled, JobSubmitted
from datasched.policy.hostset import HostSet
from datasched.policy.params import PolicyParams
from datasched.policy.platform import PlatformView
from datasched.policy.storage import StorageAssigner, StorageOption, StorageRequest, is_phase_job

_NO_LOAD: Mapping[int, int] = MappingProxyType({})


class QueueParams(PolicyParams):
    allocation: AllocationChoice = Field(
        default_factory=AllocationChoice,
        description='allocation policy: a name ("sequential", "random", "topology", ...) or {"name": ..., options}',
    )
    storage: StorageOption | None = Field(
        None,
        description='storage assignment for datasched_phases jobs: a name ("cache", "internal", "external", '
        '"san") or {"name": ..., options}; default: the profile\'s own descriptor',
    )


@dataclass(frozen=True)
class RunningJob:
    """``expected_end``: end by the requested walltime (infinite when the job has none);
    stored, since backfilling sorts running jobs by it at every blocked event."""

    job: JobInfo
    hosts: tuple[int, ...]
    start: float
    expected_end: float

    @classmethod
    def started(cls, job: JobInfo, hosts: tuple[int, ...], start: float) -> RunningJob:
        return cls(job, hosts, start, math.inf if job.walltime is None else start + job.walltime)


class QueuePolicy(Policy):
    Params = QueueParams

    def __init__(self, params: QueueParams) -> None:
        super().__init__(params)
        self.allocator: Allocator = params.allocation.build()
        self.storage_assigner: StorageAssigner | None = params.storage.build() if params.storage else None
        self.waiting: dict[str, JobInfo] = {}  # insertion order = submission order
        self.running: dict[str, RunningJob] = {}
        self.free_hosts: HostSet = HostSet(0)  # hostset.py: a sorted set of ints, cheap to update
        self.device_load: Counter[int] = Counter()  # storage resource id -> running jobs with data on it
        self._devices: dict[str, tuple[int, ...]] = {}  # running job -> devices its data is on
        self._host_load: Mapping[int, int] | None = _NO_LOAD  # device_load by compute host; None: stale

    def begin(self, platform: PlatformView, now: float) -> list[Decision]:
        super().begin(platform, now)
        self.free_hosts = HostSet.full(platform.nb_hosts)
        return []

    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        decisions: list[Decision] = []
        for event in events:
            if isinstance(event, JobSubmitted):
                job = event.job
                if job.requested_hosts < 1 or job.requested_hosts > self.platform.nb_hosts:
                    decisions.append(RejectJob(job.id))
                else:
                    self.waiting[job.id] = job
                    self.on_submitted(job, now)
            elif isinstance(event, JobCompleted):
                self._release(event.job_id)
            elif isinstance(event, JobsKilled):
                for job_id in event.job_ids:
                    self._release(job_id)
        decisions.extend(self.schedule(now))
        return decisions

    def _release(self, job_id: str) -> None:
        finished = self.running.pop(job_id, None)
        if finished is not None:
            self.free_hosts.update(finished.hosts)
        devices = self._devices.pop(job_id, ())
        if devices:
            self.device_load.subtract(devices)
            self.device_load += Counter()  # drops the devices no running job uses any more
            self._host_load = None

    def on_submitted(self, job: JobInfo, now: float) -> None:
        """Hook for policies that keep their own per-job state."""

    @abstractmethod
    def schedule(self, now: float) -> list[Decision]:
        """Start what should start now (using :meth:`try_start`)."""

    def allocate(self, job: JobInfo, now: float, excluded: frozenset[int] = frozenset()) -> tuple[int, ...] | None:
        if job.requested_hosts > len(self.free_hosts):
            return None
        free = self.free_hosts.ascending()
        if excluded:
            free = tuple(h for h in free if h not in excluded)
        if job.requested_hosts > len(free):
            return None
        return self.allocator.choose(
            AllocationRequest(
                job=job, free_hosts=free, platform=self.platform, now=now, storage_load=self._host_storage_load()
            )
        )

    def _host_storage_load(self) -> Mapping[int, int]:
        """Compute host -> running jobs whose data is on its NVM (for data-aware
        allocators); rebuilt only after the loads changed, not at every allocation."""
        if self._host_load is None:
            owner = self.platform.storage.host_of_nvm
            self._host_load = MappingProxyType({owner[d]: n for d, n in self.device_load.items() if d in owner})
        return self._host_load

    def assign_storage(self, job: JobInfo, hosts: tuple[int, ...], now: float) -> StorageChoice | None:
        """The storage policy's choice for a phase job (``None``: no policy, or no data)."""
        if self.storage_assigner is None or not is_phase_job(job):
            return None
        load = MappingProxyType(dict(self.device_load))
        busy = frozenset(h for running in self.running.values() for h in running.hosts)
        request = StorageRequest(
            job=job, hosts=hosts, platform=self.platform, now=now, device_load=load, busy_hosts=busy
        )
        return self.storage_assigner.assign(request)

    def try_start(self, job: JobInfo, now: float, excluded: frozenset[int] = frozenset()) -> ExecuteJob | None:
        """Allocate (never on ``excluded`` hosts) and mark ``job`` running; ``None`` if
        the allocator finds no hosts."""
        hosts = self.allocate(job, now, excluded)
        if hosts is None:
            return None
        storage = self.assign_storage(job, hosts, now)
        del self.waiting[job.id]
        self.running[job.id] = RunningJob.started(job, hosts, now)
        self.free_hosts.difference_update(hosts)
        if storage is not None and storage.devices:  # devices the engine derives are not counted
            self._devices[job.id] = storage.devices
            self.device_load.update(storage.devices)
            self._host_load = None
        return ExecuteJob(job.id, hosts, storage)
