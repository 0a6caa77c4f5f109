"""Internal storage assignment (seed 000 section 4.1): the data on k NVMs of the job's own nodes.

Which k nodes (``placement``):

- ``first``: the first k hosts of the allocation, as the engine does without a decision;
- ``spread``: device j on the first I/O task of the group that reads it under Affinity
  (task i of m uses device floor(i*k/m), so device j goes to task ceil(j*m/k)): every
  Affinity group then holds its own data, and under Disperse the devices are spread
  evenly over the I/O tasks instead of packed on the first k.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from datasched.errors import UserError
from datasched.policy.decisions import StorageChoice
from datasched.policy.registry import register_storage
from datasched.policy.storage import StorageAssigner, StorageParams, StorageRequest, nvm_of


class InternalParams(StorageParams):
    k: int | None = Field(None, ge=1, description="devices holding the data (STG-k; default: the profile's stg_k)")
    placement: Literal["first", "spread"] = Field("first", description="which of the job's nodes hold the devices")


@register_storage
class InternalStorage(StorageAssigner):
    name = "internal"
    description = "data on k NVMs of the job's own nodes (first k, or spread over the Affinity groups)"
    Params = InternalParams

    def assign(self, request: StorageRequest) -> StorageChoice:
        params: InternalParams = self.params  # type: ignore[assignment]
        k = request.k(params.k, "stg_k")
        n = len(request.hosts)
        if k > n:
            raise UserError(f"job {request.job.id!r}: {k} internal storage devices, but the job has only {n} nodes")
        if params.placement == "first":
            positions = list(range(k))
        else:
            io_tasks = request.descriptor_io_tasks()
            m = min(io_tasks, n) if io_tasks else n
            positions = group_leaders(k, m) if k <= m else list(range(k))
        devices = tuple(nvm_of(request, request.hosts[p]) for p in positions)
        return StorageChoice(devices=devices, access=self.access(request), allocation="internal")


def group_leaders(k: int, m: int) -> list[int]:
    """The first task of each of the k Affinity groups of m tasks (task i is in group
    floor(i*k/m), so group j starts at ceil(j*m/k))."""
    return [-(-j * m // k) for j in range(k)]
