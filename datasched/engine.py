"""Locating the datasched-sim engine binary and its library.

The Makefile builds it into ``build/sim/``; ``DATASCHED_SIM`` overrides the location
(useful for worktrees and installed copies), and ``datasched-sim`` on PATH is the last
resort. This module stays light (no policy or scenario models at import): every
simulation's own process imports it, and an import here costs each of a sweep's runs.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

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


#: set in the environment once tcmalloc is preloaded (or deliberately not), so that an
#: in-process run (datasched.policy.inprocess) does not re-execute itself to preload it
PRELOADED_VARIABLE = "DATASCHED_INPROCESS_PRELOADED"


def engine_library() -> Path:
    """``libdatasched-sim.so`` beside the engine binary (the build folder) or in ``../lib``
    (an installed copy such as the Nix package); ``DATASCHED_SIM_LIBRARY`` overrides both."""
    override = os.environ.get("DATASCHED_SIM_LIBRARY")
    if override:
        candidates = [Path(override)]
    else:
        folder = find_engine().parent
        candidates = [folder / "libdatasched-sim.so", folder.parent / "lib" / "libdatasched-sim.so"]
    for path in candidates:
        if path.is_file():
            return path
    raise UserError(f"the engine library is missing ({candidates[0]}); build it with `make engine`")


def tcmalloc_library() -> str | None:
    """tcmalloc_minimal, which the engine binary is linked with when available: its
    allocation pattern is ~15 % slower under glibc malloc (sim/CMakeLists.txt)."""
    return ctypes.util.find_library("tcmalloc_minimal")


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
    # imported here: their models cost ~0.25 s to build, and every simulation imports this
    # module to find the engine (docs/benchmarks.md, a unit's own process)
    from datasched.scenarios import build_document
    from datasched.scenarios import scenario as find_scenario

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
