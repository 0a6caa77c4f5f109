"""The phase-profile schema shared by generated applications and workflows.

An application is a sequence of phases (compute / communicate / read / write) plus one
storage-access descriptor (seed 000, Table 1). The engine's storage model interprets
it as the profile type ``datasched_phases`` (schema in :data:`PHASE_PROFILE_SCHEMA` and
``workloads/README.md``). Engines that do not know that type (real Batsim 4) get a
Batsim-standard ``composed`` profile of ``parallel_homogeneous``/``delay`` sub-profiles
that approximates each phase; the exact phase description rides along inside the
composed profile (field ``datasched_phases_profile``, ignored by Batsim).

The approximation is honest about what it loses (see README): device time becomes a
fixed ``delay`` computed at the reference rates (no device contention), remote NVM
traffic becomes traffic among the job's own nodes, and device and network time are
sequential instead of coupled in one activity.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat

PHASE_PROFILE_TYPE = "datasched_phases"
PHASE_SCHEMA_VERSION = 1

#: Seed 000 5.1: I/O tasks read the data "and distribute it to the rest of the computing
#: tasks". ``none``: only the I/O tasks move a phase's bytes; ``per_task``: each I/O task, once
#: its own read ends, sends each other task amount / res bytes (a write gathers them first),
#: so one task's IPC overlaps another's storage traffic (engine: sim/src/execution/phase_plan.hpp).
IoDistribution = Literal["none", "per_task"]
#: Extra field of a ``composed`` fallback profile that carries the exact phase profile.
EMBEDDED_PHASES_FIELD = "datasched_phases_profile"


class PhaseKind(str, enum.Enum):
    COMPUTE = "compute"
    COMMUNICATE = "communicate"
    READ = "read"
    WRITE = "write"


class StorageAllocation(str, enum.Enum):
    """Seed 000 section 4.1 / Table 1 storage assignment."""

    INTERNAL = "internal"  # data on NVMs of a subset of the job's own nodes
    EXTERNAL = "external"  # some/all of the NVMs outside the job's partition
    CACHE = "cache"  # every task finds its data in its own node's NVM (k = tasks)
    SAN = "san"  # all I/O against central storage behind I/O servers


class AccessType(str, enum.Enum):
    """Seed 000 Table 1 'Data access type'."""

    DISPERSE = "disperse"  # every task may access any of the k devices
    AFFINITY = "affinity"  # tasks split into k groups, one device per group
    LOCAL = "local"  # all data local: no storage traffic on the network

    @classmethod
    def parse(cls, text: str) -> AccessType:
        short = {"d": cls.DISPERSE, "a": cls.AFFINITY, "l": cls.LOCAL}
        return short.get(text.lower()) or cls(text.lower())


#: Largest amount (flops, bytes, seconds) a phase profile may hold: the engine's 1e23
#: (sim/src/model/batsim_numbers.hpp). Batsim 4.2.1 aborts writing a larger number in
#: its protocol, and such an amount ends beyond 1e23 s on any resource slower than one
#: flop or byte per second; the engine refuses it when it reads the workload.
MAX_AMOUNT = 1e23


class StorageDescriptor(BaseModel):
    """How an application's I/O reaches storage (one per application)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allocation: StorageAllocation
    stg_k: int = Field(ge=1, description="NVM devices holding the data (cache: = number of tasks)")
    mem_hit_pct: float = Field(ge=0, le=100, description="% of I/O bytes served from DRAM")
    remote_pct: float = Field(ge=0, le=100, description="% of the NVM bytes that go to a non-local NVM")
    access: AccessType
    san_k: int = Field(ge=1, description="I/O servers used when allocation is san")
    stage_in_bytes: float = Field(
        0.0,
        ge=0,
        le=MAX_AMOUNT,
        description="loaded from central storage onto the devices before phase 0 (ignored under san)",
    )
    stage_out_bytes: float = Field(
        0.0, ge=0, le=MAX_AMOUNT, description="written back to central storage after the last phase (ignored under san)"
    )

    def to_json(self) -> dict[str, Any]:
        """The engine-facing descriptor; the optional staging keys only when used, so
        files written before they existed stay byte-identical."""
        return self.model_dump(
            mode="json", exclude={k for k in ("stage_in_bytes", "stage_out_bytes") if not getattr(self, k)}
        )


