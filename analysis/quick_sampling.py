"""Is the quick variant an honest sample of the full one?

A quick variant exists to be cheap, and the cheap way that flatters is to keep one value of a
swept dimension, the value where the paper's claim comes out best (seed 002's quick run once
kept only HDD contention α = 0.1, and called 6 of 10 claims reproduced that the full sweep did
not). :func:`single_value_reductions` lists every swept dimension of the full config (a list of
two or more scalars, at any depth of an artifact's section) that the quick config reduces to a
single value; each must have a written reason in ``config/quick-reductions.yaml``, or the test
``tests/unit/analysis/test_quick_sampling.py`` fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml


def _scalars(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)


def single_value_reductions(quick: Mapping[str, Any], full: Mapping[str, Any]) -> dict[str, list[Any]]:
    """``"artifact.key[.key...]"`` -> the full variant's values, for every swept dimension of
    ``full["artifacts"]`` that ``quick["artifacts"]`` reduces to one value (or leaves out)."""
    out: dict[str, list[Any]] = {}

    def walk(q: Any, f: Any, path: str) -> None:
        if isinstance(f, Mapping):
            for key, value in f.items():
                walk(q.get(key) if isinstance(q, Mapping) else None, value, f"{path}.{key}" if path else str(key))
        elif _scalars(f) and len(f) >= 2 and not (_scalars(q) and len(q) >= 2):
            out[path] = list(f)

    full_artifacts = full.get("artifacts", {})
    quick_artifacts = quick.get("artifacts", {})
    for artifact, section in full_artifacts.items():
        if artifact in quick_artifacts:
            walk(quick_artifacts[artifact], section, artifact)
    return out


def load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text()) or {}
