"""External storage assignment (seed 000 section 4.1): the data on k NVMs outside the job's partition.

Candidates are the other compute nodes' NVMs, ranked by ``placement``:

- ``least_loaded``: fewest running jobs with data on the device, then nearest, then lowest id;
- ``nearest``: smallest total network distance to the job's hosts, then least loaded,
  then lowest id (without topology information every distance is 0);
- ``idle_nodes``: NVMs of nodes no other job computes on first, then least loaded, then
  nearest, then lowest id. With storage daemons on the nodes (datasched-sim
  ``--storage-daemons``; ``platform.storage.daemons``) serving a device costs its node CPU,
  so data on an idle node does not slow a job computing there, as seed 004 proposes
  (services placed off the compute job's nodes). A node idle now may get a job later: the
  ranking sees the moment of the decision only.

When k exceeds the nodes outside the partition, the job's own NVMs complete the set
(in allocation order), as the paper allows "some (or all)" devices outside and as the
engine's default does.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field

from datasched.errors import UserError
from datasched.policy.decisions import StorageChoice
from datasched.policy.registry import register_storage
from datasched.policy.storage import StorageAssigner, StorageParams, StorageRequest, nvm_of


class ExternalParams(StorageParams):
    k: int | None = Field(None, ge=1, description="devices holding the data (STG-k; default: the profile's stg_k)")
    placement: Literal["least_loaded", "nearest", "idle_nodes"] = Field(
        "least_loaded", description="how outside devices are ranked"
    )


@register_storage
class ExternalStorage(StorageAssigner):
    name = "external"
    description = "data on k NVMs outside the job's partition (least loaded, or nearest by topology)"
    Params = ExternalParams

    def assign(self, request: StorageRequest) -> StorageChoice:
        params: ExternalParams = self.params  # type: ignore[assignment]
        k = request.k(params.k, "stg_k")
        view = request.platform.storage
        if k > len(view.nvm_of_host):
            raise UserError(
                f"job {request.job.id!r}: {k} external storage devices, but the platform has "
                f"{len(view.nvm_of_host)} node NVMs"
            )
        inside = set(request.hosts)
        outside = [h for h in view.nvm_of_host if h not in inside]
        distance = _distance_to(request, outside)
        load = [request.device_load.get(view.nvm_of_host[h], 0) for h in outside]
        if params.placement == "least_loaded":
            order = sorted(range(len(outside)), key=lambda i: (load[i], distance[i], outside[i]))
        elif params.placement == "idle_nodes":
            busy = request.busy_hosts
            order = sorted(range(len(outside)), key=lambda i: (outside[i] in busy, load[i], distance[i], outside[i]))
        else:
            order = sorted(range(len(outside)), key=lambda i: (distance[i], load[i], outside[i]))
        chosen = [outside[i] for i in order[:k]]
        chosen += [h for h in request.hosts if h in view.nvm_of_host][: k - len(chosen)]
        devices = tuple(nvm_of(request, h) for h in chosen)
        return StorageChoice(devices=devices, access=self.access(request), allocation="external")


def _distance_to(request: StorageRequest, candidates: list[int]) -> list[int]:
    """Each candidate's summed distance to the job's hosts (zeros without topology)."""
    distances = request.platform.distances
    if distances is None or not candidates:
        return [0] * len(candidates)
    block = distances.matrix[np.ix_(np.asarray(candidates), np.asarray(request.hosts))]
    return [int(v) for v in block.sum(axis=1)]
