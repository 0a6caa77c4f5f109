"""Host and link names: one place, so the engine, schedulers and tests agree.

Batsim (and our engine) number compute nodes by *sorted host name*. SimGrid's
``<cluster>`` names hosts ``prefix + number`` without zero padding, so plain
``node-0 .. node-63`` would sort as node-0, node-1, node-10, ... and Batsim ids would
not follow the topology. We therefore number compute nodes from ``10**w`` where ``w`` is
the number of digits of ``n - 1``: every name has the same width, byte order equals
numeric order, and **Batsim id == topology rank**. For 64 nodes the names are
``node-100 .. node-163`` (rank 0 .. 63); for 600 nodes ``node-1000 .. node-1599``.
Read the rank back with :func:`rank_of`.
"""

from __future__ import annotations

import re

NODE_PREFIX = "node-"
INTERCONNECT_ZONE = "ic"
_NODE_RE = re.compile(r"^node-(\d+)$")


def rank_offset(node_count: int) -> int:
    """``10**w`` with ``w`` = digits of the largest rank (1 for a single node)."""
    return 10 ** len(str(max(node_count - 1, 0)))


def node_name(rank: int, node_count: int) -> str:
    return f"{NODE_PREFIX}{rank_offset(node_count) + rank}"


def rank_of(name: str, node_count: int) -> int:
    """Topology rank of a compute host name (inverse of :func:`node_name`)."""
    match = _NODE_RE.match(name)
    if not match:
        raise ValueError(f"{name!r} is not a compute node name")
    rank = int(match.group(1)) - rank_offset(node_count)
    if not 0 <= rank < node_count:
        raise ValueError(f"{name!r} is not a node of a {node_count}-node platform")
    return rank


def padded(prefix: str, index: int, count: int) -> str:
    """Zero-padded names for hosts we declare ourselves (io-0 .. io-127 -> io-000 ...)."""
    return f"{prefix}{index:0{len(str(max(count - 1, 0)))}d}"


def dram_name(node: str) -> str:
    return f"{node}-dram"


def nvm_name(node: str) -> str:
    return f"{node}-nvm"


def device_zone(node: str) -> str:
    return f"{node}-dev"
