"""Energy (-E) by hand: SimGrid's host-energy plugin integrates each host's power over
time, and every figure below is that integral written out.

Platform tests/data/energy.xml: hosts h0 and h1 (resources 0 and 1; the master is not
counted, as in Batsim), no network cost. Per pstate: 0 = 100 Mflop/s, 100 W idle, 200 W
fully loaded; 1 = 50 Mflop/s, 90 W idle, 150 W loaded; 2 = sleep, 10 W; 3 = switching off
(2 s at 120 W); 4 = switching on (4 s at 150 W). A ptask loads its host fully; a delay
job does not load it (idle power).
"""

import csv
import json

import pytest

from datasched.runner import run_simulation
from tests.conftest import TEST_DATA, read_jobs_csv, write_workload
from tests.integration.engine.test_protocol_features import execute, run_raw

pytestmark = pytest.mark.engine

ENERGY = TEST_DATA / "energy.xml"
TOL = 1e-6

COMPUTE_1E9 = {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}  # 10 s at 100 Mflop/s
DELAY_1 = {"type": "delay", "delay": 1}


def run_energy(tmp_path, jobs, profiles, **options):
    workload = write_workload(tmp_path, jobs, profiles)
    log = tmp_path / "events.json"
    result = run_simulation(
        ENERGY,
        workload,
        str(TEST_DATA / "actionSched.py"),
        tmp_path / "out",
        scheduler_options={"log": str(log), **options},
        engine_args=["-E"],
        decision_timeout=30,
    )
    out = result.output_dir

    def rows(name):
        with open(out / f"out_{name}.csv", newline="") as f:
            return list(csv.DictReader(f))

    return read_jobs_csv(result.jobs_csv), json.loads(log.read_text()), rows


def test_idle_computing_asleep_and_awake_again(tmp_path):
    """h0: idle 0-5 s, computes 5-15 s, switches off 15-17 s, sleeps 17-40 s, switches
    on 40-44 s, then idles during a 1 s delay job, 44-45 s. h1 idles 0-45 s.

    E_h0(t) = sum over the stays of power x duration:
      at 40 s: 5x100 + 10x200 + 2x120 + 23x10            = 2970 J
      at 45 s: 2970 + 4x150 + 1x100                       = 3670 J
    E_h1(t) = 100 t. The platform's energy (consumed_energy.csv, ANSWER) is E_h0 + E_h1.
    Jobs: job 0 = 10 s x 200 W = 2000 J; job 1 = 1 s x 100 W = 100 J.
    Schedule: consumed_joules = E(45) - E(5) (first submission to last job end)
      = (3670 + 4500) - (500 + 500) = 7170 J; asleep 23 s, switching off 2 s, on 4 s.
    """
    jobs = [
        {"id": 0, "subtime": 5, "res": 1, "profile": "compute"},
        {"id": 1, "subtime": 40, "res": 1, "profile": "delay"},
    ]
    rows, log, read = run_energy(
        tmp_path,
        jobs,
        {"compute": COMPUTE_1E9, "delay": DELAY_1},
        on_submit={
            "0": [{"execute": "w0!0", "alloc": "0"}],
            "1": [{"query_energy": True}, {"set_state": ["0", 0]}],
        },
        on_complete={"0": [{"set_state": ["0", 2]}]},
        on_state={"0": [{"execute": "w0!1", "alloc": "0"}]},
    )
    assert float(rows["0"]["finish_time"]) == pytest.approx(15, abs=TOL)
    assert float(rows["0"]["consumed_energy"]) == pytest.approx(2000, abs=TOL)
    assert float(rows["1"]["starting_time"]) == pytest.approx(44, abs=TOL)
    assert float(rows["1"]["consumed_energy"]) == pytest.approx(100, abs=TOL)

    changes = [(e["time"], e["state"]) for e in log if e["event"] == "RESOURCE_STATE_CHANGED"]
    assert changes == [(pytest.approx(17, abs=TOL), "2"), (pytest.approx(44, abs=TOL), "0")]
    answers = [e for e in log if e["event"] == "ANSWER"]
    assert answers == [{"event": "ANSWER", "time": 40, "consumed_energy": pytest.approx(2970 + 4000, abs=TOL)}]

    energy = read("consumed_energy")
    assert [r["event_type"] for r in energy] == ["s", "e", "p", "p", "p", "p", "s", "e"]
    last = energy[-1]
    assert last["event_type"] == "e"
    assert float(last["time"]) == pytest.approx(45, abs=TOL)
    assert float(last["energy"]) == pytest.approx(3670 + 4500, abs=TOL)

    pstates = [(r["time"], r["machine_id"], r["new_pstate"]) for r in read("pstate_changes")]
    assert pstates == [("0", "0-1", "0"), ("15", "0", "-2"), ("17", "0", "2"), ("40", "0", "-1"), ("44", "0", "0")]

    (schedule,) = read("schedule")
    assert float(schedule["consumed_joules"]) == pytest.approx(7170, abs=TOL)
    assert float(schedule["time_sleeping"]) == pytest.approx(23, abs=TOL)
    assert float(schedule["time_switching_off"]) == pytest.approx(2, abs=TOL)
    assert float(schedule["time_switching_on"]) == pytest.approx(4, abs=TOL)
    assert (schedule["nb_grouped_switches"], schedule["nb_machine_switches"]) == ("2", "2")


