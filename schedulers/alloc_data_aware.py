"""Data-aware allocation: compute nodes near the job's data and away from busy storage devices.

Each free host h gets a cost in network hops::

    c(h) = mean distance from h to the hosts holding the job's data items
           (0 when no location is known)
         + busy_penalty * (running jobs whose data sits on h's NVM)

(the items are the ``data`` names of the profile's phases and the job's own ``data``
field; their holders come from ``AllocationRequest.data``; the load from queue policies
with a ``storage`` option). A set S of k hosts scores ``sum of c(h) over S`` plus its
compactness, ``sum of pairwise distances / k`` (each host's mean distance to the
others, times k/(k-1)): both terms are hops per host, so neither unit dominates.
Candidate sets are "balls" around seed hosts, as in the topology allocator: the k free
hosts minimising ``distance(seed, h) + c(h)``; the seeds are the hosts of lowest cost
plus hosts spread evenly over the free ones; ties go to the lowest ids. Without
topology there are no distances: the allocator then only avoids busy hosts (lowest
load first, then lowest id).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from pydantic import Field

from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.params import PolicyParams
from datasched.policy.registry import register_allocator


class DataAwareParams(PolicyParams):
    busy_penalty: float = Field(
        4.0, ge=0, description="hops added to a host's cost per running job whose data sits on its NVM"
    )
    max_seeds: int = Field(64, ge=1, description="seed hosts tried per decision")


@register_allocator
class DataAwareAllocator(Allocator):
    name = "data_aware"
    description = "near the job's data (topology distance) and away from busy storage devices"
    Params = DataAwareParams

    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None:
        params: DataAwareParams = self.params  # type: ignore[assignment]
        needed = request.job.requested_hosts
        free = np.asarray(request.free_hosts)
        if needed > len(free):
            return None
        load = np.array([request.storage_load.get(int(h), 0) for h in free], dtype=float)
        busy = params.busy_penalty * load
        distances = request.platform.distances
        if distances is None:
            order = np.lexsort((free, load))  # least loaded, then lowest id
            return tuple(sorted(int(h) for h in free[order[:needed]]))
        holders = sorted(data_holders(request))
        near = distances.matrix[np.ix_(free, np.asarray(holders))].mean(axis=1) if holders else np.zeros(len(free))
        cost = near + busy
        sub = distances.matrix[np.ix_(free, free)].astype(float)
        best_score, best = None, None
        for seed in self._seeds(cost, params.max_seeds):
            chosen = np.lexsort((free, sub[seed] + cost))[:needed]
            block = sub[np.ix_(chosen, chosen)]
            score = float(cost[chosen].sum()) + float(block.sum()) / (2 * needed)
            if best_score is None or score < best_score - 1e-9:
                best_score, best = score, chosen
        assert best is not None
        return tuple(sorted(int(free[i]) for i in best))

    @staticmethod
    def _seeds(cost: np.ndarray, max_seeds: int) -> list[int]:
        """Indices of the free hosts tried as ball centres: the cheapest half of the
        budget, then evenly spread ones (so a compact block far from cheap hosts is seen)."""
        n = len(cost)
        if n <= max_seeds:
            return list(range(n))
        cheapest = np.argsort(cost, kind="stable")[: max(1, max_seeds // 2)].tolist()
        spread = np.linspace(0, n - 1, max_seeds - len(cheapest)).round().astype(int).tolist()
        return sorted(set(cheapest) | set(spread))


def data_items(job_profile: Mapping[str, Any], job_extra: Mapping[str, Any]) -> set[str]:
    """Names of the data items the job reads: its phases' ``data`` and its own ``data`` field."""
    items: set[str] = set()
    for phase in job_profile.get("phases") or ():
        if isinstance(phase, Mapping):
            items.update(_names(phase.get("data")))
    items.update(_names(job_extra.get("data")))
    return items


def data_holders(request: AllocationRequest) -> set[int]:
    """Compute hosts holding a copy of any item the job reads."""
    where = request.data.hosts_by_item
    return {h for item in data_items(request.job.profile, request.job.extra) for h in where.get(item, ())}


def _names(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return (v for v in value if isinstance(v, str))
    return ()
