"""Topology-aware locality: a compact set of free hosts by network distance.

For each candidate seed host, take the ``k`` free hosts nearest to it (ties to the
lowest id) and score the set by its hop diameter or by the sum of pairwise
distances; keep the best set (ties to the earliest seed). Exact minimisation is
NP-hard; this "ball around a seed" heuristic is the usual compromise.

Distances come from the platform (``PlatformView.distances``: cluster topology in
the SimGrid XML, or host properties; see ``datasched.policy.topology``). Without
them every set is as good as any other and the allocator behaves exactly like
sequential allocation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from pydantic import Field

from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.params import PolicyParams
from datasched.policy.registry import register_allocator


class TopologyParams(PolicyParams):
    metric: Literal["sum", "diameter"] = Field(
        "sum", description="what to minimise: sum of pairwise distances or the largest one"
    )
    max_seeds: int = Field(64, ge=1, description="seed hosts tried per decision (evenly spread over the free hosts)")


@register_allocator
class TopologyAllocator(Allocator):
    name = "topology"
    description = "compact host set by network distance (degrades to sequential without topology)"
    Params = TopologyParams

    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None:
        needed = request.job.requested_hosts
        free = request.free_hosts
        if needed > len(free):
            return None
        distances = request.platform.distances
        if distances is None or needed == 1 or needed == len(free):
            return tuple(free[:needed])
        params: TopologyParams = self.params  # type: ignore[assignment]
        free_array = np.asarray(free)
        sub = distances.matrix[np.ix_(free_array, free_array)]
        seeds: Sequence[int]
        if len(free) <= params.max_seeds:
            seeds = range(len(free))
        else:
            seeds = sorted(set(np.linspace(0, len(free) - 1, params.max_seeds).round().astype(int).tolist()))
        best_score = None
        best: np.ndarray | None = None
        for seed in seeds:
            # stable sort: equal distances keep ascending host id order
            chosen = np.argsort(sub[seed], kind="stable")[:needed]
            block = sub[np.ix_(chosen, chosen)]
            score = int(block.max()) if params.metric == "diameter" else int(block.sum())
            if best_score is None or score < best_score:
                best_score, best = score, chosen
        assert best is not None
        return tuple(sorted(int(free_array[i]) for i in best))
