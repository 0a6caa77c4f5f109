"""Seed 001 Tables 1-3 step 2a, the hardware: where the files live (Lustre, SSD, memory) at
which rates, and the one-node platform that stands for it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from datasched.analysis.seed001_pagecache.spec import GB, NIC_BW, SSD_READ_BW, SSD_WRITE_BW, PageCacheSpec, ParamSet


@dataclass(frozen=True)
class Hardware:
    """One storage configuration: where the files live and at which rates."""

    kind: str  # lustre | ssd | memory
    memory_bw: float
    ost_count: int = 1
    ost_bw: float = 1e9
    cache: float | None = None  # dirty ratio of the node page cache; None: no cache

    @property
    def name(self) -> str:
        parts = [self.kind, f"mem={self.memory_bw / GB:g}GBps"]
        if self.kind == "lustre":
            parts += [f"ost={self.ost_count}x{self.ost_bw / GB:g}GBps"]
        parts.append("nocache" if self.cache is None else f"dirty={self.cache:g}")
        return ",".join(parts)


def write_platform(hw: Hardware, capacity: float, path: Path) -> Path:
    """One compute node (a one-level fat-tree of 2: the second node stays idle), its DRAM at
    ``memory_bw``, its NVM endpoint the SSD (or, for ``memory``, DRAM-speed), ``ost_count``
    I/O servers whose front-end links are the OSTs, and the node page cache (platform
    parameters node.page_cache_*) unless the hardware has none."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    memory = hw.kind == "memory"
    cached = hw.cache is not None and not memory  # a tmpfs bypasses the page cache
    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=2, levels=1), link_bw=NIC_BW, link_lat=0),
        node={
            "dram_bw": hw.memory_bw,
            "dram_size": 192e9,
            "nvm_read_bw": hw.memory_bw if memory else SSD_READ_BW,
            "nvm_write_bw": hw.memory_bw if memory else SSD_WRITE_BW,
            "nvm_capacity": 800e9,
            **({"page_cache_capacity": capacity, "page_cache_dirty_ratio": hw.cache} if cached else {}),
        },
        storage={
            "io_servers": hw.ost_count,
            "node_nic_bw": NIC_BW,
            "server_frontend_bw": hw.ost_bw,
            "frontend_lat": 0,
            "backend_lat": 0,
        },
    )
    return write(generate(params), path)


def hardware_for(spec: PageCacheSpec, kind: str, p: ParamSet, cache: bool) -> Hardware:
    """The hardware of one run. Without a cache, the SSD's flows never cross the DRAM link
    and Lustre's cross it only as the read's last hop, which cannot limit them when the
    smallest memory rate exceeds the largest OST aggregate: those runs take the first memory
    rate only (one run instead of one per rate; the sweep's values are the same)."""
    never_limits = min(spec.memory_bws) >= max(n * b for n, b in spec.osts)
    shared = kind == "ssd" or (kind == "lustre" and never_limits)
    memory_bw = spec.memory_bws[0] if shared and not cache else p.memory_bw
    lustre = kind == "lustre"
    return Hardware(
        kind,
        memory_bw,
        p.ost_count if lustre else 1,
        p.ost_bw if lustre else 1e9,  # no item goes to central storage: unused
        p.dirty_ratio if cache and kind != "memory" else None,
    )
