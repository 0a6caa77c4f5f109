"""Deterministic JSON output shared by every workload writer.

Why a helper: the project promises that the same inputs and seed give byte-identical
files. ``json.dumps`` is deterministic only when key order and float formatting are
fixed, so every writer goes through :func:`dumps` (sorted keys, fixed indentation,
floats normalised by :func:`normalise_number`).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

#: Significant digits kept for generated floats. Enough for byte/flop counts and
#: seconds at microsecond resolution, few enough that platform-specific last-bit
#: differences in arithmetic never leak into the file.
FLOAT_SIGNIFICANT_DIGITS = 12


def normalise_number(value: float | int) -> float | int:
    """Round floats to a fixed number of significant digits; integral floats that fit
    exactly become ints (``2.0`` -> ``2``) so the text form does not depend on how a
    value was computed."""
    if isinstance(value, bool) or isinstance(value, int):
        return value
    if not math.isfinite(value):
        raise ValueError(f"non-finite number {value!r} cannot be written to a workload")
    rounded = float(f"{value:.{FLOAT_SIGNIFICANT_DIGITS}g}")
    if rounded.is_integer() and abs(rounded) < 2**53:
        return int(rounded)
    return rounded


def normalise(obj: Any) -> Any:
    """Recursively normalise numbers inside dicts/lists/tuples."""
    if isinstance(obj, dict):
        return {str(k): normalise(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [normalise(v) for v in obj]
    if isinstance(obj, float) or (isinstance(obj, int) and not isinstance(obj, bool)):
        return normalise_number(obj)
    return obj


def dumps(obj: Any) -> str:
    """The canonical text of a workload document (sorted keys, 1-space indent, newline)."""
    return json.dumps(normalise(obj), sort_keys=True, indent=1, ensure_ascii=True, allow_nan=False) + "\n"


def write_json(obj: Any, path: str | Path) -> Path:
    """Write ``obj`` canonically to ``path`` (parent folders are created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(obj), encoding="ascii")
    return path


def sha256_of_file(path: str | Path) -> str:
    """Content hash recorded in metadata instead of an absolute path, so the output does
    not depend on where the input file lives."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
