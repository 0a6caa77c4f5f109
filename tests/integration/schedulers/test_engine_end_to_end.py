"""Every queue policy x allocation policy completes hpc2n.swf (converted to delay jobs)
on a 240-host cluster through the engine with a valid schedule: every job once, on its
number of hosts, never before its submission, for its run time (or killed at its
requested time when it overran it), no host shared; FCFS never lets a job overtake."""

from __future__ import annotations

import csv
import json
from itertools import pairwise

import pytest

from datasched.runner import run_simulation
from datasched.workloads.swf_convert import convert_swf, make_options
from tests.conftest import HPC2N, TEST_DATA, assert_valid_delay_schedule

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
    result = run_simulation(
        PLATFORM, workload, policy, tmp_path, scheduler_options={"allocation": allocation}, decision_timeout=300
    )
    with open(result.jobs_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    w = json.loads(workload.read_text())
    assert_valid_delay_schedule(rows, w, nb_hosts=240)
    if policy == "fcfs":  # no job overtakes an earlier one
        by_submission = sorted(rows, key=lambda r: (float(r["submission_time"]), int(r["job_id"])))
        starts = [float(r["starting_time"]) for r in by_submission]
        assert all(b >= a - 1e-4 for a, b in pairwise(starts))
