"""Unmodified pybatsim 3.2.1 schedulers run to completion on our engine: on the HPC2N
trace converted to delay jobs, and on a small workload with every profile type."""

import csv
import json

import pytest

from datasched.runner import run_simulation
from datasched.workloads.swf_convert import convert_swf, make_options
from tests.conftest import HPC2N, REPO, TEST_DATA

pytestmark = pytest.mark.engine


def converted(tmp_path, max_jobs):
    out = tmp_path / "hpc2n.json"
    report = convert_swf(HPC2N, out, make_options(platform_nodes=240, max_jobs=max_jobs))
    return out, report.kept_jobs


def final_states(jobs_csv):
    with open(jobs_csv) as f:
        return [row["final_state"] for row in csv.DictReader(f)]


@pytest.mark.parametrize("scheduler,max_jobs", [
    ("easyBackfill", None),      # the whole excerpt
    ("fillerSched", None),
    ("schedFcfs", 300),          # quadratic in the queue length: a prefix only
])
def test_pybatsim_scheduler_completes_hpc2n(tmp_path, scheduler, max_jobs):
    workload, kept = converted(tmp_path, max_jobs)
    result = run_simulation(TEST_DATA / "cluster240.xml", workload, scheduler, tmp_path / "out",
                            decision_timeout=120)
    states = final_states(result.jobs_csv)
    assert len(states) == kept > 250
    assert set(states) <= {"COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED"}
    # Real jobs overran their requested time; a delay >= walltime is a walltime kill.
    w = json.loads(workload.read_text())
    overrun = sum(1 for j in w["jobs"] if 0 < j["walltime"] <= w["profiles"][j["profile"]]["delay"])
    assert states.count("COMPLETED_WALLTIME_REACHED") == overrun


@pytest.mark.parametrize("scheduler", ["easyBackfill", "fillerSched", "schedFcfs"])
def test_pybatsim_scheduler_runs_every_profile_type(tmp_path, scheduler):
    """The demo workload mixes delay, parallel, parallel_homogeneous(_total), composed
    and parallel_homogeneous_pfs jobs."""
    result = run_simulation(REPO / "examples" / "demo_platform.xml", REPO / "examples" / "demo_workload.json",
                            scheduler, tmp_path / "out")
    states = final_states(result.jobs_csv)
    assert len(states) == 40 and states.count("COMPLETED_SUCCESSFULLY") >= 38
