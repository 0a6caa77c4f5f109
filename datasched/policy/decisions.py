"""Typed decisions a policy returns.

The adapter turns them into Batsim protocol events; the in-memory driver applies
them directly. The validating wrapper checks them before either sees them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """Base class of everything a policy may ask for."""


@dataclass(frozen=True)
class StorageChoice:
    """Where a ``datasched_phases`` job's data lives: an ``allocation`` overriding the
    profile's (``"cache"``, ``"internal"``, ``"external"`` or ``"san"``), its storage
    ``devices`` (resource ids of node NVM endpoints, or of I/O servers for SAN; empty:
    let the engine derive them) and an ``access`` type overriding the profile's
    (``"disperse"``, ``"affinity"`` or ``"local"``). ``items_to`` (``"nvm"`` or
    ``"central"``) sends every named data item the job writes there, overriding the
    profile (workloads/README.md, *Named data items*). Sent as EXECUTE_JOB's
    ``datasched_storage`` extension field, which real Batsim ignores."""

    devices: tuple[int, ...] = ()
    access: str | None = None
    allocation: str | None = None
    items_to: str | None = None

    ACCESS_TYPES = ("disperse", "affinity", "local")
    ALLOCATIONS = ("cache", "internal", "external", "san")

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.allocation is not None:
            out["allocation"] = self.allocation
        if self.devices:
            out["devices"] = list(self.devices)
        if self.access is not None:
            out["access"] = self.access
        if self.items_to is not None:
            out["items_to"] = self.items_to
        return out


@dataclass(frozen=True)
class ExecuteJob(Decision):
    """Start ``job_id`` now on compute hosts ``hosts`` (Batsim resource ids), with its
    data on ``storage`` (phase jobs only; ``None``: the engine's default devices)."""

    job_id: str
    hosts: tuple[int, ...]
    storage: StorageChoice | None = None


@dataclass(frozen=True)
class RejectJob(Decision):
    job_id: str


@dataclass(frozen=True)
class KillJobs(Decision):
    job_ids: tuple[str, ...]


@dataclass(frozen=True)
class CallMeLater(Decision):
    """Ask to be woken up (a ``RequestedCall`` event) at simulated time ``at``."""

    at: float


#: ``StageData.to`` for a stage-out (node NVM -> central storage)
CENTRAL = "central"


@dataclass(frozen=True)
class StageData(Decision):
    """Ask the engine's data mover to copy named data item ``item`` (seed 001 section 3.3)
    onto the NVM of compute hosts ``to`` (a stage-in from central storage, or a move
    between nodes), or to central storage (``to == "central"``: a stage-out). The copy
    runs while jobs run; the engine answers with a :class:`~datasched.policy.events.StageDone`
    carrying ``stage_id``. Sent as the datasched extension event ``DATASCHED_STAGE``
    (workloads/README.md, *Data movers*): datasched-sim only — real Batsim refuses unknown
    event types, so policies must not send it there."""

    stage_id: str
    item: str
    to: tuple[int, ...] | str = CENTRAL

    @property
    def to_central(self) -> bool:
        return self.to == CENTRAL

    @property
    def hosts(self) -> tuple[int, ...]:
        """The target hosts (empty for a stage-out)."""
        return () if isinstance(self.to, str) else tuple(self.to)

    def to_json(self) -> dict[str, object]:
        target: object = CENTRAL if self.to_central else list(self.to)
        return {"stage_id": self.stage_id, "item": self.item, "to": target}