def test_switching_costs_time_and_energy_of_the_virtual_pstates(tmp_path):
    """Both hosts are switched off at 0 in one request and on again when it completes:
    off takes 1 flop / 0.5 flop/s = 2 s at 120 W, on 1 flop / 0.25 flop/s = 4 s at 150 W.
    The request is reported once, for both hosts, when the last one is done (2 s, 6 s).
    The delay job then starts at 6 s and ends at 7 s:
      E(7) = 2 hosts x (2x120 + 4x150 + 1x100) = 2 x 940 = 1880 J.
    """
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "delay"}]
    _, log, read = run_energy(
        tmp_path,
        jobs,
        {"delay": DELAY_1},
        on_begin=[{"set_state": ["0-1", 2]}],
        on_state={"2": [{"set_state": ["0-1", 0]}], "0": [{"execute": "w0!0", "alloc": "0"}]},
    )
    changes = [(e["time"], e["machines"], e["state"]) for e in log if e["event"] == "RESOURCE_STATE_CHANGED"]
    assert changes == [
        (pytest.approx(2, abs=TOL), "(0, 1)", "2"),
        (pytest.approx(6, abs=TOL), "(0, 1)", "0"),
    ]  # pybatsim: a tuple
    last = read("consumed_energy")[-1]
    assert float(last["time"]) == pytest.approx(7, abs=TOL)
    assert float(last["energy"]) == pytest.approx(1880, abs=TOL)


def test_a_pstate_change_scales_a_running_job_by_the_speed_ratio(tmp_path):
    """Job 0 (1e9 flop on h0) starts at 0 at 100 Mflop/s. At 4 s (job 1's submission) h0
    goes to pstate 1, 50 Mflop/s: 4e8 flop done, 6e8 left at half speed take 12 s, so it
    ends at 16 s instead of 10 s. Its energy: 4 s x 200 W + 12 s x 150 W = 2600 J."""
    jobs = [
        {"id": 0, "subtime": 0, "res": 1, "profile": "compute"},
        {"id": 1, "subtime": 4, "res": 1, "profile": "delay"},
    ]
    rows, log, _ = run_energy(
        tmp_path,
        jobs,
        {"compute": COMPUTE_1E9, "delay": DELAY_1},
        on_submit={
            "0": [{"execute": "w0!0", "alloc": "0"}],
            "1": [{"set_state": ["0", 1]}, {"execute": "w0!1", "alloc": "1"}],
        },
    )
    assert float(rows["0"]["finish_time"]) == pytest.approx(16, abs=TOL)
    assert float(rows["0"]["consumed_energy"]) == pytest.approx(2600, abs=TOL)
    changed = [e for e in log if e["event"] == "RESOURCE_STATE_CHANGED"]
    assert [(e["time"], e["state"]) for e in changed] == [(4, "1")]  # between computation pstates: at once


