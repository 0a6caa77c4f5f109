"""Bad phase profiles and storage decisions: a non-zero exit with a message naming the
job or profile, and no output file left that could pass for a complete one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from datasched.runner import SimulationError
from tests.integration.storage.conftest import (
    GB,
    communicate,
    compute,
    descriptor,
    phases_profile,
    read,
)

pytestmark = pytest.mark.engine


@pytest.fixture(scope="module")
def san_platform(tmp_path_factory):
    """platforms/' SAN mode: no node NVM."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    params = SystemParams(storage_mode="san", interconnect=InterconnectParams(topology=FatTreeParams(k=4, levels=1)))
    return write(generate(params), tmp_path_factory.mktemp("san") / "san.xml")


def assert_no_outputs(out_dir: Path) -> None:
    leftovers = sorted(p.name for p in out_dir.glob("out_*.csv*"))
    assert leftovers == [], leftovers


def engine_alone(engine: Path, platform: Path, tmp_path: Path, jobs: list, profiles: dict, *extra: str):
    """Runs the engine with no decision process: load-time errors stop it before it
    connects (the unreachable endpoint and short timeout bound the run otherwise)."""
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 1, "jobs": jobs, "profiles": profiles}))
    command = [str(engine), "-p", str(platform), "-w", str(workload), "-e", str(tmp_path / "out")]
    command += ["-s", "tcp://127.0.0.1:1", "--decision-timeout", "5", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def one_app(engine: Path, platform: Path, tmp_path: Path, profile: dict, res: int = 1):
    """Job 3 running profile 'app'."""
    jobs = [{"id": 3, "subtime": 0, "res": res, "profile": "app"}]
    return engine_alone(engine, platform, tmp_path, jobs, {"app": profile})


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda p: p["phases"][0].update(bytes=-1), "phase 0: field 'bytes'"),
        (lambda p: p["storage"].update(mem_hit_pct=101), "field 'mem_hit_pct' = 101 is out of range"),
        (lambda p: p["storage"].update(remote_pct=-3), "field 'remote_pct' = -3 is out of range"),
        (lambda p: p["storage"].update(access="sideways"), "unknown access type 'sideways'"),
        (lambda p: p.update(io_tasks=5), "io_tasks (5) exceeds res (1)"),
        (lambda p: p.update(extra=1), "unknown field 'extra'"),
    ],
)
def test_invalid_phase_profile_names_the_profile(engine, star, tmp_path, mutate, message):
    platform, _ids = star
    profile = phases_profile(1, descriptor(), [read(1 * GB)])
    mutate(profile)
    r = one_app(engine, platform, tmp_path, profile)
    assert r.returncode != 0
    assert "profile 'app'" in r.stderr and message in r.stderr, r.stderr
    assert_no_outputs(tmp_path)


def test_job_size_must_match_the_profile(engine, star, tmp_path):
    platform, _ids = star
    jobs = [{"id": 3, "subtime": 0, "res": 2, "profile": "app"}]
    r = engine_alone(engine, platform, tmp_path, jobs, {"app": phases_profile(1, descriptor(), [read(1)])})
    assert r.returncode != 0 and "w0!3" in r.stderr and "sized for res = 1" in r.stderr


