"""Reading a SimGrid platform file on the decision side, as leniently as SimGrid reads it.

SimGrid's own platform parser accepts whitespace before the XML declaration (Batsim's
``energy_platform_homogeneous_no_net_128.xml`` starts with a blank line, and real Batsim
runs it), while a strict XML parser refuses a declaration that is not at the very start.
A policy that reads the platform (link rates, topology coordinates) must accept what the
engine accepts, so the leading whitespace is dropped before parsing."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path


def platform_root(path: Path) -> ET.Element:
    """The root element of the platform file ``path`` (OSError or ET.ParseError on failure)."""
    return ET.fromstring(Path(path).read_bytes().lstrip())
