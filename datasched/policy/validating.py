"""A wrapper that rejects illegal decisions before they reach an engine.

It replays the policy's view of the world independently of the policy (which job
is waiting, which hosts are busy) and raises :class:`IllegalDecision` naming the
job and the problem — a busy or unknown host, a wrong host count, a job started
twice or before its submission — instead of letting the engine fail later with a
less helpful message, or worse, run an impossible schedule.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Sequence

from datasched.policy.base import Policy
from datasched.policy.decisions import CallMeLater, Decision, ExecuteJob, KillJobs, RejectJob, StageData
from datasched.policy.events import Event, JobCompleted, JobInfo, JobsKilled, JobSubmitted
from datasched.policy.platform import PlatformView

#: Resolution of dates in Batsim 4's protocol (seconds).
PROTOCOL_TIME_RESOLUTION = 1e-6

_INT_ONLY = {int}


class IllegalDecision(RuntimeError):
    """A policy asked for something the machine cannot do."""


class ValidatingPolicy(Policy):
    """Wraps ``inner``; same interface, plus checks on every decision."""

    def __init__(self, inner: Policy) -> None:
        super().__init__(inner.params)
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.description = inner.description  # type: ignore[misc]
        self._waiting: dict[str, JobInfo] = {}
        self._running: dict[str, tuple[int, ...]] = {}
        self._finished: set[str] = set()
        self._busy: dict[int, str] = {}
        self._stage_ids: set[str] = set()

    @property
    def wants_item_evictions(self) -> bool:
        return self.inner.wants_item_evictions

    def begin(self, platform: PlatformView, now: float) -> list[Decision]:
        super().begin(platform, now)
        return self._checked(now, self.inner.begin(platform, now))

    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        for event in events:
            if isinstance(event, JobSubmitted):
                self._waiting[event.job.id] = event.job
            elif isinstance(event, JobCompleted):
                self._free(event.job_id)
            elif isinstance(event, JobsKilled):
                for job_id in event.job_ids:
                    self._free(job_id)
        return self._checked(now, self.inner.react(now, events))

    def end(self, now: float) -> None:
        self.inner.end(now)

    def _free(self, job_id: str) -> None:
        hosts = self._running.pop(job_id, ())
        if self.inner.shares_hosts:  # a shared host stays busy with the job that took it last
            for host in hosts:
                if self._busy.get(host) == job_id:
                    del self._busy[host]
        elif hosts:  # every host of a running job is in _busy (added together in _check_execute)
            deque(map(self._busy.__delitem__, hosts), maxlen=0)
        self._finished.add(job_id)

    def _checked(self, now: float, decisions: list[Decision]) -> list[Decision]:
        policy = self.inner.name
        for decision in decisions:
            if isinstance(decision, ExecuteJob):
                self._check_execute(now, decision, policy)
            elif isinstance(decision, RejectJob):
                if decision.job_id not in self._waiting:
                    raise IllegalDecision(
                        f"policy {policy!r} rejected job {decision.job_id!r}, "
                        f"which is not waiting ({self._state(decision.job_id)})"
                    )
                del self._waiting[decision.job_id]
                self._finished.add(decision.job_id)
            elif isinstance(decision, KillJobs):
                for job_id in decision.job_ids:
                    if job_id not in self._running:
                        raise IllegalDecision(
                            f"policy {policy!r} asked to kill job {job_id!r}, "
                            f"which is not running ({self._state(job_id)})"
                        )
            elif isinstance(decision, CallMeLater):
                if not decision.at >= now:
                    raise IllegalDecision(f"policy {policy!r} asked to be called at {decision.at}, before now ({now})")
            elif isinstance(decision, StageData):
                self._check_stage(decision, policy)
            else:
                raise IllegalDecision(f"policy {policy!r} returned {decision!r}, which is not a decision")
        return decisions

    def _check_execute(self, now: float, decision: ExecuteJob, policy: str) -> None:
        job_id = decision.job_id
        job = self._waiting.get(job_id)
        if job is None:
            raise IllegalDecision(
                f"policy {policy!r} started job {job_id!r}, which is not waiting ({self._state(job_id)})"
            )
        # Batsim 4 (and our engine) round protocol dates to the microsecond, so "now" at a
        # submission can be up to 0.5 us before the job's exact subtime.
        if now < job.submit_time - PROTOCOL_TIME_RESOLUTION:
            raise IllegalDecision(
                f"policy {policy!r} started job {job_id!r} at {now}, before its submission at {job.submit_time}"
            )
        hosts = decision.hosts
        if len(hosts) != job.requested_hosts:
            raise IllegalDecision(
                f"policy {policy!r} gave job {job_id!r} {len(hosts)} hosts, it requested {job.requested_hosts}"
            )
        if len(set(hosts)) != len(hosts):
            raise IllegalDecision(f"policy {policy!r} gave job {job_id!r} a host twice: {sorted(hosts)}")
        nb_hosts = self.platform.nb_hosts
        # Fast path, the same verdict in C-level calls: plain ints, in range, none busy.
        # Anything else takes the host-by-host loop, which names the first bad host.
        if not (
            hosts
            and set(map(type, hosts)) == _INT_ONLY
            and min(hosts) >= 0
            and max(hosts) < nb_hosts
            and (self.inner.shares_hosts or self._busy.keys().isdisjoint(hosts))
        ):
            self._check_hosts(hosts, job_id, policy, nb_hosts)
        if decision.storage is not None:
            self._check_storage(decision, policy)
        del self._waiting[job_id]
        self._running[job_id] = tuple(hosts)
        self._busy.update(dict.fromkeys(hosts, job_id))

    def _check_hosts(self, hosts: Sequence[int], job_id: str, policy: str, nb_hosts: int) -> None:
        for host in hosts:
            if not isinstance(host, int) or not 0 <= host < nb_hosts:
                raise IllegalDecision(
                    f"policy {policy!r} gave job {job_id!r} host {host!r}, "
                    f"which does not exist (compute hosts are 0..{nb_hosts - 1})"
                )
            if host in self._busy and not self.inner.shares_hosts:
                raise IllegalDecision(
                    f"policy {policy!r} gave job {job_id!r} host {host}, which is busy with job {self._busy[host]!r}"
                )

    def _check_storage(self, decision: ExecuteJob, policy: str) -> None:
        """Structural checks; whether each id is an NVM endpoint or an I/O server of the
        platform is the engine's to check (it knows the storage hosts)."""
        storage = decision.storage
        assert storage is not None
        devices = storage.devices
        if any(not isinstance(d, int) or d < 0 for d in devices):
            raise IllegalDecision(
                f"policy {policy!r} gave job {decision.job_id!r} storage devices {devices!r}: "
                "they must be resource ids (non-negative integers)"
            )
        if len(set(devices)) != len(devices):
            raise IllegalDecision(f"policy {policy!r} gave job {decision.job_id!r} a storage device twice: {devices!r}")
        if storage.access is not None and storage.access not in storage.ACCESS_TYPES:
            raise IllegalDecision(
                f"policy {policy!r} gave job {decision.job_id!r} access type {storage.access!r} "
                f"(expected one of {', '.join(storage.ACCESS_TYPES)})"
            )
        if storage.allocation is not None and storage.allocation not in storage.ALLOCATIONS:
            raise IllegalDecision(
                f"policy {policy!r} gave job {decision.job_id!r} storage allocation {storage.allocation!r} "
                f"(expected one of {', '.join(storage.ALLOCATIONS)})"
            )
        self._check_device_kinds(decision, policy)

    def _check_device_kinds(self, decision: ExecuteJob, policy: str) -> None:
        """When the platform view knows its storage hosts (our platforms), SAN devices
        must be I/O servers and every other kind's node NVM endpoints. The profile's
        allocation applies when the decision names none: the engine checks that case."""
        storage = decision.storage
        assert storage is not None
        view = self.platform.storage
        if storage.allocation is None or not storage.devices or not (view.io_servers or view.nvm_of_host):
            return
        allowed: Container[int]
        if storage.allocation == "san":
            allowed, kind = view.io_servers, "an I/O server"
        else:
            allowed, kind = view.host_of_nvm, "a node NVM endpoint"
        for device in storage.devices:
            if device not in allowed:
                raise IllegalDecision(
                    f"policy {policy!r} gave job {decision.job_id!r} storage device {device}, which is not "
                    f"{kind} (allocation {storage.allocation!r})"
                )

    def _check_stage(self, stage: StageData, policy: str) -> None:
        """A stage id used once, an item name, and a target that is ``"central"`` or
        distinct existing compute hosts (whether the item exists is the engine's to check)."""
        what = f"policy {policy!r} asked for data stage {stage.stage_id!r}"
        if not isinstance(stage.stage_id, str) or not stage.stage_id:
            raise IllegalDecision(f"{what}: the stage id must be a non-empty string")
        if stage.stage_id in self._stage_ids:
            raise IllegalDecision(f"{what}: that stage id was already used")
        if not isinstance(stage.item, str) or not stage.item:
            raise IllegalDecision(f"{what}: the item must be a non-empty name")
        if not stage.to_central:
            targets = stage.to
            nb_hosts = self.platform.nb_hosts
            if isinstance(targets, str) or not targets:
                raise IllegalDecision(f"{what}: target {targets!r} is neither 'central' nor a list of hosts")
            if len(set(targets)) != len(targets):
                raise IllegalDecision(f"{what}: a target host is listed twice: {sorted(targets)}")
            for host in targets:
                if not isinstance(host, int) or not 0 <= host < nb_hosts:
                    raise IllegalDecision(
                        f"{what}: target host {host!r} does not exist (compute hosts are 0..{nb_hosts - 1})"
                    )
        self._stage_ids.add(stage.stage_id)

    def _state(self, job_id: str) -> str:
        if job_id in self._running:
            return "it is running"
        if job_id in self._finished:
            return "it already finished or was rejected"
        return "it was never submitted"
