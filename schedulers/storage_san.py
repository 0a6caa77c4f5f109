"""SAN storage assignment (seed 000 section 4.1): the data striped over k central I/O servers.

Storage traffic then travels the separate storage network (each node's 10 GbE
front-end), never the interconnect. ``placement``: ``first`` takes the first k servers
(as the engine does without a decision); ``least_loaded`` those with the fewest running
jobs' data, ties to the lowest id.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from datasched.errors import UserError
from datasched.policy.decisions import StorageChoice
from datasched.policy.registry import register_storage
from datasched.policy.storage import StorageAssigner, StorageParams, StorageRequest


class SanParams(StorageParams):
    k: int | None = Field(None, ge=1, description="I/O servers striping the data (SAN-k; default: the profile's san_k)")
    placement: Literal["first", "least_loaded"] = Field("first", description="which servers")


@register_storage
class SanStorage(StorageAssigner):
    name = "san"
    description = "data striped over k central I/O servers (first k, or least loaded)"
    Params = SanParams

    def assign(self, request: StorageRequest) -> StorageChoice:
        params: SanParams = self.params  # type: ignore[assignment]
        k = request.k(params.k, "san_k")
        servers = request.platform.storage.io_servers
        if k > len(servers):
            raise UserError(
                f"job {request.job.id!r}: {k} I/O servers asked, but the platform has {len(servers)} "
                "(datasched_role=io_server)"
            )
        if params.placement == "least_loaded":
            servers = tuple(sorted(servers, key=lambda s: (request.device_load.get(s, 0), s)))
        return StorageChoice(devices=tuple(servers[:k]), access=self.access(request), allocation="san")
