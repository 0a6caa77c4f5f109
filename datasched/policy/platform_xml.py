"""Reading a SimGrid platform file on the decision side, as leniently as SimGrid reads it.

SimGrid's own platform parser accepts whitespace before the XML declaration (Batsim's
``energy_platform_homogeneous_no_net_128.xml`` starts with a blank line, and real Batsim
runs it), while a strict XML parser refuses a declaration that is not at the very start.
A policy that reads the platform (link rates, topology coordinates) must accept what the
engine accepts, so the leading whitespace is dropped before parsing.

A decision process reads the file more than once at start-up (link rates, topology
coordinates): the parsed tree is kept per file version (path, size, modification time), so
a 600-host platform is parsed once instead of once per reader. Callers only read it.

The decision side reads ``<link>`` and ``<cluster>`` elements (their attributes) and
nothing else, so only those are built, as children of one root: a routed platform is
mostly routes and their link references (58,000 ``<link_ctn>`` and 17,000 routes for
the 600-host dragonfly), and building them took 0.45 s against 0.24 s for the kept ones."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from pathlib import Path

from datasched.errors import refuse_special_file


def platform_root(path: Path) -> ET.Element:
    """A root element whose children are the ``<link>`` and ``<cluster>`` elements of the
    platform file ``path``, in file order, with their attributes (OSError or ET.ParseError
    on failure); not to be modified (it is shared by every reader of the same file version)."""
    refuse_special_file(path)
    stat = Path(path).stat()
    return _parsed(str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _parsed(resolved: str, size: int, mtime_ns: int) -> ET.Element:
    """Parses one version of a file: size and mtime are part of the key, so a rewritten file is read again."""
    parser = ET.XMLParser(target=_LinksAndClusters())
    parser.feed(Path(resolved).read_bytes().lstrip())
    return parser.close()


class _LinksAndClusters:
    """XMLParser target that builds only the elements the decision side reads. It has no
    ``end`` method, so the parser makes one call per element (its start) and the whole file
    is still checked as XML."""

    KEPT = frozenset({"link", "cluster"})

    def __init__(self) -> None:
        self.root = ET.Element("platform")

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if tag in self.KEPT:
            ET.SubElement(self.root, tag, attrs)

    def close(self) -> ET.Element:
        return self.root
