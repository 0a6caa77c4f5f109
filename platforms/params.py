"""Typed, validated parameters of every platform the generator can build.

All quantities are SI numbers in base units so nothing is ambiguous: bandwidths in
bytes per second, latencies in seconds, sizes in bytes, speeds in flop/s. Defaults are
the seeds' values; where a seed does not state a value, the default is an assumption
and its ``Field`` description says so (the README lists them all).

Every model forbids unknown keys (``extra="forbid"``), so a typo such as
``nvm_raed_bw`` is an error naming the key instead of a silently ignored option.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from datasched.seeds import SEED_MAX

GBIT = 1e9 / 8  # bytes per second in one Gbit/s
GB = 1e9


def _not_subnormal(value: float) -> float:
    """SimGrid's parser rejects values like 5e-324 ('value out of range')."""
    if 0 < value < 1e-15:
        raise ValueError("must be 0 or at least 1e-15 s")
    return value


Bandwidth = Annotated[float, Field(ge=1, le=1e15, allow_inf_nan=False)]
Latency = Annotated[float, Field(ge=0, le=1e3, allow_inf_nan=False), AfterValidator(_not_subnormal)]
Size = Annotated[float, Field(ge=1, le=1e21, allow_inf_nan=False)]
Speed = Annotated[float, Field(ge=1, le=1e18, allow_inf_nan=False)]


#: Largest topology the generator builds, in compute nodes: ten times the largest machine in
#: the seeds' range of interest and far beyond what SimGrid loads from one XML file. It also
#: keeps a node count such as a fat tree's k**levels from being computed for absurd levels
#: (k = 5, levels = 10**12 never finished).
MAX_TOPOLOGY_NODES = 10**7


def _check_node_count(nodes: int, what: str) -> None:
    if nodes > MAX_TOPOLOGY_NODES:
        raise ValueError(f"{what} gives {nodes:,} nodes, more than the {MAX_TOPOLOGY_NODES:,} the generator builds")


