"""What a policy knows about the machine: compute hosts and, if any, their topology."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from procset import ProcSet

from datasched.policy.rates import DataRates
from datasched.policy.topology import HostDistances


@dataclass(frozen=True)
class HostInfo:
    """One compute host as Batsim numbers it (``id`` in ``0..n-1``)."""

    id: int
    name: str
    properties: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)


@dataclass(frozen=True)
class StorageDaemons:
    """The storage daemons on the compute nodes (datasched-sim's ``--storage-daemons``, sent in
    ``SIMULATION_BEGINS``' config as ``datasched-storage-daemons``): every node with an NVM
    serves its NVM's traffic and spends, per flow of ``b`` bytes,
    ``ceil(b / request_size) * flops_per_request + b * flops_per_byte`` flops of its CPU, which
    the job placed on that node shares (sim/src/services/README.md), and, with an idle load,
    ``idle_flops_per_second`` of it all the time (steadily, or in bursts every ``idle_period``
    seconds when that is above 0). A placement policy that knows this can keep a job's data off
    the nodes that compute for others."""

    request_size: int
    flops_per_request: float
    flops_per_byte: float
    idle_flops_per_second: float = 0.0
    idle_period: float = 0.0  # 0: a steady load

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> StorageDaemons | None:
        """The daemons the engine announced, or None (no key: NVM traffic costs no CPU)."""
        described = config.get("datasched-storage-daemons")
        if described is None:
            return None
        return cls(
            int(described["request_size"]),
            float(described["flops_per_request"]),
            float(described["flops_per_byte"]),
            float(described.get("idle_flops_per_second", 0.0)),  # engines before stage 17 send no idle load
            float(described.get("idle_period", 0.0)),  # nor, before stage 21, a period (their loads are steady)
        )

    def flow_flops(self, nbytes: float) -> float:
        """Flops one flow of ``nbytes`` costs its daemon (the engine's formula)."""
        return math.ceil(nbytes / self.request_size) * self.flops_per_request + nbytes * self.flops_per_byte


@dataclass(frozen=True)
class StagingServer:
    """One staging server: its resource id and name, and the compute hosts whose SAN writes it
    absorbs (a job's writes leave from its first ``io_tasks`` hosts, the lowest ids of its
    allocation)."""

    id: int
    name: str
    nodes: tuple[int, ...]


@dataclass(frozen=True)
class StagingServers:
    """The staging servers in front of central storage (datasched-sim's ``--staging-layer``,
    sent in ``SIMULATION_BEGINS``' config as ``datasched-staging-servers``): each absorbs the
    SAN writes of a fixed group of compute hosts in its memory and SSD and drains them to the
    I/O servers when idle (sim/src/services/staging_layer.hpp). A policy that knows the groups
    can spread jobs' writes over the servers."""

    servers: tuple[StagingServer, ...]
    block_size: float
    buffer_bytes: float

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> StagingServers | None:
        """The servers the engine announced, or None (no key: SAN writes go straight to the I/O servers)."""
        described = config.get("datasched-staging-servers")
        if described is None:
            return None
        servers = tuple(
            StagingServer(int(s["id"]), str(s["name"]), tuple(ProcSet.from_str(str(s["nodes"]))))
            for s in described["servers"]
        )
        return cls(servers, float(described["block_size"]), float(described["buffer_bytes"]))

    @cached_property
    def server_of_host(self) -> Mapping[int, int]:
        """Compute host id -> the index in ``servers`` of the server its writes go to."""
        return MappingProxyType({host: index for index, server in enumerate(self.servers) for host in server.nodes})


@dataclass(frozen=True)
class StorageView:
    """Where data can live: each compute host's NVM endpoint and the central I/O servers.

    Built from Batsim's ``storage_resources`` (our platforms give each node ``X`` an
    ``X-nvm`` host with properties ``datasched_role=nvm`` and ``node=X``, and central
    storage servers ``datasched_role=io_server``; see platforms/README.md). Empty on a
    platform without them: storage-assignment policies then have nothing to choose.
    """

    nvm_of_host: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # compute id -> NVM id
    io_servers: tuple[int, ...] = ()  # resource ids, ascending
    daemons: StorageDaemons | None = None  # each NVM's node serves it at a CPU cost (None: no cost)
    staging: StagingServers | None = None  # staging servers absorbing SAN writes (None: none)

    @cached_property
    def host_of_nvm(self) -> Mapping[int, int]:
        """NVM resource id -> the compute host it belongs to (built once)."""
        return MappingProxyType({nvm: host for host, nvm in self.nvm_of_host.items()})

    @classmethod
    def from_batsim_resources(
        cls,
        storage_resources: Iterable[Mapping[str, Any]],
        hosts: Sequence[HostInfo],
        config: Mapping[str, Any] | None = None,
    ) -> StorageView:
        """Reads roles and owners from the resources' properties; an NVM whose ``node``
        is not a compute host is ignored (it cannot hold a job's data). The services the
        engine announced in ``SIMULATION_BEGINS``' ``config`` (node daemons, staging servers)
        come with them."""
        id_of_name = {h.name: h.id for h in hosts}
        nvm_of_host: dict[int, int] = {}
        servers = []
        for resource in storage_resources:
            props = resource.get("properties") or {}
            role = props.get("datasched_role")
            if role == "io_server":
                servers.append(int(resource["id"]))
            elif role == "nvm" and props.get("node") in id_of_name:
                nvm_of_host[id_of_name[props["node"]]] = int(resource["id"])
        config = config or {}
        return cls(
            MappingProxyType(dict(sorted(nvm_of_host.items()))),
            tuple(sorted(servers)),
            StorageDaemons.from_config(config),
            StagingServers.from_config(config),
        )


@dataclass(frozen=True)
class PlatformView:
    """Compute hosts by id plus optional host distances, storage endpoints and the data
    rates of the platform (``rates``: node NVM, interconnect and central-storage paths).

    ``distances`` is ``None`` when the platform carries no topology information; a
    topology-aware allocator then degrades to sequential allocation.
    """

    hosts: tuple[HostInfo, ...]
    distances: HostDistances | None = None
    storage: StorageView = field(default_factory=StorageView)
    rates: DataRates = field(default_factory=DataRates)

    def __post_init__(self) -> None:
        for index, host in enumerate(self.hosts):
            if host.id != index:
                raise ValueError(
                    f"compute host ids must be 0..n-1 in order; host {host.name!r} has id {host.id} at position {index}"
                )

    @property
    def nb_hosts(self) -> int:
        return len(self.hosts)

    @classmethod
    def uniform(
        cls, nb_hosts: int, distances: HostDistances | None = None, storage: StorageView | None = None
    ) -> PlatformView:
        """``nb_hosts`` anonymous hosts named ``host0``.. (tests and offline tools)."""
        return cls(tuple(HostInfo(i, f"host{i}") for i in range(nb_hosts)), distances, storage or StorageView())

    @classmethod
    def from_batsim_resources(
        cls, resources: Iterable[Mapping[str, Any]], distances: HostDistances | None = None
    ) -> PlatformView:
        """Build from the ``compute_resources`` list of Batsim's ``SIMULATION_BEGINS``."""
        ordered = sorted(resources, key=lambda r: int(r["id"]))
        hosts = tuple(
            HostInfo(
                int(r["id"]),
                str(r.get("name", f"host{r['id']}")),
                MappingProxyType({str(k): str(v) for k, v in (r.get("properties") or {}).items()}),
            )
            for r in ordered
        )
        return cls(hosts, distances)
