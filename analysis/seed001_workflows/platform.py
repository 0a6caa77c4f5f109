"""Seed 001 Table 4 step 2a, the platform every seed 001 workflow artifact runs on (the
bookkeeping runs here, the model runs of ``model_runs.py``, the WfCommons
shapes of ``analysis/seed001_wfcommons``): one definition, so the three differ only in what they
state (node speed and storage, the storage NIC, the central front-end), never in the rest.

The paper states no platform for Table 4; ours: a torus of 20 nodes (5x2x2, 10 GB/s links
without latency, never the bottleneck here) and one I/O server reached through a storage NIC
per node, its front-end rate the central storage's aggregate (100 GB/s: not a bottleneck,
unless a caller sweeps it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

#: the interconnect's link rate (B/s): 10 GB/s, never the bottleneck of these workflows
LINK_BW = 1e10
#: the I/O server's front-end (B/s) where central storage is not the swept bottleneck
FRONTEND_BW = 1e11


def table4_platform(
    name: str,
    node: Mapping[str, float],
    node_nic_bw: float,
    path: Path,
    *,
    server_frontend_bw: float = FRONTEND_BW,
    storage_mode: Literal["unified", "san"] = "unified",
    torus: Sequence[int] = (5, 2, 2),
) -> Path:
    """Writes the platform to ``path``: ``node`` holds the node's ``speed`` and, with node NVM,
    its ``nvm_read_bw``/``nvm_write_bw`` (and ``nvm_capacity``); ``storage_mode`` ``san``
    is the same system without node NVM."""
    from datasched.platforms import InterconnectParams, SystemParams, TorusParams, generate, write

    params = SystemParams(
        name=name,
        storage_mode=storage_mode,
        interconnect=InterconnectParams(topology=TorusParams(dims=list(torus)), link_bw=LINK_BW, link_lat=0),
        node=dict(node),
        storage={
            "io_servers": 1,
            "node_nic_bw": node_nic_bw,
            "server_frontend_bw": server_frontend_bw,
            "frontend_lat": 0,
            "backend_lat": 0,
        },
    )
    return write(generate(params), path)
