"""One list of a run's output files: the engine prints its own (``--list-outputs``), the runner
removes every one of them before a run, so no file of an earlier run survives beside a later
one (before: a stale ``out_nvm.csv`` or ``out_forwarders.csv`` stayed in the folder)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from datasched.cli import main
from datasched.engine import find_engine
from datasched.runner import OUTPUT_SUFFIXES

pytestmark = pytest.mark.engine

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def engine_suffixes() -> list[str]:
    out = subprocess.run([str(find_engine()), "--list-outputs"], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_runner_knows_every_file_the_engine_may_write():
    suffixes = engine_suffixes()
    assert "jobs.csv" in suffixes and "nvm.csv" in suffixes
    assert set(suffixes) <= set(OUTPUT_SUFFIXES)


def test_no_file_of_an_earlier_run_survives_a_later_one(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    for suffix in engine_suffixes():
        (folder / f"out_{suffix}").write_text("stale\n")
    code = main(
        [
            "run",
            "--platform",
            str(EXAMPLES / "demo_platform.xml"),
            "--workload",
            str(EXAMPLES / "demo_workload.json"),
            "--scheduler",
            "fcfs",
            "--output",
            str(folder),
        ]
    )
    assert code == 0
    stale = [p.name for p in folder.iterdir() if p.is_file() and p.read_text() == "stale\n"]
    assert stale == []
