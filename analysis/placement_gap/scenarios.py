"""Allocators against the optimum step 2a, the moments: which hosts are busy and which jobs wait
(hosts, data holders, bytes), drawn from ``(seed, index)`` alone so that a moment is the same
whatever else the sweep holds."""

from __future__ import annotations

import numpy as np

from datasched.analysis.placement_gap.spec import PlacementGapSpec
from datasched.policy.placement_optimum import PlacementJob


def scenario(spec: PlacementGapSpec, nb_hosts: int, index: int) -> tuple[list[int], list[PlacementJob]]:
    """Free hosts and waiting jobs of one moment, from ``(seed, index)`` alone."""
    rng = np.random.default_rng([spec.seed, index])
    busy = set(rng.choice(nb_hosts, size=round(spec.busy_fraction * nb_hosts), replace=False).tolist())
    free = [h for h in range(nb_hosts) if h not in busy]
    jobs, room = [], len(free)
    for j in range(spec.jobs):
        hosts = int(rng.choice(spec.job_hosts))
        holders = rng.choice(nb_hosts, size=int(rng.choice(spec.holders)), replace=False)
        size = float(rng.integers(1, 11)) * 1e9
        if hosts <= room:
            jobs.append(PlacementJob(f"j{j}", hosts, tuple(sorted(int(h) for h in holders)), size))
            room -= hosts
    return free, jobs
