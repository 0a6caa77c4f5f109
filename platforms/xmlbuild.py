"""Small ElementTree helpers that keep the generated XML deterministic.

SimGrid parses numbers with unit suffixes; we always write base units (``Bps``, ``s``,
``f``, bytes) with ``repr``-exact numbers, so the same parameters give the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

DOCTYPE = '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
PLATFORM_VERSION = "4.1"


def num(value: float) -> str:
    """Shortest exact text for a number: ints without a dot, floats via ``repr``."""
    if float(value).is_integer() and abs(value) < 1e18:
        return str(int(value))
    return repr(float(value))


def bw(value: float) -> str:
    return f"{num(value)}Bps"


def lat(value: float) -> str:
    return f"{num(value)}s"


def speed(value: float) -> str:
    return f"{num(value)}f"


def sub(parent: ET.Element, tag: str, **attrs: str) -> ET.Element:
    """Append a child; attributes keep their insertion order (ElementTree preserves it)."""
    return ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})


def props(element: ET.Element, properties: dict[str, str]) -> None:
    """Attach ``<prop>`` children, sorted by key so the output never depends on dict order."""
    for key in sorted(properties):
        sub(element, "prop", id=key, value=properties[key])


def new_platform() -> ET.Element:
    return ET.Element("platform", {"version": PLATFORM_VERSION})


def to_bytes(root: ET.Element) -> bytes:
    """Serialise with the XML declaration and SimGrid's DOCTYPE, two-space indented."""
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    text = f"<?xml version='1.0' encoding='utf-8'?>\n{DOCTYPE}\n{body}\n"
    return text.encode("utf-8")


def write_bytes(data: bytes, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