def test_san_job_on_a_platform_without_io_servers(engine, run_phases, tmp_path):
    """Checked when the job starts (a storage policy may override the profile's allocation)."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    # k = 1 I/O server is the minimum the generator builds: remove it from the XML.
    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=2, levels=1)),
        storage={"io_servers": 1},
    )
    text = write(generate(params), tmp_path / "p.xml").read_text()
    no_servers = tmp_path / "no_servers.xml"
    no_servers.write_text(text.replace('value="io_server"', 'value="decommissioned"'))
    message = run_expecting_error(run_phases, no_servers, phases_profile(1, descriptor("san"), [read(1 * GB)]), "0")
    assert "profile 'app'" in message and "w0!3" in message and "no I/O server" in message, message
    assert_no_outputs(tmp_path / "out0")


def test_node_storage_job_on_a_san_platform(run_phases, san_platform):
    message = run_expecting_error(
        run_phases, san_platform, phases_profile(1, descriptor("internal"), [read(1 * GB)]), "0"
    )
    assert "profile 'app'" in message and "needs node NVM" in message, message


def test_a_san_override_on_a_san_platform_runs_an_internal_profile(run_phases, san_platform):
    """The same profile runs when the decision moves its data to central storage."""
    result = run_phases(
        san_platform,
        [{"id": 3, "subtime": 0, "res": 1, "profile": "app"}],
        {"app": phases_profile(1, descriptor("internal"), [read(1 * GB)])},
        alloc={"3": "0"},
        storage={"3": {"allocation": "san"}},
    )
    assert result.io["3"]["allocation"] == "san" and result.io["3"]["san_bytes"] == 1 * GB


def run_expecting_error(run_phases, platform, profile, alloc, storage=None, policy="np") -> str:
    jobs = [{"id": 3, "subtime": 0, "res": profile["res"], "profile": "app"}]
    with pytest.raises(SimulationError) as error:
        run_phases(platform, jobs, {"app": profile}, alloc={"3": alloc}, storage=storage, policy=policy)
    return str(error.value)


def test_more_internal_devices_than_nodes(run_phases, star, tmp_path):
    platform, ids = star
    message = run_expecting_error(
        run_phases, platform, phases_profile(1, descriptor("internal", k=2), [read(1)]), str(ids["node-10"])
    )
    assert "job 'w0!3'" in message and "stg_k = 2 internal devices" in message


def test_more_san_servers_than_the_platform_has(run_phases, star):
    platform, ids = star
    message = run_expecting_error(
        run_phases, platform, phases_profile(1, descriptor("san", san_k=3), [read(1)]), str(ids["node-10"])
    )
    assert "job 'w0!3'" in message and "san_k = 3 I/O servers, but the platform has 2" in message


@pytest.mark.parametrize(
    ("device", "why"),
    [
        ("node-11", "is not a node NVM endpoint"),
        ("io-0", "is not a node NVM endpoint"),
        ("node-11-dram", "is not a node NVM endpoint"),
    ],
)
def test_a_device_that_is_not_an_nvm(run_phases, star, device, why):
    platform, ids = star
    profile = phases_profile(1, descriptor("external", remote=100), [read(1)])
    message = run_expecting_error(
        run_phases, platform, profile, str(ids["node-10"]), storage={"3": {"devices": [ids[device]]}}
    )
    assert "job 'w0!3'" in message and why in message


def test_a_san_device_that_is_not_an_io_server(run_phases, star):
    platform, ids = star
    message = run_expecting_error(
        run_phases,
        platform,
        phases_profile(1, descriptor("san"), [read(1)]),
        str(ids["node-10"]),
        storage={"3": {"devices": [ids["node-12-nvm"]]}},
    )
    assert "job 'w0!3'" in message and "is not an I/O server" in message


def test_storage_field_on_a_batsim_profile_is_refused(run_phases, star, tmp_path):
    platform, ids = star
    jobs = [{"id": 3, "subtime": 0, "res": 1, "profile": "d"}]
    with pytest.raises(SimulationError, match="datasched_storage applies to datasched_phases jobs only"):
        run_phases(
            platform,
            jobs,
            {"d": {"type": "delay", "delay": 1}},
            alloc={"3": str(ids["node-10"])},
            storage={"3": {"devices": [ids["node-12-nvm"]]}},
        )


def test_malformed_storage_field(run_phases, star):
    platform, ids = star
    profile = phases_profile(1, descriptor("external", remote=100), [read(1)])
    message = run_expecting_error(
        run_phases,
        platform,
        profile,
        str(ids["node-10"]),
        storage={"3": {"devices": [ids["node-12-nvm"]], "speed": "fast"}},
    )
    assert "'datasched_storage': unknown field 'speed'" in message


@pytest.mark.parametrize(
    ("storage", "fragment"),
    [
        ({"allocation": "tape"}, "unknown storage allocation 'tape'"),
        ({"allocation": 3}, "'allocation' must be a string"),
        ({"allocation": "san", "devices": ["NVM"]}, "is not an I/O server"),
    ],
)
def test_bad_allocation_override(run_phases, star, storage, fragment):
    platform, ids = star
    storage = {k: ([ids["node-12-nvm"]] if v == ["NVM"] else v) for k, v in storage.items()}
    profile = phases_profile(1, descriptor("internal", remote=100), [read(1)])
    message = run_expecting_error(run_phases, platform, profile, str(ids["node-10"]), storage={"3": storage})
    assert fragment in message and "w0!3" in message, message


@pytest.mark.parametrize("policy", ["ba:0", "ba:100", "weights:ipc=1", "weights:ipc=1,disk=2", "lottery"])
def test_bad_traffic_policy_names_the_option(engine, star, tmp_path, policy):
    platform, _ids = star
    r = engine_alone(engine, platform, tmp_path, [], {}, "--traffic-policy", policy)
    assert r.returncode != 0 and f"--traffic-policy '{policy}'" in r.stderr, r.stderr


@pytest.mark.parametrize("policy", ["np", "fp", "ba:50"])
def test_striped_san_read_runs_under_every_policy(run_phases, star, policy):
    """Two SAN stripes through one node NIC (SimGrid 3.32's BMF solver aborted on this
    under fp): only storage traffic, so every policy gives the NIC's rate,
    t = 2.5 GB / 1.25 GB/s = 2 s."""
    platform, ids = star
    profile = phases_profile(1, descriptor("san", san_k=2), [read(2.5 * GB)])
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}]
    r = run_phases(platform, jobs, {"p": profile}, alloc={"0": str(ids["node-10"])}, policy=policy)
    assert r.jobs["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert r.runtime("0") == pytest.approx(2.0, abs=1e-5)


def test_ipc_only_profile_needs_no_storage(run_phases, star):
    """A phase job without I/O still gets an out_io.csv row (and no device checks fail)."""
    platform, ids = star
    jobs = [{"id": 0, "subtime": 0, "res": 2, "profile": "p"}]
    r = run_phases(
        platform,
        jobs,
        {"p": phases_profile(2, descriptor(), [communicate(1 * GB)])},
        alloc={"0": f"{ids['node-10']} {ids['node-11']}"},
    )
    assert r.io["0"]["network_bytes"] == 2 * GB


@pytest.mark.parametrize(
    ("phase", "named"),
    [(read(1e300), "phase 0: field 'bytes'"), (compute(1e300), "phase 0: field 'flops'")],
)
def test_a_phase_beyond_the_largest_date_names_the_profile_not_the_decision_process(run_phases, star, phase, named):
    """Issue 32: a read of 1e300 bytes ends near 5e290 s, past 1e23 s, the largest date
    Batsim 4.2.1 can write in its protocol; the error was blamed on the decision process
    (which echoed the date) and printed the date with 291 digits. Such an amount is now
    refused when the workload is read, naming the profile and the field
    (model/batsim_numbers.hpp)."""
    platform, ids = star
    message = run_expecting_error(
        run_phases, platform, phases_profile(1, descriptor("internal"), [phase]), str(ids["node-10"])
    )
    assert "\n" not in message, message  # the engine's line alone, then its status and log
    line = message.split(" (datasched-sim exited with status")[0]
    assert "profile 'app': " + named + " must be a number >= 0 and <= 1e23" in line, line
    assert "got 1e+300" in line, line
    assert "decision process" not in line and len(line) < 300, line
