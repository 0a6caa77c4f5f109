"""Contiguous allocation: the first block of consecutive free host ids (first fit).

This is what pybatsim's own FCFS (``consecutive_resources_filter``) and EASY
(rectangle) schedulers do; use it to compare with them start for start. It can
refuse a job although enough hosts are free (fragmentation), so backfilling
reservations made with it may slip.
"""

from __future__ import annotations

from datasched.policy.allocation import AllocationRequest, Allocator
from datasched.policy.registry import register_allocator


@register_allocator
class ContiguousAllocator(Allocator):
    name = "contiguous"
    description = "first block of consecutive free host ids (pybatsim-compatible, may fragment)"
    any_subset_fits = False

    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None:
        needed = request.job.requested_hosts
        free = request.free_hosts
        run_start = 0
        for i in range(len(free)):
            if i > 0 and free[i] != free[i - 1] + 1:
                run_start = i
            if i - run_start + 1 == needed:
                return tuple(free[run_start : i + 1])
        return None
