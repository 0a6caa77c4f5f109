"""Figure 9 step 1, the specification: the I/O server counts, series and staging volumes over
workload seeds, as runs with their platforms and workload parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from datasched.analysis.path_values import path_fields
from datasched.analysis.seed000.multi_application import (
    multi_application_params,
    run_settings,
)

#: Figure 9's series: strategy label -> (platform storage mode, storage option).
SERIES: dict[str, tuple[str, dict[str, Any]]] = {
    "I-A": ("unified", {"name": "internal", "access": "affinity"}),
    "Cache": ("unified", {"name": "cache"}),
    "SAN": ("san", {"name": "san"}),  # k = every server (set per run)
}


@dataclass(frozen=True)
class Fig9Spec:
    topologies: Mapping[str, str]  # label -> catalogue system, without the "-unified"/"-san" suffix
    servers: tuple[int, ...]
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    staging: tuple[str, ...] = ("io_volume", "dataset")
    scheduler: str = "fcfs"
    allocation: str = "sequential"
    traffic_policy: str = "np"
    ipc_fanout: int = 0  # 0: exact all-to-all; D: the engine's calibrated approximation (--ipc-fanout)

    def stagings(self, series: str) -> tuple[str, ...]:
        """SAN ignores staging: it runs once, on the first model's workloads."""
        return self.staging[:1] if series == "SAN" else self.staging

    def runs(self) -> list[Fig9Run]:
        return [
            Fig9Run(topology, series, n, seed, staging)
            for topology in self.topologies
            for series in SERIES
            for staging in self.stagings(series)
            for n in self.servers
            for seed in self.seeds
        ]


@dataclass(frozen=True)
class Fig9Run:
    topology: str
    series: str  # a key of SERIES
    servers: int
    seed: int
    staging: str = "io_volume"

    @property
    def mode(self) -> str:
        return SERIES[self.series][0]

    @property
    def platform_path(self) -> str:
        return f"topology={self.topology}/mode={self.mode}/servers={self.servers}"

    @property
    def workload_path(self) -> str:
        return f"topology={self.topology}/staging={self.staging}/servers={self.servers}/seed={self.seed}"

    @property
    def path(self) -> str:
        return (
            f"topology={self.topology}/series={self.series}/staging={self.staging}/servers={self.servers}"
            f"/seed={self.seed}"
        )

    @classmethod
    def from_path(cls, path: str) -> Fig9Run:
        f = path_fields(path)
        return cls(f["topology"], f["series"], int(f["servers"]), int(f["seed"]), f["staging"])

    def scheduler_options(self, spec: Fig9Spec) -> dict[str, Any]:
        storage = dict(SERIES[self.series][1])
        if self.series == "SAN":
            storage["k"] = self.servers
        return {"allocation": spec.allocation, "storage": storage}


def platform_params(spec: Fig9Spec, topology: str, mode: str, servers: int) -> Any:
    """The catalogue's seed-000 system for ``topology`` in ``mode``, with ``servers`` I/O servers."""
    from datasched.platforms.catalog import catalog

    base = catalog()[f"{spec.topologies[topology]}-{mode}"]
    storage = base.storage.model_copy(update={"io_servers": servers})  # type: ignore[union-attr]
    return base.model_copy(update={"storage": storage, "name": f"{base.name}-io{servers}"})


def markov_params(spec: Fig9Spec, seed: int, servers: int, nb_nodes: int, staging: str) -> dict[str, Any]:
    """Figure 8's workload, staging striped over every server (Table 1 draws SAN-k up to 64;
    Figure 9 goes to 128)."""
    return multi_application_params(seed, spec.n_apps, spec.n_phases, nb_nodes, san_k=servers, staging=staging)


def parse_spec(data: Mapping[str, Any]) -> Fig9Spec:
    return Fig9Spec(
        topologies={str(k): str(v) for k, v in data["topologies"].items()},
        servers=tuple(sorted(int(n) for n in data["servers"])),
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        staging=tuple(str(m) for m in data.get("staging", ("io_volume", "dataset"))),
        **run_settings(data),
    )
