"""Typed, validated policy options.

Every policy and allocator declares a ``Params`` model (pydantic, ``extra="forbid"``).
Options arrive as a JSON object; a wrong type or an unknown key is a
:class:`~datasched.errors.UserError` naming the option, never a silent default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError

from datasched.errors import UserError

_FRIENDLY_TYPES = {"AllocationChoice": "allocator name or {name, options}"}


class PolicyParams(BaseModel):
    """Base of every parameter model: frozen, strict about unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)


P = TypeVar("P", bound=PolicyParams)


def parse_params(model: type[P], options: Mapping[str, Any] | None, owner: str) -> P:
    """Validate ``options`` against ``model``; errors name ``owner`` and each bad option."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise UserError(f"{owner}: options must be a JSON object, got {type(options).__name__}")
    try:
        return model.model_validate(dict(options))
    except ValidationError as exc:
        raise UserError(f"{owner}: {describe_validation_error(exc)}") from None


def describe_validation_error(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors():
        location = ".".join(str(part) for part in error["loc"]) or "(options)"
        if error["type"] == "extra_forbidden":
            problems.append(f"unknown option '{location}'")
        else:
            problems.append(f"option '{location}': {error['msg']} (got {error.get('input')!r})")
    return "; ".join(problems)


def describe_params(model: type[PolicyParams]) -> list[dict[str, str]]:
    """Name, type, default and description of each parameter, for ``datasched schedulers``."""
    rows = []
    for name, field in model.model_fields.items():
        annotation = field.annotation
        optional = type(None) in get_args(annotation) and get_origin(annotation) is not Literal
        if optional:  # "X | None": describe X, then say None is allowed
            annotation = next(a for a in get_args(annotation) if a is not type(None))
        if get_origin(annotation) is Literal:
            type_name = "|".join(str(a) for a in get_args(annotation))
        else:
            type_name = getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")
        type_name = _FRIENDLY_TYPES.get(type_name, type_name) + ("|None" if optional else "")
        if field.is_required():
            default = "required"
        else:
            value = field.get_default(call_default_factory=True)
            default = repr(getattr(value, "name", value)) if isinstance(value, BaseModel) else repr(value)
        rows.append({"name": name, "type": type_name, "default": default, "description": field.description or ""})
    return rows
