"""Reading a SimGrid platform file on the decision side, as leniently as SimGrid reads it.

SimGrid's own platform parser accepts whitespace before the XML declaration (Batsim's
``energy_platform_homogeneous_no_net_128.xml`` starts with a blank line, and real Batsim
runs it), while a strict XML parser refuses a declaration that is not at the very start.
A policy that reads the platform (link rates, topology coordinates) must accept what the
engine accepts, so the leading whitespace is dropped before parsing.

A decision process reads the file more than once at start-up (link rates, topology
coordinates): the parsed tree is kept per file version (path, size, modification time), so
a 600-host platform is parsed once (0.4 s) instead of once per reader. Callers only read it."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from pathlib import Path


def platform_root(path: Path) -> ET.Element:
    """The root element of the platform file ``path`` (OSError or ET.ParseError on failure);
    not to be modified (it is shared by every reader of the same file version)."""
    stat = Path(path).stat()
    return _parsed(str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _parsed(resolved: str, size: int, mtime_ns: int) -> ET.Element:
    """Parses one version of a file: size and mtime are part of the key, so a rewritten file is read again."""
    return ET.fromstring(Path(resolved).read_bytes().lstrip())
