"""`--engine batsim`: the runner's command line for real Batsim 4.2.1, its refusals, and
(where `batsim` is on PATH, as in the flake's with-batsim shell) real runs.

Without Batsim, a fake `batsim` script on PATH records its argv and writes minimal
outputs: that checks what the runner gives Batsim, not Batsim itself."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from datasched import batsim_backend, conformance
from datasched.errors import UserError
from datasched.runner import SimulationError, run_simulation
from tests.conftest import CONFORMANCE, REPO, TEST_DATA, write_workload

PLATFORM = TEST_DATA / "closed_form.xml"
FAKE_BATSIM = """#!{python}
import json, os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_BATSIM_ARGV"], "w") as f:
    json.dump(args, f)
if os.environ.get("FAKE_BATSIM_FAIL"):
    print("[batsim] fake failure: " + os.environ["FAKE_BATSIM_FAIL"], file=sys.stderr)
    sys.exit(3)
# end the simulation as Batsim does, so that the decision process exits at once
import zmq
socket = zmq.Context().socket(zmq.REQ)
socket.setsockopt(zmq.RCVTIMEO, 30000)
socket.connect(args[args.index("-s") + 1])
begins = {{"nb_resources": 1, "nb_compute_resources": 1, "nb_storage_resources": 0,
          "compute_resources": [{{"id": 0, "name": "h0", "state": "idle", "properties": {{}}}}],
          "storage_resources": [], "allow_compute_sharing": False, "allow_storage_sharing": True,
          "config": {{"profiles-forwarded-on-submission": False, "dynamic-jobs-enabled": False,
                     "dynamic-jobs-acknowledged": False, "forward-unknown-events": False}},
          "profiles": {{}}, "workloads": {{}}}}
for event in ({{"timestamp": 0.0, "type": "SIMULATION_BEGINS", "data": begins}},
              {{"timestamp": 0.0, "type": "SIMULATION_ENDS", "data": {{}}}}):
    socket.send_string(json.dumps({{"now": 0.0, "events": [event]}}))
    socket.recv_string()
prefix = args[args.index("-e") + 1]
with open(prefix + "_jobs.csv", "w") as f:
    f.write("job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
            "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
            "allocated_resources,consumed_energy,metadata\\n")
with open(prefix + "_schedule.csv", "w") as f:
    f.write("batsim_version,nb_jobs\\nv4.2.1,0\\n")
"""

SEED000_SAN = REPO / "platforms" / "catalog" / "seed000-dragonfly-2-4-2-san.xml"
REAL_BATSIM = shutil.which("batsim")
needs_real_batsim = pytest.mark.skipif(
    REAL_BATSIM is None,
    reason="`batsim` is not on PATH: real Batsim 4.2.1 runs only in the flake's with-batsim shell "
    "(nix develop .#with-batsim)",
)


@pytest.fixture
def fake_batsim(tmp_path, monkeypatch) -> Path:
    """A fake `batsim` first on PATH; returns the file where it records its arguments."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "batsim"
    script.write_text(FAKE_BATSIM.format(python=sys.executable))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    record = tmp_path / "argv.json"
    monkeypatch.setenv("FAKE_BATSIM_ARGV", str(record))
    return record


@pytest.fixture
def workload(tmp_path) -> Path:
    return write_workload(
        tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"d": {"type": "delay", "delay": 1}}
    )


def test_batsim_gets_the_same_inputs_and_only_its_own_options(tmp_path, fake_batsim, workload):
    """Batsim's command: -p, -w, -e <output>/out, -s <the decision process's socket>, then
    the user's Batsim options in order; none of datasched-sim's (--decision-timeout, --progress)."""
    out = tmp_path / "out"
    result = run_simulation(
        PLATFORM,
        [workload, workload],
        "fcfs",
        out,
        engine="batsim",
        engine_args=["-E", "-r", "h1:storage", "--sg-cfg", "network/model:CM02"],
    )
    argv = json.loads(fake_batsim.read_text())
    endpoint = argv[argv.index("-s") + 1]
    assert argv == [
        "-p",
        str(PLATFORM.resolve()),
        "-w",
        str(workload.resolve()),
        "-w",
        str(workload.resolve()),
        "-e",
        str(out.resolve() / "out"),
        "-s",
        endpoint,
        "-E",
        "-r",
        "h1:storage",
        "--sg-cfg",
        "network/model:CM02",
    ]
    assert endpoint.startswith("tcp://127.0.0.1:")
    # the decision process listens on the socket Batsim is told
    assert endpoint in result.scheduler_command
    assert result.engine_command[0] == shutil.which("batsim")
    assert result.jobs_csv.is_file()