class Strict(BaseModel):
    """Base: unknown keys are errors, models are immutable (hashable parameters)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- topologies


class TorusParams(Strict):
    """A k-ary n-cube with wrap-around links; SimGrid ``TORUS`` cluster (DOR routing)."""

    kind: Literal["torus"] = "torus"
    dims: tuple[Annotated[int, Field(ge=2)], ...] = Field(
        (4, 4, 4),
        min_length=1,
        description="nodes per dimension, each >= 2 (SimGrid builds a self-link for a ring of 1)",
    )

    @property
    def node_count(self) -> int:
        return math.prod(self.dims)

    @model_validator(mode="after")
    def _bounded(self) -> TorusParams:
        _check_node_count(self.node_count, f"dims {'x'.join(map(str, self.dims))}")
        return self


class FatTreeParams(Strict):
    """A k-ary n-tree ("k:n fat-tree" in seed 000): k**n nodes, n switch levels."""

    kind: Literal["fat_tree"] = "fat_tree"
    k: int = Field(4, ge=2, description="down ports (and up ports) per switch")
    levels: int = Field(3, ge=1, description="switch levels n")

    @property
    def node_count(self) -> int:
        return self.k**self.levels

    @model_validator(mode="after")
    def _bounded(self) -> FatTreeParams:
        # in logarithms first: k**levels itself can be too large to compute
        if self.levels * math.log(self.k) > math.log(MAX_TOPOLOGY_NODES) + 1:
            raise ValueError(
                f"k**levels = {self.k}**{self.levels} nodes is more than the {MAX_TOPOLOGY_NODES:,} "
                "the generator builds"
            )
        _check_node_count(self.node_count, f"k**levels = {self.k}**{self.levels}")
        return self


class DragonflyParams(Strict):
    """A canonical (p, a, h) dragonfly: p nodes per router, a routers per group (all-to-all),
    h global links per router and, unless given, the maximum g = a*h + 1 groups, so every
    pair of groups shares exactly one global link."""

    kind: Literal["dragonfly"] = "dragonfly"
    p: int = Field(2, ge=1, description="nodes per router")
    a: int = Field(4, ge=1, description="routers per group")
    h: int = Field(2, ge=1, description="global links per router")
    groups: int | None = Field(None, ge=2, description="number of groups (default a*h+1)")
    routing: Literal["minimal", "valiant"] = Field(
        "minimal",
        description="minimal, or Valiant (seed 000's choice): via a seeded intermediate group per "
        "(source router, destination router) pair (platforms/dragonfly.py)",
    )
    routing_seed: int = Field(1, ge=0, le=SEED_MAX, description="seed of the Valiant intermediate groups")

    @model_validator(mode="after")
    def _groups_fit(self) -> DragonflyParams:
        if self.groups is not None and self.groups > self.a * self.h + 1:
            raise ValueError(
                f"groups={self.groups} exceeds a*h+1={self.a * self.h + 1}: each group has only "
                "a*h global ports, one per other group"
            )
        if self.routing == "valiant" and self.group_count < 3:
            raise ValueError(
                f"routing=valiant needs at least 3 groups (an intermediate group besides source and "
                f"destination), got {self.group_count}"
            )
        _check_node_count(self.node_count, f"p*a*groups = {self.p}*{self.a}*{self.group_count}")
        return self

    @property
    def group_count(self) -> int:
        return self.groups if self.groups is not None else self.a * self.h + 1

    @property
    def node_count(self) -> int:
        return self.p * self.a * self.group_count


Topology = Annotated[TorusParams | FatTreeParams | DragonflyParams, Field(discriminator="kind")]


# --------------------------------------------------------------------------- building blocks


class InterconnectParams(Strict):
    """The application interconnect (IN). Seed 000 does not state link speed or latency:
    the defaults (10 Gbit/s per direction, 1 us per hop) are assumptions."""

    topology: Topology = Field(default_factory=TorusParams)
    link_bw: Bandwidth = Field(10 * GBIT, description="per link and direction, B/s (assumption)")
    link_lat: Latency = Field(1e-6, description="per link, s (assumption)")
    loopback_bw: Bandwidth = Field(10 * GB, description="intra-node transfers, B/s (= DRAM)")


class NodeParams(Strict):
    """A compute node: CPU, DRAM and (unified mode) node-local NVM. Seed 000: DRAM 10 GB/s,
    NVM 2 GB/s read / 1 GB/s write. Capacities and CPU speed are not in the seed (assumptions)."""

    speed: Speed = Field(1e10, description="flop/s per core (assumption)")
    cores: int = Field(1, ge=1)
    dram_bw: Bandwidth = Field(10 * GB, description="B/s, shared by reads and writes")
    dram_size: Size = Field(64 * GB, description="bytes (assumption)")
    nvm_read_bw: Bandwidth = Field(2 * GB, description="B/s")
    nvm_write_bw: Bandwidth = Field(1 * GB, description="B/s")
    nvm_capacity: Size = Field(1000 * GB, description="bytes (assumption)")
    page_cache_capacity: Size | None = Field(
        None, description="node page cache in front of item I/O, bytes (None: no cache; docs/storage.md)"
    )
    page_cache_dirty_ratio: float = Field(
        0.2, ge=0, le=1, allow_inf_nan=False, description="fraction of the page cache that may be dirty (Linux: 0.2)"
    )


class StorageNetworkParams(Strict):
    """Central storage (seed 000): k I/O servers behind a 10 Gbit Ethernet front-end switch
    that every compute node reaches through its own 10 Gbit NIC, plus a 40 Gbit back-end
    network between servers for replication. Server disk figures are assumptions."""

    io_servers: int = Field(4, description="k, 1..128 (SAN-k of seed 000 Table 1)")
    node_nic_bw: Bandwidth = Field(10 * GBIT, description="compute node NIC, per direction, B/s")
    server_frontend_bw: Bandwidth = Field(10 * GBIT, description="server front-end NIC, per direction, B/s")
    frontend_lat: Latency = Field(10e-6, description="per Ethernet hop, s (assumption)")
    backend_bw: Bandwidth = Field(40 * GBIT, description="server back-end NIC, per direction, B/s")
    backend_lat: Latency = Field(10e-6, description="per back-end hop, s (assumption)")
    server_disk_read_bw: Bandwidth = Field(1 * GB, description="B/s (assumption)")
    server_disk_write_bw: Bandwidth = Field(1 * GB, description="B/s (assumption)")
    server_disk_capacity: Size = Field(100e12, description="bytes (assumption)")
    server_speed: Speed = Field(1e10, description="flop/s (assumption)")
    staging_servers: int = Field(
        0,
        description="staging servers beside the I/O servers, 0..128 (engine --staging-layer; seed 003's model)",
    )
    staging_ssd_read_bw: Bandwidth = Field(1.4 * GB, description="staging SSD, B/s (seed 003 set-up's assumption)")
    staging_ssd_write_bw: Bandwidth = Field(1.0 * GB, description="staging SSD, B/s (seed 003 set-up's assumption)")
    staging_ssd_capacity: Size = Field(300 * GB, description="staging SSD, bytes (seed 003 set-up's)")

    @model_validator(mode="after")
    def _server_count(self) -> StorageNetworkParams:
        if not 1 <= self.io_servers <= 128:
            raise ValueError(f"io_servers must be in 1..128 (k I/O servers), got {self.io_servers}")
        if not 0 <= self.staging_servers <= 128:
            raise ValueError(f"staging_servers must be in 0..128, got {self.staging_servers}")
        return self


class SystemParams(Strict):
    """A seed-000 machine: interconnect + nodes + central storage, in one of two modes.

    ``unified``: nodes have NVM; storage traffic between nodes shares the interconnect;
    central storage is reached over the Ethernet storage network (stage-in/out).
    ``san``: no node NVM; all I/O goes to the k I/O servers over the Ethernet storage
    network; the interconnect carries IPC only."""

    kind: Literal["system"] = "system"
    name: str = Field("system", pattern=r"^[A-Za-z0-9_.-]+$")
    storage_mode: Literal["unified", "san"] = "unified"
    interconnect: InterconnectParams = Field(default_factory=InterconnectParams)
    node: NodeParams = Field(default_factory=NodeParams)
    storage: StorageNetworkParams = Field(default_factory=StorageNetworkParams)
    node_count: int | None = Field(
        None, description="optional check: the topology must produce exactly this many nodes"
    )

    @model_validator(mode="after")
    def _node_count_matches(self) -> SystemParams:
        produced = self.interconnect.topology.node_count
        if self.node_count is not None and self.node_count != produced:
            raise ValueError(
                f"node_count={self.node_count} but the {self.interconnect.topology.kind} topology "
                f"produces {produced} nodes"
            )
        return self


class OnDemandParams(Strict):
    """Seed 004 set-up: compute nodes with a node-local SSD (on-demand file systems such as
    BeeOND run their services on them) and external parallel file system servers (Lustre),
    all on one EDR InfiniBand-like switch. Defaults follow the paper's machine where it says
    (dual-socket ThunderX2: 2 x 28 cores; 100 Gb/s EDR; one SATA SSD per node); the rest are
    assumptions."""

    kind: Literal["ondemand"] = "ondemand"
    name: str = Field("ondemand", pattern=r"^[A-Za-z0-9_.-]+$")
    nodes: int = Field(288, ge=1, description="the paper's 288-node system")
    pfs_servers: int = Field(8, ge=0, description="external file system servers (assumption)")
    link_bw: Bandwidth = Field(100 * GBIT, description="EDR 4x, per direction, B/s")
    link_lat: Latency = Field(1e-6, description="per hop, s (assumption)")
    speed: Speed = Field(2.0e9 * 8, description="flop/s per core: 2.0 GHz x 8 DP flop/cycle (assumption)")
    cores: int = Field(56, ge=1, description="2 x 28-core ThunderX2")
    dram_size: Size = Field(128 * GB)
    ssd_read_bw: Bandwidth = Field(550e6, description="SATA SSD, B/s (assumption)")
    ssd_write_bw: Bandwidth = Field(500e6, description="SATA SSD, B/s (assumption)")
    ssd_capacity: Size = Field(894 * GB, description="the paper's XFS partition")
    pfs_disk_read_bw: Bandwidth = Field(5 * GB, description="per PFS server, B/s (assumption)")
    pfs_disk_write_bw: Bandwidth = Field(5 * GB, description="per PFS server, B/s (assumption)")
    pfs_disk_capacity: Size = Field(100e12)


class ForwardingParams(Strict):
    """Seed 002 (TWINS) set-up: clients -> I/O forwarding nodes -> data servers on one
    10 Gbit Ethernet switch; data servers have HDDs (bandwidth not stated: assumption)."""

    kind: Literal["forwarding"] = "forwarding"
    name: str = Field("forwarding", pattern=r"^[A-Za-z0-9_.-]+$")
    clients: int = Field(32, ge=1)
    forwarders: int = Field(4, ge=1)
    servers: int = Field(4, ge=1)
    link_bw: Bandwidth = Field(10 * GBIT, description="every NIC, per direction, B/s")
    link_lat: Latency = Field(10e-6, description="per hop, s (assumption)")
    speed: Speed = Field(8 * 2.4e9 * 16 / 8, description="flop/s per host (assumption)")
    cores: int = Field(8, ge=1, description="8-core Xeon E5-2630 v3")
    dram_size: Size = Field(128 * GB)
    hdd_read_bw: Bandwidth = Field(150e6, description="B/s (assumption)")
    hdd_write_bw: Bandwidth = Field(150e6, description="B/s (assumption)")
    hdd_capacity: Size = Field(558 * GB)


class StagingParams(Strict):
    """Seed 003 set-up: client nodes and SSD-equipped staging servers on one InfiniBand
    QDR-like switch shared by MPI and I/O traffic (so the two contend)."""

    kind: Literal["staging"] = "staging"
    name: str = Field("staging", pattern=r"^[A-Za-z0-9_.-]+$")
    clients: int = Field(160, ge=1)
    staging_servers: int = Field(16, ge=1)
    link_bw: Bandwidth = Field(32 * GBIT, description="QDR 4x data rate, per direction, B/s")
    link_lat: Latency = Field(1.5e-6, description="per hop, s (assumption)")
    speed: Speed = Field(8 * 2.4e9 * 4, description="flop/s per host (assumption)")
    cores: int = Field(8, ge=1)
    client_dram_size: Size = Field(12 * GB)
    server_dram_size: Size = Field(24 * GB)
    ssd_read_bw: Bandwidth = Field(1.4 * GB, description="B/s (assumption)")
    ssd_write_bw: Bandwidth = Field(1.0 * GB, description="B/s (assumption)")
    ssd_capacity: Size = Field(300 * GB)
    pfs_servers: int = Field(
        0,
        ge=0,
        description="back-end PFS servers on a separate storage network (0: no storage network, the plain star)",
    )
    storage_link_bw: Bandwidth = Field(
        10 * GBIT, description="storage-network NIC of staging ports and PFS servers, per direction, B/s (assumption)"
    )
    storage_link_lat: Latency = Field(10e-6, description="storage-network hop, s (assumption)")


PlatformParams = Annotated[
    SystemParams | ForwardingParams | StagingParams | OnDemandParams, Field(discriminator="kind")
]
