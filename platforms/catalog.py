"""The named platforms of the paper reproductions, checked in under ``platforms/catalog``.

Regenerate them all with ``datasched platform catalog --out platforms/catalog``; a test
checks the checked-in files are byte-identical to a fresh generation.
"""

from __future__ import annotations

from pathlib import Path

from .generator import generate, write
from .params import (
    DragonflyParams,
    FatTreeParams,
    ForwardingParams,
    InterconnectParams,
    StagingParams,
    StorageNetworkParams,
    SystemParams,
    TorusParams,
)

# Seed 000 interconnects: single-application set (64/72 nodes), multi-application set (512/600).
_TOPOLOGIES = {
    "torus-4x4x4": TorusParams(dims=(4, 4, 4)),
    "torus-8x8x8": TorusParams(dims=(8, 8, 8)),
    "fattree-4-3": FatTreeParams(k=4, levels=3),
    "fattree-8-3": FatTreeParams(k=8, levels=3),
    "dragonfly-2-4-2": DragonflyParams(p=2, a=4, h=2),
    "dragonfly-4-6-4": DragonflyParams(p=4, a=6, h=4),
}


def catalog() -> dict[str, SystemParams | ForwardingParams | StagingParams]:
    """Name -> parameters, in a fixed order."""
    entries: dict[str, SystemParams | ForwardingParams | StagingParams] = {}
    for topo_name, topo in _TOPOLOGIES.items():
        for mode in ("unified", "san"):
            name = f"seed000-{topo_name}-{mode}"
            entries[name] = SystemParams(
                name=name,
                storage_mode=mode,
                interconnect=InterconnectParams(topology=topo),
                storage=StorageNetworkParams(io_servers=4),  # SAN-k = 4 (Table 1, single app)
            )
    entries["seed002-forwarding"] = ForwardingParams(name="seed002-forwarding")
    entries["seed003-staging"] = StagingParams(name="seed003-staging")
    entries["small-test-unified"] = SystemParams(
        name="small-test-unified",
        storage_mode="unified",
        interconnect=InterconnectParams(topology=TorusParams(dims=(2, 2, 2))),
        storage=StorageNetworkParams(io_servers=2),
    )
    entries["small-test-san"] = SystemParams(
        name="small-test-san",
        storage_mode="san",
        interconnect=InterconnectParams(topology=TorusParams(dims=(2, 2, 2))),
        storage=StorageNetworkParams(io_servers=2),
    )
    return entries


def write_catalog(out_dir: str | Path) -> list[Path]:
    out = Path(out_dir)
    return [write(generate(params), out / f"{name}.xml") for name, params in catalog().items()]
