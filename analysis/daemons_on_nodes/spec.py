"""Daemons-on-nodes step 1, the specification: platforms, the multi-application workloads of
seed 000 (Table 1's multi-application column), and the grid of allocation policy x storage
placement x daemon cost, over workload seeds.

The daemon cost is given in seconds of one node's CPU per GB served (``cpu_s_per_gb``) and
turned into flops per byte with the platform's node speed, so the same sweep means the same
load on any platform. No paper gives it: 0 is the reference (NVM traffic costs no CPU), and
the sweep goes up to a daemon that needs a whole node to serve 1 GB/s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import number, path_fields, under_root
from datasched.analysis.seed000.multi_application import multi_application_params

#: storage placements of the external assigner compared (schedulers/storage_external.py)
PLACEMENTS = ("least_loaded", "idle_nodes")


@dataclass(frozen=True)
class DaemonsSpec:
    platforms: Mapping[str, Path]  # label -> unified platform (nodes with NVM)
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    cpu_s_per_gb: tuple[float, ...]  # daemon cost swept; 0 is the reference
    allocations: tuple[str, ...] = ("sequential", "data_aware")
    placements: tuple[str, ...] = PLACEMENTS
    request_size: int = 524288  # bytes per daemon request (BeeOND's default chunk)
    scheduler: str = "easy"
    san_k: int = 4
    staging: str = "io_volume"
    traffic_policy: str = "np"
    ipc_fanout: int = 0  # 0: exact all-to-all; D: the engine's calibrated approximation (--ipc-fanout)

    def runs(self) -> list[DaemonsRun]:
        return [
            DaemonsRun(platform, allocation, placement, cost, seed)
            for platform in self.platforms
            for allocation in self.allocations
            for placement in self.placements
            for cost in self.cpu_s_per_gb
            for seed in self.seeds
        ]

    def markov_params(self, seed: int, nb_nodes: int) -> dict[str, Any]:
        """One platform's workload of ``seed``: seed 000's multi-application column, every
        application's data assigned by the policy (external), all at t = 0."""
        return multi_application_params(
            seed, self.n_apps, self.n_phases, nb_nodes, san_k=self.san_k, staging=self.staging
        )


@dataclass(frozen=True)
class DaemonsRun:
    platform: str
    allocation: str
    placement: str
    cpu_s_per_gb: float
    seed: int

    @property
    def workload_path(self) -> str:
        return f"platform={self.platform}/seed={self.seed}"

    @property
    def path(self) -> str:
        return (
            f"platform={self.platform}/allocation={self.allocation}/placement={self.placement}/"
            f"cost={number(self.cpu_s_per_gb)}/seed={self.seed}"
        )

    @classmethod
    def from_path(cls, path: str) -> DaemonsRun:
        f = path_fields(path)
        return cls(f["platform"], f["allocation"], f["placement"], float(f["cost"]), int(f["seed"]))

    def scheduler_options(self) -> dict[str, Any]:
        return {"allocation": self.allocation, "storage": {"name": "external", "placement": self.placement}}

    def daemons(self, spec: DaemonsSpec, node_speed: float) -> dict[str, Any] | None:
        """The --storage-daemons file's content (None at cost 0: the run has no daemons)."""
        if self.cpu_s_per_gb == 0:
            return None
        return {"request_size": spec.request_size, "flops_per_byte": self.cpu_s_per_gb * node_speed / 1e9}


def node_speed(platform: Path) -> float:
    """The compute nodes' speed (flop/s), as the engine reads it (``--inspect``); the
    platform must have one speed for all of them (the cost is per node)."""
    from datasched.engine import inspect_platform

    hosts = inspect_platform(platform)["hosts"]
    speeds = {h["speed"] * h["cores"] for h in hosts if h["role"] == "compute_node"}
    if len(speeds) != 1:
        raise RuntimeError(f"{platform}: compute nodes of {len(speeds)} different speeds; the daemon cost needs one")
    return speeds.pop()


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> DaemonsSpec:
    """The config section (validated against config/schema.json before)."""
    return DaemonsSpec(
        platforms={str(k): under_root(v, repo_root) for k, v in data["platforms"].items()},
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        cpu_s_per_gb=tuple(float(c) for c in data["cpu_s_per_gb"]),
        allocations=tuple(str(a) for a in data.get("allocations", DaemonsSpec.allocations)),
        placements=tuple(str(p) for p in data.get("placements", PLACEMENTS)),
        request_size=int(data.get("request_size", DaemonsSpec.request_size)),
        scheduler=str(data.get("scheduler", DaemonsSpec.scheduler)),
        san_k=int(data.get("san_k", DaemonsSpec.san_k)),
        staging=str(data.get("staging", DaemonsSpec.staging)),
        traffic_policy=str(data.get("traffic_policy", DaemonsSpec.traffic_policy)),
        ipc_fanout=int(data.get("ipc_fanout", DaemonsSpec.ipc_fanout)),
    )
