"""Batsim 4 protocol features beyond the conformance cases, each checked by hand:
storage profiles and mappings, the pybatsim storage controller, dynamic jobs,
metadata, job state changes, external machine events, additional I/O jobs, and the
bad decisions that must stop the engine with a message naming the job."""

import csv
import json
import subprocess

import pytest

from datasched.engine import find_engine
from datasched.runner import SimulationError, run_simulation
from tests.conftest import TEST_DATA, read_jobs_csv, run_engine_with_peer, write_workload

pytestmark = pytest.mark.engine

STORAGE = TEST_DATA / "storage.xml"
CLOSED = TEST_DATA / "closed_form.xml"
TOL = 1e-6


def run_actions(tmp_path, platform, jobs, profiles, engine_args=(), **options):
    workload = write_workload(tmp_path, jobs, profiles)
    log = tmp_path / "events.json"
    result = run_simulation(
        platform,
        workload,
        str(TEST_DATA / "actionSched.py"),
        tmp_path / "out",
        scheduler_options={"log": str(log), **options},
        engine_args=list(engine_args),
        decision_timeout=30,
    )
    return read_jobs_csv(result.jobs_csv), json.loads(log.read_text()), result


DELAY = {"d": {"type": "delay", "delay": 1}}
ONE_JOB = [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}]
RUN_ONE = {"0": [{"execute": "w0!0", "alloc": "0"}]}


def test_pfs_profile_with_storage_mapping(tmp_path):
    """4e9 B written from h0 to main_storage over the 1 GB/s san link: 1 ms + 4 s."""
    profiles = {"ckpt": {"type": "parallel_homogeneous_pfs", "bytes_to_write": 4e9, "storage": "lustre"}}
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "ckpt"}]
    rows, _, _ = run_actions(
        tmp_path,
        STORAGE,
        jobs,
        profiles,
        on_submit={"0": [{"execute": "w0!0", "alloc": "0", "storage_mapping": {"lustre": 2}}]},
    )
    assert float(rows["0"]["execution_time"]) == pytest.approx(4.001, abs=TOL)


def test_storage_controller_moves_a_dataset(tmp_path):
    """pybatsim's StorageController stages a 2 GB dataset from main_storage to nvm0
    through a data_staging job over the 1 GB/s link: 1 ms + 2 s."""
    controller = {"datasets": {"2": [{"id": "d1", "size": 2e9}]}, "transfers": [["d1", 2, 3]]}
    rows, log, result = run_actions(
        tmp_path,
        STORAGE,
        ONE_JOB,
        DELAY,
        engine_args=["--enable-dynamic-jobs"],
        on_begin=[{"storage_controller": controller}],
        on_submit=RUN_ONE,
        on_arrival=[{"notify": "registration_finished"}],
    )
    arrived = [e for e in log if e["event"] == "DATASET_ARRIVED"]
    assert arrived == [
        {
            "event": "DATASET_ARRIVED",
            "time": pytest.approx(2.001, abs=TOL),
            "dataset": "d1",
            "source": 2,
            "dest": 3,
            "present": True,
        }
    ]
    with open(result.jobs_csv) as f:
        staging = [r for r in csv.DictReader(f) if r["workload_name"] == "dyn-storage-controller"]
    assert len(staging) == 1 and staging[0]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert float(staging[0]["execution_time"]) == pytest.approx(2.001, abs=TOL)
    assert staging[0]["allocated_resources"] == "2-3"


def test_dynamic_jobs_with_acknowledgement_and_metadata(tmp_path):
    on_begin = [
        {"register_profile": ["dyn", "p3", {"type": "delay", "delay": 3}]},
        {"register_job": ["dyn!a", 1, -1, "p3"]},
    ]
    on_submit = {**RUN_ONE, "a": [{"execute": "dyn!a", "alloc": "1"}, {"metadata": ["dyn!a", "tag=42"]}]}
    rows, log, result = run_actions(
        tmp_path,
        STORAGE,
        ONE_JOB,
        DELAY,
        engine_args=["--enable-dynamic-jobs", "--acknowledge-dynamic-jobs"],
        on_begin=on_begin,
        on_submit=on_submit,
        on_complete={"a": [{"notify": "registration_finished"}]},
    )
    assert {"event": "JOB_SUBMITTED", "time": 0.0, "job": "dyn!a"} in log
    with open(result.jobs_csv) as f:
        dyn = {r["job_id"]: r for r in csv.DictReader(f) if r["workload_name"] == "dyn"}
    assert dyn["a"]["metadata"] == "tag=42"
    assert float(dyn["a"]["execution_time"]) == pytest.approx(3, abs=TOL)
    assert dyn["a"]["allocated_resources"] == "1"