@pytest.mark.parametrize(
    "kwargs,fragments",
    [
        ({"traffic_policy": "np"}, ["--traffic-policy", "datasched-sim only"]),
        ({"ipc_fanout": 8}, ["--ipc-fanout", "datasched-sim only"]),
        ({"engine_args": ["--decision-timeout", "5"]}, ["--decision-timeout", "not an option of Batsim 4.2.1"]),
        ({"engine_args": ["--libzmq-transport"]}, ["--libzmq-transport", "not an option of Batsim 4.2.1"]),
        ({"engine_args": ["-e", "elsewhere"]}, ["-e", "set by `datasched run`", "--output"]),
        ({"engine_args": ["-r"]}, ["-r", "needs 1 value"]),
        ({"engine_args": ["--WS", "cut.xml"]}, ["--WS", "needs 2 value"]),
    ],
    ids=["traffic-policy", "ipc-fanout", "decision-timeout", "libzmq", "export", "role-without-value", "ws-one-value"],
)
def test_engine_only_options_are_refused_before_anything_runs(tmp_path, fake_batsim, workload, kwargs, fragments):
    with pytest.raises(UserError) as err:
        run_simulation(PLATFORM, workload, "fcfs", tmp_path / "out", engine="batsim", **kwargs)
    message = str(err.value)
    assert message.startswith("--engine batsim:") and "\n" not in message
    for fragment in fragments:
        assert fragment in message
    assert not fake_batsim.exists()  # Batsim never started


def test_options_with_inline_values_are_accepted():
    batsim_backend.check_options(["--sg-cfg=a:b", "--verbosity", "quiet", "--WS", "w.xml", "10", "-q"])


def test_missing_batsim_is_one_clear_line(tmp_path, monkeypatch, workload):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(UserError, match=r"`batsim` is not on PATH"):
        run_simulation(PLATFORM, workload, "fcfs", tmp_path / "out", engine="batsim")


def test_phase_profiles_are_refused(tmp_path, fake_batsim):
    phases = write_workload(
        tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}], {"p": {"type": "datasched_phases", "phases": []}}
    )
    with pytest.raises(UserError, match="datasched_phases profiles, which only datasched-sim runs"):
        run_simulation(PLATFORM, phases, "fcfs", tmp_path / "out", engine="batsim")


def _markov_fallback(tmp_path: Path, n_apps: int) -> Path:
    """Seed 000's multi-application workload in its Batsim-compatible composed form (each
    profile also embeds its phase profile, with its own "type": "datasched_phases")."""
    from datasched.workloads import markov

    params = markov.parse_params({"kind": "multi", "n_apps": n_apps, "max_tasks": 16, "seed": 3})
    return markov.write(markov.generate_from_seed(params), tmp_path / "markov.json", profile_mode="composed")


def test_the_composed_fallback_is_not_refused(tmp_path, fake_batsim):
    """Only profiles whose type is datasched_phases are refused, not a composed profile that
    carries one in its extra field (Batsim ignores it)."""
    run_simulation(SEED000_SAN, _markov_fallback(tmp_path, 2), "fcfs", tmp_path / "out", engine="batsim")
    assert json.loads(fake_batsim.read_text())[0] == "-p"


