"""Locating the datasched-sim engine binary.

The Makefile builds it into ``build/sim/``; ``DATASCHED_SIM`` overrides the location
(useful for worktrees and installed copies), and ``datasched-sim`` on PATH is the last
resort.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from datasched.errors import UserError
from datasched.scenarios import build_document
from datasched.scenarios import scenario as find_scenario

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


def inspect_platform(platform: str | Path) -> dict[str, Any]:
    """The engine's view of a platform (``datasched-sim --inspect``: hosts with roles, speeds
    and cores, the compute and storage counts), or RuntimeError with the engine's message."""
    proc = subprocess.run(
        [str(find_engine()), "-p", str(platform), "--inspect"], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{platform}: {proc.stderr.strip() or 'datasched-sim --inspect failed'}")
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def run_experiment_mode(scenario: str, doc: dict[str, Any], platform: Path, prefix: Path) -> None:
    """Runs one of the engine's stand-alone experiment scenarios (``io-forwarding``,
    ``qos-staging``, ``interference``: datasched.scenarios): checks ``doc`` against the
    scenario's model first (ScenarioDocumentError, one line naming the field, before the
    engine starts), writes it beside the outputs as ``<prefix>_experiment.json`` (so a run can
    be replayed by hand), and leaves the scenario's ``<prefix>_*.csv`` for the caller to read.
    Raises RuntimeError with the engine's own message when it fails (e.g. a host the platform
    lacks), so a sweep reports the case's error line rather than a status."""
    kind = find_scenario(scenario)
    checked = build_document(kind.name, doc)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    experiment = Path(f"{prefix}_experiment.json")
    experiment.write_text(json.dumps(checked, indent=1, sort_keys=True))
    proc = subprocess.run(
        [str(find_engine()), kind.option, str(experiment), "-p", str(platform), "-e", str(prefix)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or f"datasched-sim failed ({proc.returncode})")
