"""Allocators against the optimum step 2b, the placements of one moment other than the joint
optimum: an allocator's, job by job through the ``AllocationRequest`` a queue policy sends, and
the online optimum's (each job optimal given the jobs before it), which separates what deciding
job by job costs from what an allocator's own criterion costs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from datasched.policy.allocation import AllocationChoice, AllocationRequest, DataLocations
from datasched.policy.events import JobInfo
from datasched.policy.placement_optimum import PlacementJob, optimal_placement
from datasched.policy.platform import PlatformView


def allocator_placement(
    name: str, jobs: Sequence[PlacementJob], free: Sequence[int], view: PlatformView
) -> dict[str, tuple[int, ...]]:
    """The allocator places the jobs one by one, as a queue policy would at one instant."""
    allocator = AllocationChoice.model_validate(name).build()
    where = DataLocations({f"data-{j.id}": j.holders for j in jobs})
    remaining, chosen = sorted(free), {}
    for job in jobs:
        info = JobInfo(
            id=job.id, submit_time=0.0, requested_hosts=job.hosts, walltime=None, extra={"data": [f"data-{job.id}"]}
        )
        hosts = allocator.choose(AllocationRequest(info, tuple(remaining), view, 0.0, where))
        if hosts is None:
            raise RuntimeError(f"allocator {name!r} placed no hosts for {job.id} with {len(remaining)} free")
        chosen[job.id] = tuple(hosts)
        remaining = [h for h in remaining if h not in set(hosts)]
    return chosen


def online_optimum(jobs: Sequence[PlacementJob], free: Sequence[int], matrix: np.ndarray) -> dict[str, tuple[int, ...]]:
    """Each job's optimal hosts among those the jobs before it left free, in queue order."""
    remaining, chosen = sorted(free), {}
    for job in jobs:
        best = optimal_placement([job], remaining, matrix)
        chosen[job.id] = best.hosts[job.id]
        remaining = [h for h in remaining if h not in set(best.hosts[job.id])]
    return chosen
