"""Issue 33's defaults of `datasched run`: our policies run in process unless `--protocol`
(pybatsim schedulers always over the protocol); relative paths mean what they mean in the
caller's shell; a decision process's traceback is shown as it is. Which path a run took is read
from its ``out_run.json`` (the command lines the runner started)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from datasched.cli import main

pytestmark = pytest.mark.engine

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DATA = Path(__file__).resolve().parents[2] / "data"


def _run(tmp_path: Path, scheduler: str, *extra: str, output: str = "out") -> int:
    return main(
        [
            "run",
            "--platform",
            str(EXAMPLES / "demo_platform.xml"),
            "--workload",
            str(EXAMPLES / "demo_workload.json"),
            "--scheduler",
            scheduler,
            "--output",
            str(tmp_path / output),
            *extra,
        ]
    )


def _started(folder: Path) -> str:
    record = json.loads((folder / "out_run.json").read_text())
    return " ".join(record["engine_command"] + record["scheduler_command"])


def test_our_policies_run_in_process_by_default_and_over_the_protocol_on_request(tmp_path):
    assert _run(tmp_path, "easy", output="default") == 0
    assert "datasched.policy.inprocess" in _started(tmp_path / "default")
    assert _run(tmp_path, "easy", "--protocol", output="protocol") == 0
    assert "datasched.policy.serve" in _started(tmp_path / "protocol")
    # the same decisions either way
    assert (tmp_path / "default/out_jobs.csv").read_bytes() == (tmp_path / "protocol/out_jobs.csv").read_bytes()
    assert _run(tmp_path, "schedFcfs", output="pybatsim") == 0  # pybatsim: always the protocol
    assert "pybatsim" in _started(tmp_path / "pybatsim")


def test_in_process_and_protocol_exclude_each_other(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        _run(tmp_path, "easy", "--protocol", "--in-process")
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