def test_simulation_waits_for_registration_finished(tmp_path):
    """With dynamic jobs enabled and no registration_finished, the static job's end
    does not end the simulation; a later registration keeps it going."""
    on_complete = {
        "0": [
            {"register_profile": ["dyn", "p", {"type": "delay", "delay": 5}]},
            {"register_job": ["dyn!late", 1, -1, "p"]},
            {"execute": "dyn!late", "alloc": "0"},
            {"notify": "registration_finished"},
        ]
    }
    rows, log, result = run_actions(
        tmp_path,
        STORAGE,
        ONE_JOB,
        DELAY,
        engine_args=["--enable-dynamic-jobs"],
        on_submit=RUN_ONE,
        on_complete=on_complete,
    )
    ends = [e for e in log if e["event"] == "SIMULATION_ENDS"]
    assert ends and ends[0]["time"] == pytest.approx(6, abs=TOL)


def test_change_job_state_finishes_a_waiting_job(tmp_path):
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}, {"id": 1, "subtime": 0, "res": 1, "profile": "d"}]
    rows, _, _ = run_actions(
        tmp_path,
        STORAGE,
        jobs,
        DELAY,
        on_submit={"0": [{"execute": "w0!0", "alloc": "0"}], "1": [{"change_state": ["w0!1", "COMPLETED_FAILED"]}]},
    )
    assert rows["1"]["final_state"] == "COMPLETED_FAILED" and rows["1"]["success"] == "0"


def test_reject_job(tmp_path):
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}, {"id": 1, "subtime": 0, "res": 1, "profile": "d"}]
    rows, _, result = run_actions(
        tmp_path, STORAGE, jobs, DELAY, on_submit={"0": [{"execute": "w0!0", "alloc": "0"}], "1": [{"reject": "w0!1"}]}
    )
    assert rows["1"]["final_state"] == "REJECTED"
    schedule = next(csv.DictReader(open(result.schedule_csv)))
    assert schedule["nb_jobs_rejected"] == "1" and schedule["nb_jobs"] == "2"


def test_external_machine_events(tmp_path):
    events = tmp_path / "events.txt"
    events.write_text(
        '{"type": "machine_unavailable", "resources": "1", "timestamp": 5}\n'
        '{"type": "machine_available", "resources": "1", "timestamp": 20}\n'
    )
    profiles = {"d": {"type": "delay", "delay": 30}}
    rows, log, result = run_actions(
        tmp_path, STORAGE, ONE_JOB, profiles, engine_args=["--events", str(events)], on_submit=RUN_ONE
    )
    kinds = [(e["event"], round(e["time"], 6)) for e in log if e["event"].startswith(("MACHINE", "NO_MORE_EXT"))]
    assert kinds == [("MACHINE_UNAVAILABLE", 5.0), ("MACHINE_AVAILABLE", 20.0), ("NO_MORE_EXTERNAL_EVENTS", 20.0)]
    start, finish = float(rows["0"]["starting_time"]), float(rows["0"]["finish_time"])
    # Batsim's machine states: a row at the job's start and end only (none when a machine
    # becomes unavailable), and no unavailable column.
    with open(result.machine_states_csv) as f:
        states = list(csv.DictReader(f))
    assert list(states[0]) == ["time", "nb_sleeping", "nb_switching_on", "nb_switching_off", "nb_idle", "nb_computing"]
    assert [float(r["time"]) for r in states] == pytest.approx([start, finish], abs=1e-4)  # %g: 6 digits
    assert [r["nb_computing"] for r in states] == ["1", "0"]
    # Batsim's schedule: host 1 unavailable on [5, 20] (closed by its return) -> 15 s;
    # computing: 30 s, closed at the job's end.
    schedule = next(csv.DictReader(open(result.schedule_csv)))
    assert float(schedule["time_unavailable"]) == pytest.approx(15.0, abs=TOL)
    assert float(schedule["time_computing"]) == pytest.approx(30.0, abs=TOL)
    # Ours, over [0, makespan]: every compute node's time, in one of the states.
    use = next(csv.DictReader(open(result.output_dir / "out_utilisation.csv")))
    nodes = int(use["nb_compute_machines"])
    assert float(use["makespan"]) == pytest.approx(finish, abs=TOL)
    assert float(use["time_unavailable"]) == pytest.approx(15.0, abs=TOL)
    assert float(use["time_computing"]) == pytest.approx(30.0, abs=TOL)
    assert float(use["time_idle"]) == pytest.approx(nodes * finish - 30.0 - 15.0, abs=TOL)
    assert float(use["utilisation"]) == pytest.approx(30.0 / (nodes * finish), abs=TOL)


def test_execute_on_unavailable_machine_is_refused(tmp_path):
    events = tmp_path / "events.txt"
    events.write_text('{"type": "machine_unavailable", "resources": "1", "timestamp": 0}\n')
    jobs = [{"id": 0, "subtime": 1, "res": 1, "profile": "d"}]
    with pytest.raises(SimulationError) as err:
        run_actions(
            tmp_path,
            STORAGE,
            jobs,
            DELAY,
            engine_args=["--events", str(events)],
            on_submit={"0": [{"execute": "w0!0", "alloc": "1"}]},
        )
    assert "w0!0" in str(err.value) and "unavailable" in str(err.value)