class ReferenceRates(BaseModel):
    """Rates used only for *nominal* (uncontended) durations: the ``delay`` parts of the
    composed fallback and the walltime estimate. Defaults follow docs/design.md (DRAM 10 GB/s,
    NVM 2 GB/s read / 1 GB/s write, 40 Gb/s SAN back-end per I/O server, 10 Gb/s
    Ethernet front-end per node); host speed and link bandwidth are our assumptions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host_speed: PositiveFloat = 1e9  # flop/s per node
    link_bandwidth: PositiveFloat = 10e9  # B/s, interconnect link
    dram_bandwidth: PositiveFloat = 10e9
    nvm_read_bandwidth: PositiveFloat = 2e9
    nvm_write_bandwidth: PositiveFloat = 1e9
    san_server_bandwidth: PositiveFloat = 5e9
    san_frontend_bandwidth: PositiveFloat = 1.25e9


@dataclass(frozen=True)
class ItemUse:
    """A named data item a read/write phase moves (engine: model/data_registry.hpp).
    ``bytes`` is over all the phase's I/O tasks (write: the item's new size; read: the
    bytes read); ``to`` (writes only) is ``"nvm"`` (the writers' own NVMs, default) or
    ``"central"`` (the I/O servers)."""

    name: str
    bytes: float
    to: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "bytes": self.bytes}
        if self.to is not None:
            out["to"] = self.to
        return out


@dataclass(frozen=True)
class Phase:
    """One phase. ``amount`` is flops per node (compute), bytes sent per node
    (communicate, spread evenly over the job's other nodes), or bytes per I/O task
    (read/write). ``data`` names workflow data products a read/write phase touches;
    ``nodes`` restricts the phase to the first n nodes of the allocation."""

    kind: PhaseKind
    amount: float
    data: tuple[str, ...] = ()
    nodes: int | None = None  # active nodes: the first n of the allocation (None: all)
    items: tuple[ItemUse, ...] = ()  # named data items (their bytes are part of the phase's)

    def to_json(self, nominal_seconds: float) -> dict[str, Any]:
        key = {"compute": "flops", "communicate": "bytes", "read": "bytes", "write": "bytes"}[self.kind.value]
        out: dict[str, Any] = {"kind": self.kind.value, key: self.amount, "nominal_seconds": nominal_seconds}
        if self.kind is PhaseKind.COMMUNICATE:
            out["pattern"] = "all_to_all"
        if self.data:
            out["data"] = list(self.data)
        if self.nodes is not None:
            out["nodes"] = self.nodes
        if self.items:
            out["items"] = [item.to_json() for item in self.items]
        return out


def io_split(nbytes: float, storage: StorageDescriptor) -> tuple[float, float, float]:
    """(DRAM bytes, NVM/SAN device bytes, of which remote bytes) for one task's I/O."""
    mem = nbytes * storage.mem_hit_pct / 100.0
    device = nbytes - mem
    local_only = storage.access is AccessType.LOCAL or storage.allocation is StorageAllocation.CACHE
    if storage.allocation is StorageAllocation.SAN:
        remote = device
    elif local_only:
        remote = 0.0
    else:
        remote = device * storage.remote_pct / 100.0
    return mem, device, remote


def nominal_device_seconds(
    kind: PhaseKind, nbytes: float, storage: StorageDescriptor, io_tasks: int, rates: ReferenceRates
) -> float:
    """Uncontended device time of one I/O phase (DRAM part + device part). The k devices
    (or san_k servers) are shared by the io_tasks tasks; no other job is considered."""
    mem, device, _remote = io_split(nbytes, storage)
    seconds = mem / rates.dram_bandwidth
    if device <= 0:
        return seconds
    if storage.allocation is StorageAllocation.SAN:
        servers = rates.san_server_bandwidth * storage.san_k
        return seconds + max(device / rates.san_frontend_bandwidth, device * io_tasks / servers)
    nvm = rates.nvm_read_bandwidth if kind is PhaseKind.READ else rates.nvm_write_bandwidth
    local_only = storage.access is AccessType.LOCAL or storage.allocation is StorageAllocation.CACHE
    sharing = 1.0 if local_only else max(1.0, io_tasks / storage.stg_k)
    return seconds + device * sharing / nvm


def nominal_network_seconds(
    kind: PhaseKind, amount: float, storage: StorageDescriptor, res: int, rates: ReferenceRates
) -> float:
    """Uncontended interconnect time of one phase at one link's bandwidth (0 for compute,
    for SAN I/O -- separate storage network -- and for purely local I/O)."""
    if kind is PhaseKind.COMMUNICATE:
        return amount / rates.link_bandwidth if res > 1 else 0.0
    if kind is PhaseKind.COMPUTE or storage.allocation is StorageAllocation.SAN:
        return 0.0
    _mem, _device, remote = io_split(amount, storage)
    return remote / rates.link_bandwidth


def distribution_bytes(kind: PhaseKind, amount: float, res: int, io_tasks: int, distribution: IoDistribution) -> float:
    """Bytes one non-I/O task receives (read) or sends (write) in an I/O phase under
    ``per_task`` distribution: amount / res from each of the io_tasks I/O tasks."""
    if distribution == "none" or kind not in (PhaseKind.READ, PhaseKind.WRITE) or io_tasks >= res:
        return 0.0
    return io_tasks * amount / res


def nominal_seconds(
    phase: Phase,
    storage: StorageDescriptor,
    res: int,
    io_tasks: int,
    rates: ReferenceRates,
    distribution: IoDistribution = "none",
) -> float:
    if phase.kind is PhaseKind.COMPUTE:
        return phase.amount / rates.host_speed
    if phase.kind is PhaseKind.COMMUNICATE:
        return nominal_network_seconds(phase.kind, phase.amount, storage, res, rates)
    exchanged = distribution_bytes(phase.kind, phase.amount, res, io_tasks, distribution)
    return (
        nominal_device_seconds(phase.kind, phase.amount, storage, io_tasks, rates)
        + nominal_network_seconds(phase.kind, phase.amount, storage, res, rates)
        + exchanged / rates.link_bandwidth
    )


def phase_profile(
    phases: list[Phase],
    storage: StorageDescriptor,
    res: int,
    io_tasks: int,
    rates: ReferenceRates,
    nominal: list[float] | None = None,
    distribution: IoDistribution = "none",
) -> dict[str, Any]:
    """The ``datasched_phases`` profile object (engine-facing schema). ``nominal`` gives
    each phase's nominal seconds when the caller knows them (workflow files state them);
    otherwise they are computed from ``rates``. ``io_distribution`` is written only when it
    is not the default, so profiles without it keep their bytes."""
    if nominal is None:
        nominal = [nominal_seconds(p, storage, res, io_tasks, rates, distribution) for p in phases]
    if len(nominal) != len(phases):
        raise ValueError("one nominal duration per phase is needed")
    profile: dict[str, Any] = {
        "type": PHASE_PROFILE_TYPE,
        "version": PHASE_SCHEMA_VERSION,
        "res": res,
        "io_tasks": io_tasks,
    }
    if distribution != "none":
        profile["io_distribution"] = distribution
    profile["storage"] = storage.to_json()
    profile["phases"] = [p.to_json(seconds) for p, seconds in zip(phases, nominal, strict=True)]
    return profile


def close_sequence(name: str, seq: list[str], profiles: dict[str, dict[str, Any]]) -> None:
    """A composed profile's ``seq`` with no step gets one ``parallel_homogeneous`` of 0 flops
    and 0 bytes (``<name>.empty``): Batsim 4.2.1 refuses an empty ``seq`` and a ``delay`` of 0,
    so this is the one instantaneous step it accepts."""
    if not seq:
        profiles[f"{name}.empty"] = {"type": "parallel_homogeneous", "cpu": 0, "com": 0}
        seq.append(f"{name}.empty")


def composed_fallback(
    name: str,
    phases: list[Phase],
    storage: StorageDescriptor,
    res: int,
    io_tasks: int,
    rates: ReferenceRates,
    distribution: IoDistribution = "none",
) -> dict[str, dict[str, Any]]:
    """Batsim-standard profiles approximating the phases: returns ``{name: composed,
    name.j.part: sub-profile...}``. Mapping per phase (n = res):

    - compute  -> ``parallel_homogeneous`` cpu = flops, com = 0 (exact);
    - communicate -> ``parallel_homogeneous`` cpu = 0, com = bytes / (n - 1) per pair
      (exact all-to-all); nothing when n = 1 (no pair exchanges anything);
    - read/write -> ``delay`` = nominal device time (:func:`nominal_device_seconds`;
      nothing when it is 0), then, when remote bytes exist and n > 1,
      ``parallel_homogeneous`` com-only with the job's remote bytes (io_tasks x remote)
      spread over the n(n-1) node pairs; under ``per_task`` distribution, another
      ``parallel_homogeneous`` com-only with the distributed bytes (io_tasks x (n - io_tasks)
      x amount / n) spread over the n(n-1) pairs (in sequence: Batsim has no causal order
      between the tasks of one profile).

    Every sub-profile is one real Batsim 4.2.1 accepts: it refuses a ``delay`` that is not
    strictly positive and a ``composed`` with an empty ``seq``, so a step that takes no
    time is left out, and a job with no step at all gets one ``parallel_homogeneous`` of
    0 flops and 0 bytes (valid there, and instantaneous).
    """
    profiles: dict[str, dict[str, Any]] = {}
    seq: list[str] = []
    for index, phase in enumerate(phases):
        stem = f"{name}.{index}"
        if phase.kind is PhaseKind.COMPUTE:
            profiles[f"{stem}.cpu"] = {"type": "parallel_homogeneous", "cpu": phase.amount, "com": 0}
            seq.append(f"{stem}.cpu")
        elif phase.kind is PhaseKind.COMMUNICATE:
            if res > 1:
                profiles[f"{stem}.com"] = {"type": "parallel_homogeneous", "cpu": 0, "com": phase.amount / (res - 1)}
                seq.append(f"{stem}.com")
        else:
            device_seconds = nominal_device_seconds(phase.kind, phase.amount, storage, io_tasks, rates)
            if device_seconds > 0:
                profiles[f"{stem}.dev"] = {"type": "delay", "delay": device_seconds}
                seq.append(f"{stem}.dev")
            _mem, _device, remote = io_split(phase.amount, storage)
            if remote > 0 and res > 1 and storage.allocation is not StorageAllocation.SAN:
                profiles[f"{stem}.net"] = {
                    "type": "parallel_homogeneous",
                    "cpu": 0,
                    "com": remote * io_tasks / (res * (res - 1)),
                }
                seq.append(f"{stem}.net")
            exchanged = distribution_bytes(phase.kind, phase.amount, res, io_tasks, distribution)
            if exchanged > 0:
                total = exchanged * (res - io_tasks)
                profiles[f"{stem}.dist"] = {"type": "parallel_homogeneous", "cpu": 0, "com": total / (res * (res - 1))}
                seq.append(f"{stem}.dist")
    close_sequence(name, seq, profiles)
    composed = {
        "type": "composed",
        "repeat": 1,
        "seq": seq,
        EMBEDDED_PHASES_FIELD: phase_profile(phases, storage, res, io_tasks, rates, distribution=distribution),
    }
    profiles[name] = composed
    return profiles


ProfileMode = Literal["composed", "phases"]


def application_profiles(
    name: str,
    phases: list[Phase],
    storage: StorageDescriptor,
    res: int,
    io_tasks: int,
    rates: ReferenceRates,
    mode: ProfileMode,
    distribution: IoDistribution = "none",
) -> dict[str, dict[str, Any]]:
    """Profiles for one application: ``mode="phases"`` gives a single ``datasched_phases``
    profile (needs our engine); ``"composed"`` the Batsim-standard fallback carrying it."""
    if mode == "phases":
        return {name: phase_profile(phases, storage, res, io_tasks, rates, distribution=distribution)}
    if mode == "composed":
        return composed_fallback(name, phases, storage, res, io_tasks, rates, distribution)
    raise ValueError(f"unknown profile mode {mode!r} (expected 'composed' or 'phases')")


_NUM = {"type": "number", "minimum": 0, "maximum": MAX_AMOUNT}
_NODES = {"type": "integer", "minimum": 1}
#: JSON Schema of the ``datasched_phases`` profile (engine contract, mirrored in README).
PHASE_PROFILE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "datasched_phases profile",
    "type": "object",
    "additionalProperties": False,
    "required": ["type", "version", "res", "io_tasks", "storage", "phases"],
    "properties": {
        "type": {"const": PHASE_PROFILE_TYPE},
        "version": {"const": PHASE_SCHEMA_VERSION},
        "res": {"type": "integer", "minimum": 1},
        "io_tasks": {"type": "integer", "minimum": 1},
        "io_distribution": {"enum": ["none", "per_task"]},
        "storage": {
            "type": "object",
            "additionalProperties": False,
            "required": ["allocation", "stg_k", "mem_hit_pct", "remote_pct", "access", "san_k"],
            "properties": {
                "allocation": {"enum": [a.value for a in StorageAllocation]},
                "stg_k": {"type": "integer", "minimum": 1},
                "mem_hit_pct": {"type": "number", "minimum": 0, "maximum": 100},
                "remote_pct": {"type": "number", "minimum": 0, "maximum": 100},
                "access": {"enum": [a.value for a in AccessType]},
                "san_k": {"type": "integer", "minimum": 1},
                "stage_in_bytes": _NUM,
                "stage_out_bytes": _NUM,
            },
        },
        "phases": {
            "type": "array",
            "items": {
                "oneOf": [
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["kind", "flops", "nominal_seconds"],
                        "properties": {
                            "kind": {"const": "compute"},
                            "flops": _NUM,
                            "nominal_seconds": _NUM,
                            "nodes": _NODES,
                        },
                    },
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["kind", "bytes", "pattern", "nominal_seconds"],
                        "properties": {
                            "kind": {"const": "communicate"},
                            "bytes": _NUM,
                            "pattern": {"const": "all_to_all"},
                            "nominal_seconds": _NUM,
                            "nodes": _NODES,
                        },
                    },
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["kind", "bytes", "nominal_seconds"],
                        "properties": {
                            "kind": {"enum": ["read", "write"]},
                            "bytes": _NUM,
                            "nominal_seconds": _NUM,
                            "data": {"type": "array", "items": {"type": "string"}},
                            "nodes": _NODES,
                            "items": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "additionalProperties": False,
                                    "required": ["name", "bytes"],
                                    "properties": {
                                        "name": {"type": "string", "minLength": 1, "pattern": "^[^,\"\\n\\r]+$"},
                                        "bytes": _NUM,
                                        "to": {"enum": ["nvm", "central"]},
                                    },
                                },
                            },
                        },
                    },
                ]
            },
        },
    },
}


def validate_phase_profile(profile: dict[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` if ``profile`` breaks the schema."""
    import jsonschema

    jsonschema.validate(profile, PHASE_PROFILE_SCHEMA)
