"""Public entry points: ``generate(params) -> PlatformModel`` and ``write(model, path)``.

``parse_params`` turns a plain mapping (YAML/JSON/CLI) into validated parameters and
re-raises validation failures as ``UserError`` whose message names the parameter path,
e.g. ``interconnect.link_bw: Input should be greater than 0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from datasched.errors import UserError

from .model import PlatformModel
from .params import ForwardingParams, OnDemandParams, PlatformParams, StagingParams, SystemParams
from .setups import build_forwarding, build_ondemand, build_staging
from .system import build_system
from .validate import check_model
from .xmlbuild import to_bytes, write_bytes

_ADAPTER: TypeAdapter = TypeAdapter(PlatformParams)


def parse_params(
    data: Mapping[str, Any], source: str = "parameters"
) -> SystemParams | ForwardingParams | StagingParams | OnDemandParams:
    """Validate a mapping; ``kind`` selects system (default), forwarding, staging or ondemand."""
    data = dict(data)
    data.setdefault("kind", "system")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise UserError(f"{source}: invalid platform parameters: {format_errors(exc)}") from None


def format_errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        # Drop the discriminator tag pydantic inserts (e.g. 'system', 'torus').
        loc = [
            str(x)
            for x in err["loc"]
            if x not in ("system", "forwarding", "staging", "ondemand", "torus", "fat_tree", "dragonfly")
        ]
        where = ".".join(loc) or "(top level)"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def generate(params: SystemParams | ForwardingParams | StagingParams | OnDemandParams) -> PlatformModel:
    """Build the platform model; the result passes our structural checks or raises."""
    if isinstance(params, SystemParams):
        model = build_system(params)
    elif isinstance(params, ForwardingParams):
        model = build_forwarding(params)
    elif isinstance(params, StagingParams):
        model = build_staging(params)
    elif isinstance(params, OnDemandParams):
        model = build_ondemand(params)
    else:  # pragma: no cover - guarded by the type
        raise TypeError(f"unsupported parameters {type(params).__name__}")
    check_model(model)
    return model


def to_xml(model: PlatformModel) -> bytes:
    return to_bytes(model.root)


def write(model: PlatformModel, path: str | Path) -> Path:
    """Write the platform XML (byte-identical for identical parameters)."""
    return write_bytes(to_xml(model), path)
