"""Figure 8 step 1, the specification: topologies, storage strategies and access patterns over
workload seeds, as runs with their result paths and workload parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.multi_application import (
    multi_application_params,
    run_settings,
)

#: Figure 8's bars: Cache, then Internal and External with each access type.
STRATEGIES = ("cache", "internal", "external")


ACCESS = {"D": "disperse", "A": "affinity", "L": "local"}


@dataclass(frozen=True)
class Fig8Spec:
    platforms: Mapping[str, Path]  # topology label -> unified platform XML
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    san_k: int = 4  # I/O servers staging each application's data (the platform's)
    staging: str = "io_volume"
    scheduler: str = "fcfs"
    allocation: str = "sequential"
    traffic_policy: str = "np"
    ipc_fanout: int = 0  # 0: exact all-to-all; D: the engine's calibrated approximation (--ipc-fanout)

    def variants(self) -> list[tuple[str, str]]:
        """(strategy, access letter): Cache once (every access is local), the others x D/A/L."""
        return [("cache", "L")] + [(s, a) for s in STRATEGIES[1:] for a in ACCESS]

    def runs(self) -> list[Fig8Run]:
        return [
            Fig8Run(topology, strategy, access, seed)
            for topology in self.platforms
            for strategy, access in self.variants()
            for seed in self.seeds
        ]


@dataclass(frozen=True)
class Fig8Run:
    topology: str
    strategy: str
    access: str  # D, A or L
    seed: int

    @property
    def workload_path(self) -> str:
        return f"topology={self.topology}/seed={self.seed}"

    @property
    def path(self) -> str:
        return f"topology={self.topology}/storage={self.strategy}-{self.access}/seed={self.seed}"

    @classmethod
    def from_path(cls, path: str) -> Fig8Run:
        fields = path_fields(path)
        strategy, access = fields["storage"].rsplit("-", 1)
        return cls(fields["topology"], strategy, access, int(fields["seed"]))

    def scheduler_options(self, spec: Fig8Spec) -> dict[str, Any]:
        storage: dict[str, Any] = {"name": self.strategy}
        if self.strategy != "cache":
            storage["access"] = ACCESS[self.access]
        return {"allocation": spec.allocation, "storage": storage}


def markov_params(spec: Fig8Spec, seed: int, nb_nodes: int) -> dict[str, Any]:
    """The multi-application workload of one topology and seed (Exp = the system size)."""
    return multi_application_params(seed, spec.n_apps, spec.n_phases, nb_nodes, san_k=spec.san_k, staging=spec.staging)


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Fig8Spec:
    def resolve(path: str) -> Path:
        p = Path(path)
        return p if p.is_absolute() else repo_root / p

    return Fig8Spec(
        platforms={str(k): resolve(v) for k, v in data["platforms"].items()},
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        san_k=int(data.get("san_k", 4)),
        staging=str(data.get("staging", "io_volume")),
        **run_settings(data),
    )
