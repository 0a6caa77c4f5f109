"""Running the engine on one experiment document until it has read it: the platform has one
host and no roles, so a document the reader accepts is refused only later, when it is resolved
on the platform (``Scenario::prepare``, sim/src/scenarios/scenario.hpp), by a line that names
the platform file; the reader's own refusals (``Scenario::load``) cannot name it, as they come
before SimGrid has read the platform."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from datasched.engine import find_engine
from datasched.scenarios import SCENARIOS

PLATFORM_NAME = "one-host.xml"
ONE_HOST = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="nowhere" speed="1Gf"/>
  </zone>
</platform>
"""


def one_host_platform(directory: Path) -> Path:
    path = directory / PLATFORM_NAME
    path.write_text(ONE_HOST)
    return path


def read_by_engine(directory: Path, scenario: str, doc: Any, *extra: str) -> subprocess.CompletedProcess:
    """The engine run on ``doc`` (as ``exp.json``) against the one-host platform; ``extra``:
    more engine options."""
    experiment = directory / "exp.json"
    experiment.write_text(json.dumps(doc))
    platform = directory / PLATFORM_NAME
    if not platform.exists():
        one_host_platform(directory)
    command = [str(find_engine()), SCENARIOS[scenario].option, str(experiment), "-p", str(platform)]
    command += ["-e", str(directory / "out"), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def error_line(proc: subprocess.CompletedProcess) -> str:
    """The engine's one error line (asserting exit status 1 and a single line)."""
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("datasched-sim: error: "), proc.stderr
    return lines[0]


def passed_the_reader(proc: subprocess.CompletedProcess) -> bool:
    """Whether the engine accepted the document and stopped only on the platform (after the
    warning of ``--allow-long-run`` about a long run, if any)."""
    lines = proc.stderr.strip().splitlines()
    warnings = [line for line in lines if line.startswith("datasched-sim: warning: ")]
    assert proc.returncode == 1 and len(lines) == len(warnings) + 1, (proc.returncode, proc.stderr)
    return lines[-1].startswith("datasched-sim: error: ") and f"{PLATFORM_NAME}'" in lines[-1]