def test_malformed_events_file_names_the_line(tmp_path):
    events = tmp_path / "events.txt"
    events.write_text('{"type": "machine_unavailable", "resources": "1", "timestamp": 0}\n{"type": 3}\n')
    w = write_workload(tmp_path, ONE_JOB, DELAY)
    r = subprocess.run(
        [
            str(find_engine()),
            "-p",
            STORAGE,
            "-w",
            w,
            "--events",
            events,
            "-e",
            tmp_path / "o",
            "-s",
            "tcp://127.0.0.1:9",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode != 0 and "events.txt', line 2" in r.stderr


def test_additional_io_job_is_merged_into_the_job(tmp_path):
    """The job computes 1e9 flops on h0 (1 s); its I/O job moves 2e9 B h0 -> h1 over
    the shared 1 GB/s link (1 ms + 2 s). Merged into one ptask: 2.001 s."""
    profiles = {"c": {"type": "parallel", "cpu": [1e9], "com": [0]}}
    io = {"alloc": "0-1", "profile_name": "io", "profile": {"type": "parallel", "cpu": [0, 0], "com": [0, 2e9, 0, 0]}}
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "c"}]
    rows, _, _ = run_actions(
        tmp_path, CLOSED, jobs, profiles, on_submit={"0": [{"execute": "w0!0", "alloc": "0", "io": io}]}
    )
    assert float(rows["0"]["execution_time"]) == pytest.approx(2.001, abs=TOL)


# ---- bad decisions, sent by a raw protocol peer ------------------------------------------


def run_raw(tmp_path, platform, jobs, profiles, replies, engine_args=()):
    workload = write_workload(tmp_path, jobs, profiles)
    replies_path = tmp_path / "replies.json"
    replies_path.write_text(json.dumps(replies))
    return run_engine_with_peer("rawSched.py", [str(replies_path)], platform, workload, tmp_path / "out", engine_args)


def execute(job, alloc, **extra):
    return {"type": "EXECUTE_JOB", "data": {"job_id": job, "alloc": alloc, **extra}}


@pytest.mark.parametrize(
    "profiles,replies,engine_args,message",
    [
        (
            {"p": {"type": "parallel_homogeneous_pfs", "bytes_to_read": 1e9}},
            [[], [execute("w0!0", "0")]],
            [],
            "cannot resolve the pfs storage label 'pfs'",
        ),
        (
            {"p": {"type": "data_staging", "nb_bytes": 1e9, "from": "a", "to": "b"}},
            [[], [execute("w0!0", "2", storage_mapping={"a": 2, "b": 2})]],
            [],
            "to itself",
        ),
        (
            {"p": {"type": "delay", "delay": 1}},
            [[], [{"type": "REGISTER_JOB", "data": {"job_id": "w0!0", "job": {"res": 1, "profile": "p"}}}]],
            ["--enable-dynamic-jobs"],
            "duplicate job id",
        ),
        (
            {"p": {"type": "delay", "delay": 1}},
            [[], [{"type": "REGISTER_JOB", "data": {"job_id": "dyn!x", "job": {"res": 1, "profile": "ghost"}}}]],
            ["--enable-dynamic-jobs"],
            "unknown profile 'ghost'",
        ),
        ({"p": {"type": "delay", "delay": 1}}, [[], [execute("w0!99", "0")]], [], "job 'w0!99', which does not exist"),
        (
            {"p": {"type": "delay", "delay": 1}},
            [[], [{"type": "KILL_JOB", "data": {"job_ids": ["w0!7"]}}]],
            [],
            "job 'w0!7', which does not exist",
        ),
        (
            {"p": {"type": "delay", "delay": 1}},
            [[], [{"type": "REGISTER_JOB", "data": {"job_id": "dyn!x", "job": {"res": 1, "profile": "p"}}}]],
            [],
            "dynamic jobs, which are disabled",
        ),
    ],
)
def test_bad_decisions_name_the_job(tmp_path, profiles, replies, engine_args, message):
    r = run_raw(tmp_path, STORAGE, [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}], profiles, replies, engine_args)
    assert r.returncode != 0
    assert message in r.stderr, r.stderr
    assert not list(tmp_path.glob("out_*.csv"))


def test_a_registered_profile_repeated_for_years_stops_the_run_naming_it(tmp_path):
    """REGISTER_PROFILE gets the event budget a workload file gets (model/run_cost.hpp): a
    composed profile of 2^31 - 1 repeats ends the run with one line naming it."""
    on_begin = [
        {"register_profile": ["dyn", "d", {"type": "delay", "delay": 1}]},
        {"register_profile": ["dyn", "c", {"type": "composed", "repeat": 2**31 - 1, "seq": ["d"]}]},
    ]
    with pytest.raises(SimulationError) as error:
        run_actions(tmp_path, STORAGE, ONE_JOB, DELAY, engine_args=["--enable-dynamic-jobs"], on_begin=on_begin)
    message = str(error.value)
    assert message.startswith("REGISTER_PROFILE 'c': repeat: this run simulates at least 2.15e+09"), message
    assert "--allow-long-run" in message and "\n" not in message, message
