"""Unmodified pybatsim 3.2.1 schedulers run to completion on our engine: on the HPC2N
trace converted to delay jobs, and on a small workload with every profile type."""

import csv
import json

import pytest

from datasched.runner import run_simulation
from datasched.workloads.swf_convert import convert_swf, make_options
from tests.conftest import HPC2N, REPO, TEST_DATA, assert_valid_delay_schedule

pytestmark = pytest.mark.engine


def converted(tmp_path, max_jobs):
    out = tmp_path / "hpc2n.json"
    report = convert_swf(HPC2N, out, make_options(platform_nodes=240, max_jobs=max_jobs))
    return out, report.kept_jobs


def final_states(jobs_csv):
    with open(jobs_csv) as f:
        return [row["final_state"] for row in csv.DictReader(f)]


@pytest.mark.parametrize(
    "scheduler,max_jobs",
    [
        ("easyBackfill", None),  # the whole excerpt
        ("fillerSched", None),
        ("schedFcfs", 300),  # quadratic in the queue length: a prefix only
    ],
)
def test_pybatsim_scheduler_completes_hpc2n(tmp_path, scheduler, max_jobs):
    workload, kept = converted(tmp_path, max_jobs)
    result = run_simulation(TEST_DATA / "cluster240.xml", workload, scheduler, tmp_path / "out", decision_timeout=120)
    with open(result.jobs_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == kept > 250
    # Real jobs overran their requested time; a delay >= walltime is a walltime kill.
    assert_valid_delay_schedule(rows, json.loads(workload.read_text()), nb_hosts=240)


@pytest.mark.parametrize("scheduler", ["easyBackfill", "fillerSched", "schedFcfs"])
def test_pybatsim_scheduler_runs_every_profile_type(tmp_path, scheduler):
    """The demo workload mixes delay, parallel, parallel_homogeneous(_total), composed
    and parallel_homogeneous_pfs jobs."""
    result = run_simulation(
        REPO / "examples" / "demo_platform.xml", REPO / "examples" / "demo_workload.json", scheduler, tmp_path / "out"
    )
    demo = json.loads((REPO / "examples" / "demo_workload.json").read_text())
    types = {demo["profiles"][job["profile"]]["type"] for job in demo["jobs"]}
    assert types >= {
        "delay",
        "parallel",
        "parallel_homogeneous",
        "parallel_homogeneous_total",
        "composed",
        "parallel_homogeneous_pfs",
    }
    assert (
        final_states(result.jobs_csv)
        == ["COMPLETED_SUCCESSFULLY"] * len(demo["jobs"])
        == ["COMPLETED_SUCCESSFULLY"] * 40
    )
