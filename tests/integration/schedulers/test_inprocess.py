"""The in-process mode (engine as a library, policy called per round without a socket)
gives the schedule of the protocol path (serve + pybatsim over ZeroMQ) byte for byte,
for every queue policy, and fails with one clear line where the protocol path would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from datasched.errors import UserError
from datasched.runner import SimulationError, run_simulation
from datasched.workloads.swf_convert import convert_swf, make_options
from tests.conftest import HPC2N, REPO, TEST_DATA, write_workload

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


def test_a_bad_option_is_refused_in_one_line_before_the_engine_starts(workload, tmp_path):
    """The in-process child checks the options (the caller no longer imports the policies):
    a UserError naming the option, and no output files."""
    with pytest.raises(UserError, match="allocation") as refusal:
        run_simulation(
            PLATFORM, workload, "easy", tmp_path / "out", scheduler_options={"allocation": "nope"}, in_process=True
        )
    assert "\n" not in str(refusal.value)
    assert not list((tmp_path / "out").glob("out_*.csv"))


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


def _unresolvable_pfs_workload(tmp_path):
    """Job 1 (delay 50) runs from 0; job 2, a PFS job whose storage label no storage
    host resolves (closed_form.xml has none), fails in the engine when it starts at 5."""
    jobs = [
        {"id": 1, "subtime": 0, "walltime": 100, "res": 1, "profile": "d"},
        {"id": 2, "subtime": 5, "walltime": 100, "res": 1, "profile": "pfs"},
    ]
    profiles = {
        "d": {"type": "delay", "delay": 50},
        "pfs": {"type": "parallel_homogeneous_pfs", "bytes_to_read": 1e6, "bytes_to_write": 0, "storage": "nfs"},
    }
    return write_workload(tmp_path, jobs, profiles)


ENGINE_ERROR = "job 'w0!2': cannot resolve the pfs storage label 'nfs'"


def _run_in_a_child(platform, workload, prefix) -> list[str]:
    """Runs `easy` in-process through the library in a child Python; returns what it
    printed: the EngineFailure's code and message (if any), then "still alive"."""
    script = f"""
from datasched.policy.inprocess import EngineFailure, run
from datasched.policy.registry import create_policy
try:
    run(create_policy("easy", {{}}), ["-p", {str(platform)!r}, "-w", {str(workload)!r}, "-e", {str(prefix)!r}])
except EngineFailure as failure:
    print("code", failure.code)
    print("message", failure.message)
print("still alive")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_an_engine_error_is_raised_to_the_python_caller_which_goes_on(tmp_path):
    """The library returns the engine's error instead of exiting: run() raises
    EngineFailure naming it, and the calling process keeps running."""
    workload = _unresolvable_pfs_workload(tmp_path)
    lines = _run_in_a_child(TEST_DATA / "closed_form.xml", workload, tmp_path / "out")
    assert lines[0] == "code 1"
    assert lines[1].startswith("message " + ENGINE_ERROR)
    assert lines[2] == "still alive"
    assert not list(tmp_path.glob("out_*"))


def test_an_engine_error_stops_the_in_process_run_with_one_line(tmp_path):
    """`datasched run --in-process`: the engine's line, a non-zero status, no outputs."""
    workload = _unresolvable_pfs_workload(tmp_path)
    with pytest.raises(SimulationError, match="exited with status 1") as failure:
        run_simulation(TEST_DATA / "closed_form.xml", workload, "easy", tmp_path / "out", in_process=True)
    message = str(failure.value)
    assert message.startswith(ENGINE_ERROR) and "\n" not in message, message
    assert not list((tmp_path / "out").glob("out_*.csv"))


PHASES_STORAGE = {"allocation": "cache", "stg_k": 1, "mem_hit_pct": 0, "access": "disperse", "san_k": 1}


@pytest.mark.parametrize(
    ("storage", "phases"),
    [
        ({"remote_pct": 0}, [{"kind": "read", "bytes": 2e10}]),
        ({"remote_pct": 50}, [{"kind": "read", "bytes": 2e10}, {"kind": "compute", "flops": 1e10}]),
        ({"remote_pct": 0}, [{"kind": "communicate", "pattern": "all_to_all", "bytes": 1e11}]),
    ],
    ids=["local-read", "remote-read", "all-to-all"],
)
def test_an_engine_error_while_a_phase_job_runs_comes_back_to_the_caller(tmp_path, storage, phases):
    """Job 1, a datasched_phases job on two nodes, is inside SimGrid activities (a read of
    20 GB at 2 GB/s per NVM takes 10 s or more; the all-to-all 100 GB over the links even
    longer) when job 2 fails in the engine at 1 s. The library cancels job 1's activities
    before it kills the actors (else SimGrid 3.32 aborts the process): the caller gets job
    2's error, and no output."""
    jobs = [
        {"id": 1, "subtime": 0, "walltime": 1000, "res": 2, "profile": "phases"},
        {"id": 2, "subtime": 1, "walltime": 1000, "res": 1, "profile": "pfs"},
    ]
    profiles = {
        "phases": {
            "type": "datasched_phases",
            "version": 1,
            "res": 2,
            "io_tasks": 2,
            "storage": {**PHASES_STORAGE, **storage},
            "phases": phases,
        },
        "pfs": {"type": "parallel_homogeneous_pfs", "bytes_to_read": 1e6, "bytes_to_write": 0, "storage": "nfs"},
    }
    workload = write_workload(tmp_path, jobs, profiles)
    lines = _run_in_a_child(REPO / "platforms" / "catalog" / "small-test-unified.xml", workload, tmp_path / "out")
    assert lines[0] == "code 1"
    assert lines[1].startswith("message job 'w0!2': cannot resolve the pfs storage label 'nfs'")
    assert lines[2] == "still alive"
    assert not list(tmp_path.glob("out_*"))
