"""Numbers written into result paths and keys so that they read back exactly, and the paths a
config names (relative to the repository unless absolute).

A path built with ``f"{x:g}"`` keeps six significant digits: 1 MiB (1048576) became
``g=1.04858e+06``, read back as 1048580, and every lookup of the 1 MiB cases missed (a NaN in
the report). Every float that names a case goes through :func:`number`: integral values are
written as integers, others with the shortest representation that round-trips (``repr``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any


def number(value: float) -> str:
    """``value`` as a path component that ``float()`` reads back to the same float."""
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{value!r} cannot name a case")
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    return repr(x)


def path_fields(path: str) -> dict[str, str]:
    """``"a=1/b=x"`` -> ``{"a": "1", "b": "x"}`` (the artifacts' result paths)."""
    return dict(part.split("=", 1) for part in path.split("/"))


def under_root(value: Any, root: Path) -> Path:
    """A config's path ``value``: as it is when absolute, else relative to ``root`` (the
    repository), so a config means the same files whatever the working directory."""
    path = Path(str(value))
    return path if path.is_absolute() else root / path
