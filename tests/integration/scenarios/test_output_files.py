"""The output files of each scenario are listed once on the Python side
(datasched.scenarios: ``Scenario.outputs``): the engine removes exactly those (and its
link-load file) before a run, and a run writes no other file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from datasched.engine import find_engine
from datasched.scenarios import SCENARIOS
from tests.integration.hostile.test_experiment_limits import FORWARDING_PLATFORM, INTERFERENCE_PLATFORM
from tests.integration.scenarios.engine_run import error_line, read_by_engine
from tests.unit.scenarios.documents import FULL_FORWARDING, REPO

pytestmark = pytest.mark.engine


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_engine_removes_every_listed_output_before_a_run(tmp_path, name):
    """run_scenario (sim/src/scenarios/scenario.cpp) removes the scenario's output_files() and
    the link-load file before it reads the experiment: a listed file the engine does not know
    would survive, as the unrelated one does."""
    listed = SCENARIOS[name].output_files(tmp_path / "out")
    for path in [*listed, tmp_path / "out_links.csv", tmp_path / "out_unrelated.csv"]:
        path.write_text("stale\n")
    error_line(read_by_engine(tmp_path, name, {"zz_unknown": 1}))
    assert sorted(p.name for p in tmp_path.glob("out_*.csv")) == ["out_unrelated.csv"]


def _run(tmp_path: Path, name: str, doc: dict, platform: Path) -> list[str]:
    experiment = tmp_path / "exp.json"
    experiment.write_text(json.dumps(doc))
    command = [str(find_engine()), SCENARIOS[name].option, str(experiment), "-p", str(platform)]
    proc = subprocess.run([*command, "-e", str(tmp_path / "out" / "r")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return sorted(p.name for p in (tmp_path / "out").iterdir())


def test_a_run_writes_only_listed_files(tmp_path):
    """One small run per scenario (dispatch trace on: every file of --io-forwarding)."""
    from tests.integration.qos.conftest import staging_platform

    (tmp_path / "out").mkdir()
    forwarding = json.loads(json.dumps(FULL_FORWARDING))
    forwarding["servers"].pop("cache")
    written = _run(tmp_path, "io-forwarding", forwarding, FORWARDING_PLATFORM)
    assert written == sorted(p.name for p in SCENARIOS["io-forwarding"].output_files("r"))
    for name, example, platform in [
        ("qos-staging", "qos", staging_platform(tmp_path / "staging.xml", clients=4)),
        ("interference", "interference", INTERFERENCE_PLATFORM),
    ]:
        for old in (tmp_path / "out").iterdir():
            old.unlink()
        written = _run(tmp_path, name, json.loads((REPO / "examples" / f"{example}.json").read_text()), platform)
        assert written == sorted(p.name for p in SCENARIOS[name].output_files("r")), name
