"""The in-process mode (engine as a library, policy called per round without a socket)
gives the schedule of the protocol path (serve + pybatsim over ZeroMQ) byte for byte,
for every queue policy, and fails with one clear line where the protocol path would."""

from __future__ import annotations

import pytest

from datasched.errors import UserError
from datasched.runner import SimulationError, run_simulation
from datasched.workloads.swf_convert import convert_swf, make_options
from tests.conftest import HPC2N, TEST_DATA, write_workload

pytestmark = [pytest.mark.engine, pytest.mark.slow]

PLATFORM = TEST_DATA / "cluster240.xml"


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    """The first 600 jobs of hpc2n.swf: queues form, jobs overrun their walltime."""
    path = tmp_path_factory.mktemp("hpc2n") / "hpc2n.json"
    convert_swf(HPC2N, path, make_options(platform_nodes=240, max_jobs=600))
    return path


@pytest.mark.parametrize(
    ("policy", "options"),
    [
        ("fcfs", {}),
        ("easy", {}),
        ("easy", {"allocation": {"name": "random", "seed": 4}}),
        ("easy", {"allocation": "contiguous"}),
        ("sjf", {}),
        ("conservative", {}),
    ],
)
def test_same_schedule_as_the_protocol_path(workload, tmp_path, policy, options):
    protocol = run_simulation(PLATFORM, workload, policy, tmp_path / "protocol", scheduler_options=options)
    inprocess = run_simulation(
        PLATFORM, workload, policy, tmp_path / "inprocess", scheduler_options=options, in_process=True
    )
    assert inprocess.jobs_csv.read_bytes() == protocol.jobs_csv.read_bytes()
    assert inprocess.machine_states_csv.read_bytes() == protocol.machine_states_csv.read_bytes()


def test_pybatsim_schedulers_keep_the_protocol_path(workload, tmp_path):
    with pytest.raises(UserError, match="datasched's own policies only; 'easyBackfill'"):
        run_simulation(PLATFORM, workload, "easyBackfill", tmp_path, in_process=True)


def test_an_illegal_decision_stops_the_run_naming_it(tmp_path):
    """A job wider than the platform cannot be started; the replay policy is told to
    start it anyway, and the validating wrapper stops the in-process run."""
    jobs = [{"id": 1, "subtime": 0, "walltime": 10, "res": 2, "profile": "p"}]
    path = write_workload(tmp_path, jobs, {"p": {"type": "delay", "delay": 1}})
    plan = tmp_path / "plan.json"
    plan.write_text('{"jobs": {"w0!1": {"start": 0, "hosts": [0, 0]}}}')
    with pytest.raises(SimulationError, match="gave job 'w0!1' a host twice") as failure:
        run_simulation(
            TEST_DATA / "closed_form.xml",
            path,
            "replay",
            tmp_path / "out",
            scheduler_options={"plan": str(plan)},
            in_process=True,
        )
    assert "in-process" in str(failure.value)
    assert not (tmp_path / "out" / "out_jobs.csv").exists()
