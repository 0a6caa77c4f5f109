"""Platform generator: SimGrid platform XMLs for the seeds' machines.

``generate(params) -> PlatformModel`` and ``write(model, path)``; parameters are the
pydantic models of :mod:`datasched.platforms.params`. Conventions (host names, roles,
properties, which links model what) are in ``platforms/README.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .generator import generate, parse_params, to_xml, write
    from .model import PlatformModel
    from .params import (
        DragonflyParams,
        FatTreeParams,
        ForwardingParams,
        InterconnectParams,
        NodeParams,
        OnDemandParams,
        StagingParams,
        StorageNetworkParams,
        SystemParams,
        TorusParams,
    )

# Where each public name lives. Imported on first use (PEP 562), so that a process needing
# one small module of the package (the decision process reads torus coordinates through
# ``platforms.torus``) does not build the generator's pydantic models at start-up.
_HOME = {
    "generate": "generator",
    "parse_params": "generator",
    "to_xml": "generator",
    "write": "generator",
    "PlatformModel": "model",
    **dict.fromkeys(
        [
            "DragonflyParams",
            "FatTreeParams",
            "ForwardingParams",
            "InterconnectParams",
            "NodeParams",
            "OnDemandParams",
            "StagingParams",
            "StorageNetworkParams",
            "SystemParams",
            "TorusParams",
        ],
        "params",
    ),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)


__all__ = [
    "DragonflyParams",
    "FatTreeParams",
    "ForwardingParams",
    "InterconnectParams",
    "NodeParams",
    "OnDemandParams",
    "PlatformModel",
    "StagingParams",
    "StorageNetworkParams",
    "SystemParams",
    "TorusParams",
    "generate",
    "parse_params",
    "to_xml",
    "write",
]
