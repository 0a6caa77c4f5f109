"""Locating the datasched-sim engine binary.

The Makefile builds it into ``build/sim/``; ``DATASCHED_SIM`` overrides the location
(useful for worktrees and installed copies), and ``datasched-sim`` on PATH is the last
resort.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from datasched.errors import UserError

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ENGINE = REPO_ROOT / "build" / "sim" / "datasched-sim"


def find_engine() -> Path:
    """Returns the path of the engine binary, or raises UserError saying how to build it."""
    override = os.environ.get("DATASCHED_SIM")
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise UserError(f"DATASCHED_SIM={override} is not an executable file")
        return path
    if DEFAULT_ENGINE.is_file():
        return DEFAULT_ENGINE
    on_path = shutil.which("datasched-sim")
    if on_path:
        return Path(on_path)
    raise UserError(f"the engine binary is missing ({DEFAULT_ENGINE}); build it with `make engine`")
