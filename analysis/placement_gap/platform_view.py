"""Allocators against the optimum, the platform as an allocator sees it: the compute hosts as
the engine numbers them and their hop distances, so the optimum and the allocators place on the
same ids a simulation would use."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from datasched.errors import UserError
from datasched.policy.platform import HostInfo, PlatformView
from datasched.policy.topology import distances_for


def platform_view(platform: Path) -> PlatformView:
    """Compute hosts as the engine numbers them (``datasched-sim --inspect``) and their hop distances."""
    from datasched.engine import find_engine

    out = subprocess.run(
        [str(find_engine()), "-p", str(platform), "--inspect"], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise UserError(f"{platform}: {out.stderr.strip() or 'datasched-sim --inspect failed'}")
    hosts = tuple(
        HostInfo(int(h["id"]), str(h["name"]), dict(h["properties"]))
        for h in json.loads(out.stdout)["hosts"]
        if h["role"] == "compute_node"
    )
    distances = distances_for(hosts, platform)
    if distances is None:
        raise UserError(f"{platform}: no cluster topology, so no hop distances to place data by")
    return PlatformView(hosts, distances)
