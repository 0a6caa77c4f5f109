"""Cases driven by a scenario's JSON Schema (sim/schemas/). Negative: for every field the
schema describes, values it forbids (below its minimum, above its maximum, of another type,
empty where it must not be, not in its enumeration, null), the field removed where it is
required, and an unknown key in every object. Boundary: every number set to the ends of its
range, which the engine must accept (so a range wider than the engine's fails too). Each case
is (the changed document, the field path as the engine names it)."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from typing import Any

REMOVE = object()
UNKNOWN_KEY = "zz_unknown"


def _resolve(root: dict, node: dict, value: Any) -> dict:
    if "$ref" in node:
        return _resolve(root, root["$defs"][node["$ref"].split("/")[-1]], value)
    if "discriminator" in node:  # the member the document's tag selects
        tag = node["discriminator"]["propertyName"]
        return _resolve(root, {"$ref": node["discriminator"]["mapping"][value[tag]]}, value)
    return node


def _bad_values(node: dict, value: Any) -> list[Any]:
    """Values ``node`` forbids, for a field whose valid value is ``value``."""
    bad: list[Any] = [None]
    kind = node.get("type")
    if kind in ("integer", "number"):
        bad += [True, "1"]
        if "minimum" in node:
            bad.append(node["minimum"] - 1)
        if "exclusiveMinimum" in node:
            bad.append(node["exclusiveMinimum"])
        if "maximum" in node:
            bad.append(node["maximum"] + 1 if kind == "integer" else node["maximum"] * 2)
        if kind == "integer":
            bad.append(node.get("minimum", 0) + 0.5)
    elif kind == "string":
        bad.append(1)
        if node.get("minLength", 0) > 0:
            bad.append("")
        if "enum" in node or "const" in node:
            bad.append("zz_not_an_option")
    elif kind == "boolean":
        bad += [1, "true"]
    elif kind == "array":
        bad.append("x")
        if node.get("minItems", 0) > 0:
            bad.append(value[: node["minItems"] - 1])
        if "maxItems" in node:
            bad.append(value + value[:1] * (node["maxItems"] + 1 - len(value)))
        if node.get("uniqueItems") and value:
            bad.append(value + value[:1])
    elif kind == "object":
        bad.append(1)
    elif "anyOf" in node:
        bad.append(True)
    return bad


def _cases(root: dict, node: dict, value: Any, path: tuple) -> Iterator[tuple[tuple, Any]]:
    node = _resolve(root, node, value)
    if path:
        for bad in _bad_values(node, value):
            yield path, bad
    if node.get("type") == "object":
        yield (*path, UNKNOWN_KEY), 1
        for key, child in node["properties"].items():
            if key in value:
                if key in node.get("required", ()):
                    yield (*path, key), REMOVE
                yield from _cases(root, child, value[key], (*path, key))
            else:  # an optional field left out: given a forbidden value
                absent = _resolve(root, child, {})
                if absent.get("type") not in ("object", "array", None):
                    for bad in _bad_values(absent, None):
                        yield (*path, key), bad
    elif node.get("type") == "array" and value and "items" in node:
        yield from _cases(root, node["items"], value[0], (*path, 0))


def changed(doc: dict, path: tuple, bad: Any) -> dict:
    out = copy.deepcopy(doc)
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    if bad is REMOVE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = bad
    return out


def engine_field(path: tuple) -> str:
    """The engine's name of the field at ``path``: an entry of a list is named by the list
    ("hpl.hosts" for ("hpl", "hosts", 0)), as its reader reports it."""
    named = ""
    for key in path:
        if isinstance(key, int):
            named += f"[{key}]"
        else:
            named += f".{key}" if named else key
    while named.endswith("]"):
        named = named[: named.rindex("[")]
    return named


def negative_cases(schema: dict, doc: dict) -> list[tuple[dict, str, str]]:
    """(changed document, the engine's field name, a label) for every case of ``doc``."""
    out = []
    for path, bad in _cases(schema, schema, doc, ()):
        label = f"{engine_field(path) or 'document'}={'<removed>' if bad is REMOVE else json.dumps(bad)[:30]}"
        out.append((changed(doc, path, bad), engine_field(path), label))
    return out


def _boundary(root: dict, node: dict, value: Any, path: tuple) -> Iterator[tuple[tuple, Any]]:
    node = _resolve(root, node, value)
    if node.get("type") in ("integer", "number") and path:
        if "minimum" in node:
            yield path, node["minimum"]
        if "exclusiveMinimum" in node:
            yield path, math.nextafter(node["exclusiveMinimum"], math.inf)
        if "maximum" in node:
            yield path, node["maximum"]
    elif node.get("type") == "object":
        for key, child in node["properties"].items():
            if key in value:
                yield from _boundary(root, child, value[key], (*path, key))
    elif node.get("type") == "array" and value and "items" in node:
        yield from _boundary(root, node["items"], value[0], (*path, 0))


def boundary_cases(schema: dict, doc: dict) -> list[tuple[dict, str, str]]:
    """(changed document, the engine's field name, a label): each number of ``doc`` at an end
    of its range."""
    return [
        (changed(doc, path, value), engine_field(path), f"{engine_field(path)}={value!r}")
        for path, value in _boundary(schema, schema, doc, ())
    ]
