"""Burst buffers step 1, the specification: seed 000's SAN systems with S staging servers, the
multi-application workloads of seed 000 (Table 1's multi-application column), and the grid of
allocation policy x S, over workload seeds.

S = 0 is the reference: no staging layer, every write phase goes straight to the job's I/O
servers. With S > 0 the platform gets S staging servers on the storage network (the generator's
``staging_servers``: seed 003's SSD figures) and the run gets ``--staging-layer``: compute node
c of N writes through server floor(c * S / N)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.multi_application import multi_application_params

MIB = 1 << 20


@dataclass(frozen=True)
class BurstSpec:
    topologies: Mapping[str, str]  # label -> the catalogue's seed-000 system (its SAN mode is used)
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    staging_servers: tuple[int, ...]  # swept; 0 (no staging layer) is the reference
    allocations: tuple[str, ...] = ("sequential", "random", "staging_spread", "staging_bytes")
    # The staging layer's file. Blocks and drain chunks larger than the engine's defaults (1 MiB,
    # 4 MiB): the cost of a run grows with their number (docs/storage.md measures the choice).
    block_size: int = 16 * MIB
    buffer_bytes: int = 64 * MIB
    drain_chunk: int = 64 * MIB
    idle_seconds: float = 0.001
    scheduler: str = "easy"
    san_k: int = 4
    staging: str = "io_volume"
    traffic_policy: str = "np"
    ipc_fanout: int = 0  # 0: exact all-to-all; D: the engine's calibrated approximation (--ipc-fanout)

    def runs(self) -> list[BurstRun]:
        return [
            BurstRun(platform, allocation, servers, seed)
            for platform in self.topologies
            for allocation in self.allocations
            for servers in self.staging_servers
            for seed in self.seeds
        ]

    def markov_params(self, seed: int, nb_nodes: int) -> dict[str, Any]:
        """One platform's workload of ``seed``: seed 000's multi-application column, data on the
        SAN's k I/O servers, all applications at t = 0."""
        return multi_application_params(
            seed, self.n_apps, self.n_phases, nb_nodes, san_k=self.san_k, staging=self.staging
        )

    def layer(self) -> dict[str, Any]:
        """The --staging-layer file's content (the same for every run with staging servers)."""
        return {
            "block_size": self.block_size,
            "buffer_bytes": self.buffer_bytes,
            "drain_chunk": self.drain_chunk,
            "idle_seconds": self.idle_seconds,
        }

    def platform_params(self, platform: str, servers: int) -> Any:
        """The catalogue's seed-000 system of ``platform`` in SAN mode, with ``servers`` staging
        servers on its storage network (none: the catalogue's system itself)."""
        from datasched.platforms.catalog import catalog

        base = catalog()[f"{self.topologies[platform]}-san"]
        if servers == 0:
            return base
        storage = base.storage.model_copy(update={"staging_servers": servers})  # type: ignore[union-attr]
        return base.model_copy(update={"storage": storage, "name": f"{base.name}-stg{servers}"})


@dataclass(frozen=True)
class BurstRun:
    platform: str
    allocation: str
    staging_servers: int
    seed: int

    @property
    def workload_path(self) -> str:
        return f"platform={self.platform}/seed={self.seed}"

    @property
    def platform_path(self) -> str:
        return f"platform={self.platform}/servers={self.staging_servers}"

    @property
    def path(self) -> str:
        return f"platform={self.platform}/allocation={self.allocation}/servers={self.staging_servers}/seed={self.seed}"

    @classmethod
    def from_path(cls, path: str) -> BurstRun:
        f = path_fields(path)
        return cls(f["platform"], f["allocation"], int(f["servers"]), int(f["seed"]))

    def scheduler_options(self, spec: BurstSpec) -> dict[str, Any]:
        """EASY's options: the allocation (``random`` seeded by the workload's seed, so a seed's
        runs differ only by the staging servers), every job's data on its k I/O servers."""
        allocation: Any = {"name": "random", "seed": self.seed} if self.allocation == "random" else self.allocation
        return {"allocation": allocation, "storage": {"name": "san", "k": spec.san_k}}

    def engine_args(self, layer_file: str) -> list[str]:
        return ["--staging-layer", layer_file] if self.staging_servers > 0 else []


def parse_spec(data: Mapping[str, Any]) -> BurstSpec:
    """The config section (validated against config/schema.json before)."""
    return BurstSpec(
        topologies={str(k): str(v) for k, v in data["topologies"].items()},
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        staging_servers=tuple(int(s) for s in data["staging_servers"]),
        allocations=tuple(str(a) for a in data.get("allocations", BurstSpec.allocations)),
        block_size=int(data.get("block_size", BurstSpec.block_size)),
        buffer_bytes=int(data.get("buffer_bytes", BurstSpec.buffer_bytes)),
        drain_chunk=int(data.get("drain_chunk", BurstSpec.drain_chunk)),
        idle_seconds=float(data.get("idle_seconds", BurstSpec.idle_seconds)),
        scheduler=str(data.get("scheduler", BurstSpec.scheduler)),
        san_k=int(data.get("san_k", BurstSpec.san_k)),
        staging=str(data.get("staging", BurstSpec.staging)),
        traffic_policy=str(data.get("traffic_policy", BurstSpec.traffic_policy)),
        ipc_fanout=int(data.get("ipc_fanout", BurstSpec.ipc_fanout)),
    )
