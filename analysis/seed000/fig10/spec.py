"""Figure 10 step 1, the specification: traffic policies, I/O models and topologies over workload
seeds, as runs with their result paths and workload parameters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import path_fields

#: The paper's five bars: NP, FP and BA with (IPC-storage) 95-5, 50-50, 5-95.
PAPER_POLICIES = ("np", "fp", "ba:95", "ba:50", "ba:5")


#: Table 1's multi-application storage allocations.
ALLOCATIONS = ("internal", "external", "cache", "san")


def policy_label(policy: str) -> str:
    """``ba:95`` -> ``BA 95-5``; ``np`` -> ``NP``."""
    if policy.startswith("ba:"):
        x = float(policy.removeprefix("ba:"))
        return f"BA {x:g}-{100 - x:g}"
    return policy.upper()


def policy_slug(policy: str) -> str:
    """A path-safe name: ``ba:95`` -> ``ba-95``."""
    return policy.replace(":", "-")


def policy_from_slug(slug: str) -> str:
    return slug.replace("-", ":", 1) if slug.startswith("ba-") else slug


@dataclass(frozen=True)
class Fig10Spec:
    topology: str  # label of the platform (a dragonfly, as in the paper)
    platform: Path  # unified SimGrid platform
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    policies: tuple[str, ...] = PAPER_POLICIES
    allocations: tuple[str, ...] = ALLOCATIONS
    san_k: int = 4  # I/O servers of SAN applications and of staging (the platform's)
    staging: str = "io_volume"
    scheduler: str = "fcfs"
    allocation: str = "sequential"
    ipc_fanout: int = 0
    io_distributions: tuple[str, ...] = ("none",)
    io_groups: int = 0  # the engine's --io-groups (0: per I/O task, exact)

    def engine_args(self) -> list[str]:
        return ["--io-groups", str(self.io_groups)] if self.io_groups else []

    def runs(self) -> list[Fig10Run]:
        """Every planned run, seed-major: all I/O models and policies of the first seed first
        (so a partial full variant has a value for every policy as early as possible)."""
        return [
            Fig10Run(self.topology, p, s, io) for s in self.seeds for io in self.io_distributions for p in self.policies
        ]

    @property
    def judged_io(self) -> str:
        """The I/O model the claims are judged on: ``per_task`` (the paper's 5.1) if run."""
        return "per_task" if "per_task" in self.io_distributions else self.io_distributions[0]


@dataclass(frozen=True)
class Fig10Run:
    topology: str
    policy: str  # np | fp | ba:X
    seed: int
    io: str  # none | per_task (workloads.phases.IoDistribution)

    @property
    def workload_path(self) -> str:
        return f"io={self.io}/topology={self.topology}/seed={self.seed}"

    @property
    def path(self) -> str:
        return f"io={self.io}/topology={self.topology}/policy={policy_slug(self.policy)}/seed={self.seed}"

    @classmethod
    def from_path(cls, path: str) -> Fig10Run:
        fields = path_fields(path)
        return cls(fields["topology"], policy_from_slug(fields["policy"]), int(fields["seed"]), fields["io"])

    def scheduler_options(self, spec: Fig10Spec) -> dict[str, Any]:
        """No storage policy: each application's data lives where its drawn allocation puts
        it (the engine's defaults, workloads/README.md section 3)."""
        return {"allocation": spec.allocation}


def markov_params(spec: Fig10Spec, seed: int, nb_nodes: int, io: str) -> dict[str, Any]:
    """Table 1's multi-application column over the whole system, every allocation drawn,
    all at t = 0, staging over the first ``san_k`` servers; SAN applications use those;
    ``io`` is the applications' I/O distribution (the same draws under every model)."""
    return {
        "io_distribution": io,
        "kind": "multi",
        "seed": seed,
        "n_apps": spec.n_apps,
        "max_tasks": nb_nodes,
        "allocations": list(spec.allocations),
        "san_k_choices": [spec.san_k],
        "staging": spec.staging,
        "walltime_factor": None,
        "sizes": {"n_phases": spec.n_phases},
    }


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Fig10Spec:
    (topology, platform), *more = dict(data["platform"]).items()
    if more:
        raise ValueError("platform: one topology (label: path), as in the paper's Fig. 10")
    path = Path(platform)
    policies = tuple(str(p) for p in data.get("policies", PAPER_POLICIES))
    if "np" not in policies:
        raise ValueError("policies: must contain np (every ratio is to NP)")
    return Fig10Spec(
        topology=str(topology),
        platform=path if path.is_absolute() else repo_root / path,
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        policies=policies,
        allocations=tuple(str(a) for a in data.get("allocations", ALLOCATIONS)),
        san_k=int(data.get("san_k", 4)),
        staging=str(data.get("staging", "io_volume")),
        scheduler=str(data.get("scheduler", "fcfs")),
        allocation=str(data.get("allocation", "sequential")),
        ipc_fanout=int(data.get("ipc_fanout", 0)),
        io_distributions=_io_distributions(data.get("io_distributions", ["none"])),
        io_groups=int(data.get("io_groups", 0)),
    )


def _io_distributions(values: Sequence[Any]) -> tuple[str, ...]:
    out = tuple(str(v) for v in values)
    bad = [v for v in out if v not in ("none", "per_task")]
    if bad or not out:
        raise ValueError(f"io_distributions: {bad or '(empty)'} (each none or per_task)")
    return out
