"""Allocators against the optimum step 1, the specification: the platforms, how many moments
and waiting jobs, their sizes and data holders, the busy share and seed
(``artifacts.placement_gap`` of a config), and the compared methods: the two optima, then the
allocators."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import under_root

#: the joint CP-SAT optimum over all waiting jobs of a moment
OPTIMUM = "optimum"
#: each job optimal given the previous jobs' hosts, in queue order
ONLINE = "online optimum"


@dataclass(frozen=True)
class PlacementGapSpec:
    platforms: Mapping[str, Path]  # label -> SimGrid platform with a cluster topology
    scenarios: int
    jobs: int  # waiting jobs per scenario
    job_hosts: tuple[int, ...]  # host counts drawn uniformly
    holders: tuple[int, ...]  # data-holding nodes per job, drawn uniformly
    busy_fraction: float
    seed: int
    allocators: tuple[str, ...] = ("sequential", "random", "topology", "data_aware")

    def methods(self) -> tuple[str, ...]:
        return (OPTIMUM, ONLINE, *self.allocators)


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> PlacementGapSpec:
    """The config section (validated against config/schema.json before; the allocator names
    are checked against the registry by ``analysis/experiment_config.py``)."""
    return PlacementGapSpec(
        platforms={str(k): under_root(v, repo_root) for k, v in data["platforms"].items()},
        scenarios=int(data["scenarios"]),
        jobs=int(data["jobs"]),
        job_hosts=tuple(int(n) for n in data["job_hosts"]),
        holders=tuple(int(n) for n in data["holders"]),
        busy_fraction=float(data["busy_fraction"]),
        seed=int(data["seed"]),
        allocators=tuple(str(a) for a in data.get("allocators", PlacementGapSpec.allocators)),
    )