def test_a_killed_job_is_charged_the_energy_of_its_hosts_until_the_kill(tmp_path):
    """Job 0 computes on h0 from 0 (10 s of work, 200 W); job 1 (a 1 s delay) is
    submitted at 4 s, and the reply kills job 0 and starts job 1 on h1. As Batsim 4.2.1
    (jobs_execution.cpp, the killer), the killed job's energy is read at the kill:
      job 0: 4 s x 200 W = 800 J, runtime 4 s; job 1: 1 s x 100 W (a delay loads nothing) = 100 J.
    The platform at 5 s: h0 4x200 + 1x100 = 900 J, h1 5x100 = 500 J, so 1400 J, and the
    schedule's consumed_joules = E(5) - E(0) = 1400 J. The kill is traced as a job end ('e')
    at 4 s, then job 1's start ('s') at 4 s and end at 5 s."""
    jobs = [
        {"id": 0, "subtime": 0, "res": 1, "profile": "compute"},
        {"id": 1, "subtime": 4, "res": 1, "profile": "delay"},
    ]
    rows, log, read = run_energy(
        tmp_path,
        jobs,
        {"compute": COMPUTE_1E9, "delay": DELAY_1},
        on_submit={
            "0": [{"execute": "w0!0", "alloc": "0"}],
            "1": [{"kill": "w0!0"}, {"execute": "w0!1", "alloc": "1"}],
        },
    )
    assert rows["0"]["final_state"] == "COMPLETED_KILLED"
    assert float(rows["0"]["execution_time"]) == pytest.approx(4, abs=TOL)
    assert float(rows["0"]["consumed_energy"]) == pytest.approx(800, abs=TOL)
    assert float(rows["1"]["consumed_energy"]) == pytest.approx(100, abs=TOL)
    assert [e["event"] for e in log].count("JOB_KILLED") == 1

    energy = read("consumed_energy")
    assert [r["event_type"] for r in energy] == ["s", "e", "s", "e"]
    assert float(energy[1]["time"]) == pytest.approx(4, abs=TOL)
    assert float(energy[1]["energy"]) == pytest.approx(4 * 200 + 4 * 100, abs=TOL)
    assert float(energy[-1]["energy"]) == pytest.approx(1400, abs=TOL)
    (schedule,) = read("schedule")
    assert float(schedule["consumed_joules"]) == pytest.approx(1400, abs=TOL)
    assert schedule["nb_jobs_killed"] == "1"


def test_without_energy_the_outputs_are_unchanged(tmp_path):
    """Without -E, consumed_energy is -1 (Batsim's value) and no energy file is written."""
    workload = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"d": DELAY_1})
    result = run_simulation(ENERGY, workload, "easyBackfill", tmp_path / "out", decision_timeout=30)
    assert read_jobs_csv(result.jobs_csv)["0"]["consumed_energy"] == "-1.000000"
    assert not list((tmp_path / "out").glob("out_*energy*.csv"))
    assert not list((tmp_path / "out").glob("out_pstate*.csv"))


# ---- bad input: one line naming the host / property / pstate, non-zero exit ------------


def platform_with(tmp_path, **h0_props):
    """energy.xml with h0's properties replaced (None removes one)."""
    text = ENERGY.read_text()
    start = text.index('<host id="h0"')
    end = text.index("</host>", start)
    props = {
        "wattage_per_state": "100:100:200, 90:90:150, 10:10:10, 120:120:120, 150:150:150",
        "wattage_off": "5",
        "sleep_pstates": "2:3:4",
    }
    props.update(h0_props)
    head = text[start : text.index(">", start) + 1]
    body = "".join(f'\n      <prop id="{k}" value="{v}"/>' for k, v in props.items() if v is not None)
    path = tmp_path / "platform.xml"
    path.write_text(text[:start] + head + body + "\n    " + text[end:])
    return path


