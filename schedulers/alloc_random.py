"""Random allocation: a uniformly random set of free hosts (seed 000's datacenter-like baseline).

The generator is private to the allocator and seeded by the ``seed`` option, so a
run is reproducible and independent of any other randomness in the process.
"""

from __future__ import annotations

import random

from pydantic import Field

from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.params import PolicyParams
from datasched.policy.registry import register_allocator


class RandomParams(PolicyParams):
    seed: int = Field(0, description="seed of the allocator's private random generator")


@register_allocator
class RandomAllocator(Allocator):
    name = "random"
    description = "uniformly random free hosts, seeded (seed 000 'Random allocation')"
    Params = RandomParams

    def __init__(self, params: RandomParams) -> None:
        super().__init__(params)
        self._rng = random.Random(params.seed)

    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None:
        needed = request.job.requested_hosts
        if needed > len(request.free_hosts):
            return None
        return tuple(sorted(self._rng.sample(request.free_hosts, needed)))
