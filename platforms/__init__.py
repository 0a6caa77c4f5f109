"""Platform generator: SimGrid platform XMLs for the seeds' machines.

``generate(params) -> PlatformModel`` and ``write(model, path)``; parameters are the
pydantic models of :mod:`datasched.platforms.params`. Conventions (host names, roles,
properties, which links model what) are in ``platforms/README.md``.
"""

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
