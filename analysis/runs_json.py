"""One way to keep an artifact's per-run rows beside its results (``runs.json``): every row,
keys sorted, one-space indent, so the same runs give the same bytes and a diff of two runs of
the pipeline shows only what changed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def write_runs_json(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    path.write_text(json.dumps(list(rows), indent=1, sort_keys=True) + "\n")
