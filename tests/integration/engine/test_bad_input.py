"""Bad input: a clear message naming the file/line or job, a non-zero exit, no hang,
and no output file that could pass for a complete one."""

import subprocess

import pytest

from datasched.engine import find_engine
from datasched.runner import SimulationError, run_simulation
from tests.conftest import TEST_DATA, write_workload

pytestmark = pytest.mark.engine

PLATFORM = TEST_DATA / "closed_form.xml"
DELAY = {"d": {"type": "delay", "delay": 5}}


def engine(*args, timeout=30):
    return subprocess.run([str(find_engine()), *map(str, args)], capture_output=True, text=True, timeout=timeout)


def assert_no_outputs(prefix):
    leftovers = list(prefix.parent.glob(prefix.name + "_*.csv*"))
    assert leftovers == [], leftovers


def test_malformed_workload_json_names_file_and_line(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "jobs": [\n    {"id": 1, "subtime": 0,,}\n  ]\n}\n')
    r = engine("-p", PLATFORM, "-w", bad, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    assert r.returncode != 0
    assert "broken.json" in r.stderr and "line 3" in r.stderr
    assert_no_outputs(tmp_path / "out")


def test_unknown_profile_names_the_job(tmp_path):
    w = write_workload(tmp_path, [{"id": 7, "subtime": 0, "res": 1, "profile": "nope"}], DELAY)
    r = engine("-p", PLATFORM, "-w", w, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    assert r.returncode != 0
    assert "w0!7" in r.stderr and "unknown profile 'nope'" in r.stderr


@pytest.mark.parametrize(
    "profile,message",
    [
        ({"type": "smpi", "trace": "x"}, "not supported"),
        ({"type": "usage_trace", "trace": "x"}, "not supported"),
        ({"type": "teleport"}, "unknown profile type 'teleport'"),
        ({"type": "parallel", "cpu": [1, 2], "com": [0, 0, 0]}, "expected 4"),
        ({"type": "composed", "seq": ["missing"]}, "unknown profile 'missing'"),
    ],
)
def test_invalid_profiles(tmp_path, profile, message):
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}], {"p": profile})
    r = engine("-p", PLATFORM, "-w", w, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    assert r.returncode != 0 and message in r.stderr and "profile 'p'" in r.stderr


def test_platform_without_master(tmp_path):
    platform = tmp_path / "nomaster.xml"
    platform.write_text(
        PLATFORM.read_text()
        .replace('<prop id="role" value="master"/>', "")
        .replace('id="master_host"', 'id="boss"')
        .replace('"master_host"', '"boss"')
    )
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    r = engine("-p", platform, "-w", w, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    assert r.returncode != 0 and "no master host" in r.stderr


def test_unloadable_platform(tmp_path):
    platform = tmp_path / "bad.xml"
    platform.write_text("<platform version='4.1'><zone id='z' routing='Full'><host id='a' speed='-'/></zone>")
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    r = engine("-p", platform, "-w", w, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    assert r.returncode != 0 and "bad.xml" in r.stderr


def run_scripted(tmp_path, jobs, **options):
    w = write_workload(tmp_path, jobs, DELAY)
    return run_simulation(
        PLATFORM,
        w,
        str(TEST_DATA / "scriptedSched.py"),
        tmp_path / "out",
        scheduler_options=options,
        decision_timeout=10,
    )


@pytest.mark.parametrize(
    "jobs,options,message",
    [
        ([{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"alloc": {"0": "9"}}, "host 9, which does not exist"),
        (
            [{"id": 0, "subtime": 0, "res": 2, "profile": "d"}],
            {"alloc": {"0": "0"}},
            "requested 2 hosts but was allocated 1",
        ),
        (
            [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}, {"id": 1, "subtime": 1, "res": 1, "profile": "d"}],
            {"alloc": {"0": "1", "1": "1"}},
            "busy with job 'w0!0'",
        ),
    ],
)
def test_illegal_execute_job(tmp_path, jobs, options, message):
    with pytest.raises(SimulationError) as err:
        run_scripted(tmp_path, jobs, **options)
    assert message in str(err.value) and "EXECUTE_JOB" in str(err.value)
    assert_no_outputs(tmp_path / "out" / "out")


def test_decision_process_exits_early(tmp_path):
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    with pytest.raises(SimulationError) as err:
        run_simulation(PLATFORM, w, str(TEST_DATA / "crashSched.py"), tmp_path / "out", decision_timeout=10)
    assert "decision process" in str(err.value) and "deliberate failure" in str(err.value)
    assert_no_outputs(tmp_path / "out" / "out")


def test_engine_alone_stops_when_nobody_answers(tmp_path):
    """No decision process at all: the engine gives up after --decision-timeout."""
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    r = engine(
        "-p",
        PLATFORM,
        "-w",
        w,
        "-e",
        tmp_path / "out",
        "-s",
        "tcp://127.0.0.1:9",
        "--decision-timeout",
        "1",
        timeout=20,
    )
    assert r.returncode != 0 and "did not answer within" in r.stderr
    assert_no_outputs(tmp_path / "out")


def test_decision_process_that_hangs(tmp_path):
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    with pytest.raises(SimulationError) as err:
        run_simulation(PLATFORM, w, str(TEST_DATA / "hangSched.py"), tmp_path / "out", decision_timeout=2)
    assert "did not answer within" in str(err.value)


def test_a_job_never_started_is_a_clear_deadlock(tmp_path):
    """The decision process never starts job 1: the engine names it instead of hanging."""
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}, {"id": 1, "subtime": 0, "res": 3, "profile": "d"}]
    with pytest.raises(SimulationError) as err:
        run_scripted(tmp_path, jobs, never_start=["1"])
    assert "deadlock" in str(err.value) and "w0!1 (3 hosts)" in str(err.value)
    assert_no_outputs(tmp_path / "out" / "out")


def processes_mentioning(text):
    """Live processes whose command line contains `text`."""
    found = []
    for proc in __import__("pathlib").Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append((proc.name, cmdline))
    return found


def test_no_orphan_process_after_a_failure(tmp_path):
    """The decision process hangs; the engine gives up; neither process survives."""
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    with pytest.raises(SimulationError):
        run_simulation(PLATFORM, w, str(TEST_DATA / "hangSched.py"), tmp_path / "out", decision_timeout=1)
    assert processes_mentioning(str(tmp_path)) == []


def test_decision_process_that_quits_quietly(tmp_path, monkeypatch):
    """Exit status 0 in mid-simulation is a failure too, reported after a short grace."""
    import datasched.runner

    monkeypatch.setattr(datasched.runner, "EXIT_GRACE_SECONDS", 1.0)
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    with pytest.raises(SimulationError) as err:
        run_simulation(PLATFORM, w, str(TEST_DATA / "quitSched.py"), tmp_path / "out", decision_timeout=60)
    assert "exited before the end of the simulation" in str(err.value)
    assert processes_mentioning(str(tmp_path)) == []


def test_job_on_a_storage_endpoint_is_refused(tmp_path):
    """Device endpoints of generated platforms (node-X-dram) are storage resources of
    the storage model: a job placed on one is refused with a clear message, not a crash."""
    from tests.conftest import REPO

    platform = REPO / "platforms" / "catalog" / "small-test-unified.xml"
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    with pytest.raises(SimulationError) as err:
        run_simulation(
            platform,
            w,
            str(TEST_DATA / "scriptedSched.py"),
            tmp_path / "out",
            scheduler_options={"alloc": {"0": "20"}},
            decision_timeout=10,
        )
    message = str(err.value)
    assert "w0!0" in message and "node-15-dram" in message and "datasched_role=dram" in message, message
    assert "not a compute node" in message and "ids 0-7" in message, message


@pytest.mark.parametrize("kind", ["device", "pipe"])
@pytest.mark.parametrize("option", ["-p", "-w", "--events"])
def test_a_device_or_pipe_as_input_is_refused_in_one_line(tmp_path, option, kind):
    """Reading /dev/zero never ends and a pipe blocks until a writer comes: the engine refuses
    either as -p, -w or --events in one line naming it, instead of hanging (the 30 s timeout)."""
    import os

    special = "/dev/zero"
    if kind == "pipe":
        special = str(tmp_path / "pipe")
        os.mkfifo(special)
    workload = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], DELAY)
    inputs: dict[str, object] = {"-p": PLATFORM, "-w": workload}
    inputs[option] = special
    args = [x for key, value in inputs.items() for x in (key, value)]
    r = engine(*args, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and f"'{special}': not a regular file" in lines[0], r.stderr
    assert_no_outputs(tmp_path / "out")


def test_a_composed_profile_repeated_for_years_is_refused_unless_allowed(tmp_path):
    """repeat 2^31 - 1 of one delay step: at least 2.1e9 steps, far above the engine's event
    budget (1e7, model/run_cost.hpp): one line naming the workload, the field and the estimate,
    before anything runs. 1,000 repeats stay within it and run."""
    profiles = {"d": {"type": "delay", "delay": 1}, "c": {"type": "composed", "repeat": 2**31 - 1, "seq": ["d"]}}
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "c"}], profiles)
    r = engine("-p", PLATFORM, "-w", w, "-e", tmp_path / "out", "-s", "tcp://127.0.0.1:1")
    lines = r.stderr.strip().splitlines()
    assert r.returncode != 0 and len(lines) == 1, r.stderr
    assert f"workload '{w}': repeat: this run simulates at least 2.15e+09 profile steps" in lines[0]
    assert "composed profile 'c'" in lines[0] and "--allow-long-run" in lines[0]
    assert_no_outputs(tmp_path / "out")
    small = dict(profiles, c={"type": "composed", "repeat": 1000, "seq": ["d"]})
    w = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "c"}], small)
    result = run_simulation(PLATFORM, w, "fcfs", tmp_path / "ok", decision_timeout=10)
    assert (result.output_dir / "out_jobs.csv").read_text().count("\n") == 2  # header and the job