@needs_real_batsim
@pytest.mark.engine
@pytest.mark.parametrize("policy", ["easy", "fcfs"])
def test_the_composed_fallback_gives_real_batsims_schedule_on_our_engine(tmp_path, policy):
    """Twelve seed-000 applications in composed form (delays, ptasks with flops and
    all-to-all bytes on a dragonfly): real Batsim 4.2.1 accepts every profile, and our engine
    gives the same jobs and machine states, byte for byte."""
    workload = _markov_fallback(tmp_path, 12)
    batsim = run_simulation(SEED000_SAN, workload, policy, tmp_path / "batsim", engine="batsim")
    ours = run_simulation(SEED000_SAN, workload, policy, tmp_path / "sim")
    assert batsim.jobs_csv.read_bytes() == ours.jobs_csv.read_bytes()
    assert batsim.machine_states_csv.read_bytes() == ours.machine_states_csv.read_bytes()


def test_a_failing_batsim_is_named_with_its_message(tmp_path, fake_batsim, workload, monkeypatch):
    monkeypatch.setenv("FAKE_BATSIM_FAIL", "bad platform")
    with pytest.raises(SimulationError) as err:
        run_simulation(PLATFORM, workload, "fcfs", tmp_path / "out", engine="batsim")
    assert "the engine (batsim) exited with status 3" in str(err.value)
    assert "fake failure: bad platform" in str(err.value)
    assert not (tmp_path / "out" / "out_jobs.csv").exists()  # no output of a failed run


def test_conformance_regenerates_into_another_folder_only(tmp_path, fake_batsim):
    """`datasched conformance --engine batsim` writes a complete case folder elsewhere and
    refuses to replace the committed references unless asked."""
    case = tmp_path / "cases" / "tiny"
    shutil.copytree(CONFORMANCE / "tuto1_easy", case)
    with pytest.raises(ValueError, match="would replace its references"):
        conformance.regenerate_case(case, case.parent)
    result = conformance.regenerate_case(case, tmp_path / "new")
    new = tmp_path / "new" / "tiny"
    assert sorted(p.name for p in new.iterdir()) == [
        "case.json",
        "expected_jobs.csv",
        "expected_schedule.csv",
        "platform.xml",
        "workload.json",
    ]  # the fake writes no machine states: the old reference is not copied as if it were new
    assert result.files["jobs"] == "different"  # the fake's empty job table
    assert (case / "expected_jobs.csv").read_bytes() == (CONFORMANCE / "tuto1_easy" / "expected_jobs.csv").read_bytes()


def test_cli_regeneration_needs_a_target(tmp_path, fake_batsim, capsys):
    from datasched.cli import main

    assert main(["conformance", "--engine", "batsim"]) == 2
    assert "--into FOLDER" in capsys.readouterr().err
    assert main(["conformance", "--engine", "batsim", "--into", str(CONFORMANCE)]) == 2
    assert "--overwrite-references" in capsys.readouterr().err


@needs_real_batsim
@pytest.mark.parametrize("name", ["tuto1_easy", "walltime_easy"])
def test_real_batsim_reproduces_its_references(tmp_path, name):
    result = conformance.check_case(CONFORMANCE / name, tmp_path, engine="batsim")
    assert result.identical, "\n".join(result.differences[:20])


@needs_real_batsim
def test_our_policy_runs_unchanged_on_real_batsim(tmp_path):
    """datasched's own policy (python -m datasched.policy.serve) against real Batsim."""
    case = CONFORMANCE / "delays_easy"
    result = run_simulation(case / "platform.xml", case / "workload.json", "easy", tmp_path, engine="batsim")
    jobs = conformance.read_jobs(result.jobs_csv)
    assert jobs and all(row["final_state"].startswith("COMPLETED") for row in jobs.values())


def test_cli_run_with_batsim(tmp_path, fake_batsim, workload, capsys):
    """`datasched run --engine batsim` goes through the same runner: Batsim's outputs are
    read back for the summary line."""
    from datasched.cli import main

    out = tmp_path / "out"
    argv = ["run", "--engine", "batsim", "--platform", str(PLATFORM), "--workload", str(workload)]
    assert main([*argv, "--scheduler", "fcfs", "--output", str(out), "--engine-arg=-E"]) == 0
    assert "0 jobs" in capsys.readouterr().out
    assert json.loads(fake_batsim.read_text())[-1] == "-E"