@pytest.mark.parametrize(
    "props,message",
    [
        (
            {"wattage_per_state": "100:abc:200, 90:90:150, 10:10:10, 120:120:120, 150:150:150"},
            "host 'h0': property 'wattage_per_state' group 0 '100:abc:200': 'abc' is not a number of watts",
        ),
        (
            {"wattage_per_state": "100:100:200, 90:90:150"},
            "host 'h0': property 'wattage_per_state' has 2 comma-separated group(s) but the host has 5 pstate(s)",
        ),
        (
            {"wattage_per_state": "100, 90:90:150, 10:10:10, 120:120:120, 150:150:150"},
            "group 0 '100' is not 'Idle:Epsilon:AllCores' or 'Idle:AllCores'",
        ),
        ({"wattage_off": "ten"}, "host 'h0': property 'wattage_off': 'ten' is not a number of watts"),
        ({"wattage_per_state": None}, "host 'h0' (resource 0) has no 'wattage_per_state' property"),
        ({"sleep_pstates": "2:3"}, "host 'h0': property 'sleep_pstates': '2:3' is not 'sleep:off:on'"),
        (
            {"sleep_pstates": "2:3:9"},
            "host 'h0': property 'sleep_pstates': in '2:3:9', the switch-on pstate 9 does not exist",
        ),
        ({"sleep_pstates": "2:2:4"}, "pstate 2 is used twice"),
    ],
)
def test_bad_energy_properties_name_host_and_property(tmp_path, props, message):
    platform = platform_with(tmp_path, **props)
    r = run_raw(tmp_path, platform, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"d": DELAY_1}, [[]], ["-E"])
    assert r.returncode != 0
    assert message in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert str(platform) in r.stderr
    assert not list(tmp_path.glob("out_*.csv"))


def test_malformed_wattage_names_its_line(tmp_path):
    platform = platform_with(tmp_path, wattage_per_state="1:2:x, 1:1, 1:1, 1:1, 1:1")
    r = run_raw(tmp_path, platform, [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}], {"d": DELAY_1}, [[]], ["-E"])
    line = 1 + platform.read_text()[: platform.read_text().index('<host id="h0"')].count("\n")
    assert f"line {line}: host 'h0'" in r.stderr, r.stderr


def set_state(resources, pstate):
    return {"type": "SET_RESOURCE_STATE", "data": {"resources": resources, "state": str(pstate)}}


@pytest.mark.parametrize(
    "replies,engine_args,message",
    [
        (
            [[set_state("0", 7)]],
            ["-E"],
            "SET_RESOURCE_STATE '0' -> 7: host 0 (h0) has no pstate 7 (its pstates are 0-4)",
        ),
        ([[set_state("0", 3)]], ["-E"], "pstate 3 is a virtual switching pstate"),
        ([[set_state("5", 0)]], ["-E"], "host 5 does not exist"),
        ([[set_state("0", 2)]], [], "power states need energy: run the engine with -E"),
        (
            [[{"type": "QUERY", "data": {"requests": {"consumed_energy": {}}}}]],
            [],
            "QUERY consumed_energy: energy is not simulated: run the engine with -E",
        ),
        ([[{"type": "QUERY", "data": {"requests": {"waiting_time": {}}}}]], ["-E"], "unknown request 'waiting_time'"),
        ([[set_state("0", 2)], [execute("w0!0", "0")]], ["-E"], "host 0 (h0), which is switching_off"),
        ([[], [execute("w0!0", "0"), set_state("0", 2)]], ["-E"], "host 0 (h0) runs job 'w0!0'"),
    ],
)
def test_bad_power_decisions_are_named(tmp_path, replies, engine_args, message):
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "d"}]
    r = run_raw(tmp_path, ENERGY, jobs, {"d": {"type": "delay", "delay": 100}}, replies, engine_args)
    assert r.returncode != 0
    assert message in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list(tmp_path.glob("out_*.csv"))


@pytest.mark.parametrize("energy", [True, False])
def test_datasched_run_energy_flag_turns_energy_on(tmp_path, energy, capsys):
    """`datasched run --energy` is the engine's -E: one 10 s job at 200 W on h0 costs
    2000 J; without the flag no energy file is written and consumed_energy is -1, as Batsim."""
    from datasched.cli import main

    workload = write_workload(tmp_path, [{"id": 0, "subtime": 0, "res": 1, "profile": "c"}], {"c": COMPUTE_1E9})
    out = tmp_path / "out"
    argv = ["run", "--platform", str(ENERGY), "--workload", str(workload), "--scheduler", "fcfs"]
    assert main([*argv, "--output", str(out), *(["--energy"] if energy else [])]) == 0
    (row,) = read_jobs_csv(out / "out_jobs.csv").values()
    assert float(row["consumed_energy"]) == pytest.approx(2000 if energy else -1, abs=TOL)
    assert (out / "out_consumed_energy.csv").exists() == energy
