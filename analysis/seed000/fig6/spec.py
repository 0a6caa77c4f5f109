"""Figure 6 step 1, the specification: the swept shares of memory hits and remote accesses, the
storage assignments and the one application, as runs with their result paths."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import number, path_fields

#: Table 1 single application: SAN-k = 4.
SAN_K = 4


@dataclass(frozen=True)
class Fig6Spec:
    platform: Path
    tasks: int
    n_phases: int
    seed: int
    stg_k: tuple[int, ...]
    mem_levels: tuple[float, ...]
    remote_levels: tuple[float, ...]
    traffic_policy: str = "np"

    @property
    def storages(self) -> tuple[str, ...]:
        return (*(f"stg-{k}" for k in self.stg_k), "cache", "san")

    def runs(self) -> list[Fig6Run]:
        """Panels a/b: remote 50 %, every memory level; c/d: memory 50 %, every remote
        level; each with Disperse and Affinity (shared points run once); STG-k also with
        Affinity and each device in its own task group ("As", internal placement spread)."""
        points = [(m, 50.0) for m in self.mem_levels] + [(50.0, r) for r in self.remote_levels]
        runs: dict[Fig6Run, None] = {}
        for storage in self.storages:
            for mem, remote in points:
                for access in ("D", "A", "As") if storage.startswith("stg-") else ("D", "A"):
                    runs[Fig6Run(storage, float(mem), float(remote), access)] = None
        return list(runs)


@dataclass(frozen=True)
class Fig6Run:
    storage: str  # stg-K, cache or san
    mem: float
    remote: float
    access: str  # D, A, or As (Affinity with each device in its group: internal placement spread)

    @property
    def path(self) -> str:
        return f"storage={self.storage}/mem={number(self.mem)}/remote={number(self.remote)}/access={self.access}"

    @classmethod
    def from_path(cls, path: str) -> Fig6Run:
        fields = path_fields(path)
        return cls(fields["storage"], float(fields["mem"]), float(fields["remote"]), fields["access"])

    def markov_params(self, spec: Fig6Spec) -> dict[str, Any]:
        """Parameters of datasched.workloads.markov (single application)."""
        allocation = "internal" if self.storage.startswith("stg-") else self.storage
        params: dict[str, Any] = {
            "kind": "single",
            "seed": spec.seed,
            "tasks": spec.tasks,
            "allocation": allocation,
            "mem_hit_pct": self.mem,
            "remote_pct": self.remote,
            "access": self.access[0],
            "san_k": SAN_K,
            "sizes": {"n_phases": spec.n_phases},
        }
        if allocation == "internal":
            params["stg_k"] = int(self.storage.removeprefix("stg-"))
        return params

    def scheduler_options(self) -> dict[str, Any]:
        """FCFS options: the internal storage policy with spread placement for "As"; the
        engine's default devices (the first k nodes' NVMs) otherwise."""
        return {"storage": {"name": "internal", "placement": "spread"}} if self.access == "As" else {}


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Fig6Spec:
    platform = Path(data["platform"])
    return Fig6Spec(
        platform=platform if platform.is_absolute() else repo_root / platform,
        tasks=int(data["tasks"]),
        n_phases=int(data["n_phases"]),
        seed=int(data["seed"]),
        stg_k=tuple(int(k) for k in data["stg_k"]),
        mem_levels=tuple(float(m) for m in data["mem_levels"]),
        remote_levels=tuple(float(r) for r in data["remote_levels"]),
        traffic_policy=str(data.get("traffic_policy", "np")),
    )


def spec_description(spec: Fig6Spec, variant: str) -> str:
    return "\n".join(
        [
            f"- variant `{variant}`; platform `{spec.platform.name}` (72 nodes, SAN-{SAN_K} I/O servers);",
            f"- one application of {spec.tasks} tasks, all doing I/O, Prob(C/C) 0.25, {spec.n_phases} phases, "
            f"seed {spec.seed} (`datasched workload markov`, single-application column of Table 1);",
            f"- storage: {', '.join(s.upper() for s in spec.storages)}; memory hits "
            f"{', '.join(f'{m:g}' for m in spec.mem_levels)} %; remote "
            f"{', '.join(f'{r:g}' for r in spec.remote_levels)} %; Disperse and Affinity;",
            f"- FCFS (sequential allocation: the job gets nodes 0..{spec.tasks - 1}), traffic policy "
            f"`{spec.traffic_policy}`.",
        ]
    )
