"""How platform integration tests ask SimGrid about a platform.

Preferred: the datasched engine (``datasched-sim --inspect [--route A B]``), found via
``$DATASCHED_SIM`` or ``build/sim/datasched-sim``. Until it exists (and for the timing
checks, which need to start raw activities), we compile ``sgprobe.cpp`` against the
engine's SimGrid (the project's patched build, ``build/simgrid/prefix`` or
``$DATASCHED_SIMGRID_PREFIX``) into pytest's temporary directory: SimGrid itself then
loads, routes and times the generated platforms.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]


def _engine() -> Path | None:
    if os.environ.get("DATASCHED_PLATFORM_PROBE") == "sgprobe":
        return None  # force SimGrid-only checks (e.g. to compare with the engine)
    candidates = [os.environ.get("DATASCHED_SIM"), REPO / "build/sim/datasched-sim"]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return Path(c)
    return None


@pytest.fixture(scope="session")
def sgprobe(tmp_path_factory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ not available to build the SimGrid probe")
    prefix = Path(os.environ.get("DATASCHED_SIMGRID_PREFIX", REPO / "build/simgrid/prefix"))
    out = tmp_path_factory.mktemp("sgprobe") / "sgprobe"
    proc = subprocess.run(
        ["g++", "-std=c++17", "-O1", "-o", str(out), str(HERE / "sgprobe.cpp"), f"-I{prefix}/include"]
        + [f"-L{prefix}/lib", f"-Wl,-rpath,{prefix}/lib", "-lsimgrid"],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot build the SimGrid probe (run `make simgrid` first): {proc.stderr[-500:]}")
    return out


def _json_from(stdout: str) -> dict:
    return json.loads(stdout[stdout.index("{") :])


@pytest.fixture(scope="session")
def inspect_platform(sgprobe):
    """inspect_platform(xml_path, routes=[(src, dst), ...]) -> dict like --inspect."""
    engine = _engine()

    def call(path: Path, routes) -> dict:
        if engine is not None:
            cmd = [str(engine), "-p", str(path), "--inspect"]
        else:
            cmd = [str(sgprobe), str(path)]
        for src, dst in routes:
            cmd += ["--route", src, dst]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"SimGrid could not load {path}: {proc.stderr[-2000:]}"
        return _json_from(proc.stdout)

    def run(path: Path, routes=()) -> dict:
        routes = list(routes)
        if engine is None or len(routes) <= 1:
            return call(path, routes)
        # the engine takes one --route pair per call: ask pair by pair and merge
        info = call(path, routes[:1])
        for pair in routes[1:]:
            info["routes"] += call(path, [pair])["routes"]
        return info

    run.backend = "engine" if engine is not None else "sgprobe"  # type: ignore[attr-defined]
    return run


@pytest.fixture(scope="session")
def run_activities(sgprobe, tmp_path_factory):
    """run_activities(xml_path, lines) -> {name: completion date}; ptask_L07 and its default
    solver (weighted fair-bottleneck in the project's SimGrid), like the engine."""
    workdir = tmp_path_factory.mktemp("activities")

    def run(path: Path, lines: list[str]) -> dict[str, float]:
        spec = workdir / f"acts{len(list(workdir.iterdir()))}.txt"
        spec.write_text("\n".join(lines) + "\n")
        proc = subprocess.run(
            [
                str(sgprobe),
                str(path),
                "--run",
                str(spec),
                "--cfg=host/model:ptask_L07",
                "--log=root.thres:warning",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return {f["name"]: f["time"] for f in _json_from(proc.stdout)["finished"]}

    return run
