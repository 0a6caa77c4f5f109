"""Every queue policy x allocation policy completes hpc2n.swf (converted to delay jobs)
on a 240-host cluster through the engine, and every job ends in a final state that
the trace explains (completed, or killed at its requested time when it overran it)."""

from __future__ import annotations

import csv
import json

import pytest

from datasched.runner import run_simulation
from datasched.workloads.swf_convert import convert_swf, make_options
from tests.conftest import HPC2N, TEST_DATA

pytestmark = [pytest.mark.engine, pytest.mark.slow]

TRACE = HPC2N
PLATFORM = TEST_DATA / "cluster240.xml"


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    path = tmp_path_factory.mktemp("hpc2n") / "hpc2n.json"
    convert_swf(TRACE, path, make_options(platform_nodes=240))
    return path


@pytest.mark.parametrize("policy", ["fcfs", "easy", "sjf", "conservative"])
@pytest.mark.parametrize("allocation", ["sequential", "random", "topology"])
def test_policy_completes_hpc2n(workload, tmp_path, policy, allocation):
    result = run_simulation(PLATFORM, workload, policy, tmp_path, scheduler_options={"allocation": allocation},
                            decision_timeout=300)
    with open(result.jobs_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    w = json.loads(workload.read_text())
    assert len(rows) == len(w["jobs"])
    overrun = sum(1 for j in w["jobs"] if 0 < j["walltime"] <= w["profiles"][j["profile"]]["delay"])
    states = [r["final_state"] for r in rows]
    assert states.count("COMPLETED_WALLTIME_REACHED") == overrun
    assert states.count("COMPLETED_SUCCESSFULLY") == len(rows) - overrun
