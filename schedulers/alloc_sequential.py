"""Sequential allocation: the lowest free host ids (seed 000, section 4.2).

Host ids follow Batsim's numbering, which follows host names, so on generated
platforms neighbours in id tend to be neighbours in the network: this keeps
"a certain level of locality" without looking at the topology.
"""

from __future__ import annotations

from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.registry import register_allocator


@register_allocator
class SequentialAllocator(Allocator):
    name = "sequential"
    description = "lowest free host ids first (seed 000 'Sequential allocation')"

    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None:
        needed = request.job.requested_hosts
        if needed > len(request.free_hosts):
            return None
        return tuple(request.free_hosts[:needed])
