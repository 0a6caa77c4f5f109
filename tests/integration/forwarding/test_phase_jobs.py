"""Phase jobs of scheduling runs through the I/O forwarding layer (``--forwarding-layer``).

A ``datasched_phases`` job with allocation ``san`` on a forwarding platform: each I/O task is
a client stream of blocking requests of ``R`` bytes to its node's forwarder, which sends them
to the job's data servers (sim/src/forwarding/README.md, "Phase jobs through the forwarding
layer"). Notation as in test_closed_form.py: ``L`` NIC bandwidth per direction, ``λ`` per-NIC
latency (a host-to-host route: 2λ), ``B`` HDD bandwidth, ``c`` = 1 control byte. One request of
``S`` bytes through one forwarder takes T1(S) = 8λ + 2S/L + S/B + 2c/L (the standalone
mode's single-request formula, test_one_request_through_one_forwarder).
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.integration.forwarding.conftest import forwarding_platform, rows
from tests.integration.storage.conftest import Run, descriptor, phases_profile, read, run_phases, write_phase

__all__ = ["run_phases"]  # the fixture, imported for pytest

pytestmark = pytest.mark.engine

L = 1.25e9
LAT = 10e-6
B = 150e6
C = 1
S = 1_500_000


def t1(size: float, lat: float = LAT) -> float:
    """One request of ``size`` bytes: client→fwd, fwd→server, disk, and back (two control messages)."""
    return 8 * lat + 2 * size / L + size / B + 2 * C / L


@pytest.fixture
def layer(tmp_path):
    """layer(**fields) -> path of a --forwarding-layer JSON (request size S, FIFO unless told)."""

    def make(**fields):
        path = tmp_path / f"layer{len(list(tmp_path.glob('layer*.json')))}.json"
        path.write_text(json.dumps({"scheduler": "fifo", "request_size": S} | fields))
        return path

    return make


def ids_of(engine, platform):
    out = subprocess.run([str(engine), "-p", str(platform), "--inspect"], capture_output=True, text=True, check=True)
    return {h["name"]: h["id"] for h in json.loads(out.stdout)["hosts"]}


def san_job(nbytes, op="read", san_k=1):
    phase = read(nbytes) if op == "read" else write_phase(nbytes)
    return phases_profile(1, descriptor("san", san_k=san_k), [phase])


@pytest.mark.parametrize("op", ["read", "write"])
def test_one_job_one_request_matches_the_standalone_formula(tmp_path, engine, run_phases, layer, op):
    """One job, one I/O task, S bytes = one request: runtime = T1(S); out_io.csv puts the
    S bytes and the phase time in the san tier."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_lat=LAT)
    ids = ids_of(engine, platform)
    run = run_phases(
        platform,
        [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}],
        {"p": san_job(S, op)},
        alloc={"0": str(ids["client-0"])},
        engine_args=["--forwarding-layer", str(layer())],
    )
    assert run.jobs["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert run.runtime("0") == pytest.approx(t1(S), rel=1e-6)
    assert run.io["0"]["san_bytes"] == S
    assert run.io["0"]["san_seconds"] == pytest.approx(t1(S), rel=1e-6)
    (fwd,) = rows(run.out_dir / "out_forwarders.csv")
    assert (fwd["host"], fwd["scheduler"], fwd["client_requests"], fwd["client_bytes"]) == (
        "fwd-0",
        "fifo",
        "1",
        str(S),
    )
    (srv,) = rows(run.out_dir / "out_servers.csv")
    assert (srv["host"], srv["requests"], srv["bytes"]) == ("server-0", "1", str(S))


def test_requests_follow_each_other(tmp_path, engine, run_phases, layer):
    """n = 3 blocking requests of S (bytes 3S) then a shorter last one of S/2: the requests
    do not overlap, so runtime = 3·T1(S) + T1(S/2)."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_lat=LAT)
    ids = ids_of(engine, platform)
    run = run_phases(
        platform,
        [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}],
        {"p": san_job(3.5 * S)},
        alloc={"0": str(ids["client-0"])},
        engine_args=["--forwarding-layer", str(layer())],
    )
    assert run.runtime("0") == pytest.approx(3 * t1(S) + t1(S / 2), rel=1e-6)
    assert run.io["0"]["san_bytes"] == 3.5 * S


def test_forwarding_layer_without_forwarders_is_one_line(tmp_path, engine, layer):
    """The option on a platform with no forwarder: exit 1, one line naming the option and the platform."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    platform = write(
        generate(
            SystemParams(
                storage_mode="san",
                interconnect=InterconnectParams(topology=FatTreeParams(k=2, levels=1)),
                storage={"io_servers": 1},
            )
        ),
        tmp_path / "san.xml",
    )
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 1, "jobs": [], "profiles": {}}))
    option = layer()
    proc = subprocess.run(
        [
            str(engine),
            "-p",
            str(platform),
            "-w",
            str(workload),
            "--forwarding-layer",
            str(option),
            "-e",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "--forwarding-layer" in lines[0] and str(option) in lines[0] and "forwarder" in lines[0]
    assert "san.xml" in lines[0]


# ---- two jobs on one forwarder ------------------------------------------------------------

# One dispatch of a write of S: data fwd→server, disk, acknowledgement back to the forwarder.
D = 4 * LAT + S / L + S / B + C / L
ACK = 2 * LAT + C / L  # the forwarder's acknowledgement to the client


def start(run, job):
    return float(run.jobs[job]["starting_time"])


def test_two_jobs_share_one_forwarder(tmp_path, engine, run_phases, layer):
    """Two one-request write jobs on client-0 and client-1, both mapped to the one forwarder
    (one worker: max_in_flight 1), submitted together; job 1 starts δ = s1 − s0 after job 0
    (the master's EXECUTE_JOB message crosses the platform; δ < S/L). Their data share the
    forwarder's down-link: job 0's flow is alone for δ, then both get L/2, so job 0's request
    arrives at a = 2λ + 2S/L − δ after s0 and job 1's δ later, while the worker is busy. The
    first dispatch ends at s0 + a + D, the second waits for it: runtimes a + D + ACK and
    a + 2D + ACK − δ."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=2, forwarders=1, servers=1, link_lat=LAT)
    ids = ids_of(engine, platform)
    run = run_phases(
        platform,
        [{"id": i, "subtime": 0, "res": 1, "profile": "p"} for i in range(2)],
        {"p": san_job(S, "write")},
        alloc={"0": str(ids["client-0"]), "1": str(ids["client-1"])},
        engine_args=["--forwarding-layer", str(layer(max_in_flight=1))],
    )
    delta = start(run, "1") - start(run, "0")
    assert 0 <= delta < S / L
    a = 2 * LAT + 2 * S / L - delta
    assert [run.runtime("0"), run.runtime("1")] == pytest.approx([a + D + ACK, a + 2 * D + ACK - delta], abs=2e-6)
    assert run.io["0"]["san_bytes"] == run.io["1"]["san_bytes"] == S


@pytest.mark.parametrize("scheduler", ["fifo", "twins"])
def test_fifo_and_twins_on_two_jobs_by_hand(tmp_path, engine, run_phases, layer, scheduler):
    """One forwarder (one worker), two servers. Job P (data on server-1) starts at sP, job Q
    (data on server-0) at sQ = sP + δ (submitted 2 ms later); one write of S each; a = 2λ + S/L
    (arrival at the forwarder, no overlap: δ > a).
    FIFO: P is dispatched at sP + a, Q waits for it: P = a + D + ACK, Q = a + 2D + ACK − δ.
    TWINS (window W = 50 ms): forwarder 0 serves server 0 in [0, W) and server 1 in [W, 2W):
    Q goes at once, P waits for W: Q = a + D + ACK, P = W − sP + D + ACK."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=2, forwarders=1, servers=2, link_lat=LAT)
    ids = ids_of(engine, platform)
    window = 0.05
    run = run_phases(
        platform,
        [
            {"id": 0, "subtime": 0, "res": 1, "profile": "p"},
            {"id": 1, "subtime": 0.002, "res": 1, "profile": "p"},
        ],
        {"p": san_job(S, "write")},
        alloc={"0": str(ids["client-0"]), "1": str(ids["client-1"])},
        storage={"0": {"devices": [ids["server-1"]]}, "1": {"devices": [ids["server-0"]]}},
        engine_args=["--forwarding-layer", str(layer(scheduler=scheduler, max_in_flight=1, window=window))],
    )
    s_p, delta = start(run, "0"), start(run, "1") - start(run, "0")
    a = 2 * LAT + S / L
    assert a < delta
    if scheduler == "fifo":
        expected = [a + D + ACK, a + 2 * D + ACK - delta]
    else:
        expected = [window - s_p + D + ACK, a + D + ACK]
    assert [run.runtime("0"), run.runtime("1")] == pytest.approx(expected, abs=2e-6)
    assert run.io["0"]["devices"] == str(ids["server-1"]) and run.io["1"]["devices"] == str(ids["server-0"])


# ---- walltime, kills, the end of the run ------------------------------------------------------


def _cut_then_check(tmp_path, engine, run_phases, layer, **cut):
    """Job 0 reads 10 requests of S but is cut (walltime or kill) after about 3; job 1, on the
    same node at t = 1 s (job 0's last request long served), reads one request: T1(S). A
    completion or kill release left over on the node's job actor would end job 1's wait early.
    Links without latency (λ = 0), so that the decision process's kill comes at its date."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_lat=0)
    ids = ids_of(engine, platform)
    node = str(ids["client-0"])
    jobs = [
        {"id": 0, "subtime": 0, "res": 1, "profile": "long", **cut.get("job", {})},
        {"id": 1, "subtime": 1.0, "res": 1, "profile": "short"},
    ]
    return run_phases(
        platform,
        jobs,
        {"long": san_job(10 * S), "short": san_job(S)},
        alloc={"0": node, "1": node},
        kill_at=cut.get("kill_at"),
        engine_args=["--forwarding-layer", str(layer())],
    )


def test_walltime_cuts_a_forwarded_phase(tmp_path, engine, run_phases, layer):
    """Walltime 3.5·T1(S): COMPLETED_WALLTIME_REACHED at the walltime; job 1 then takes T1(S)."""
    walltime = 3.5 * t1(S, 0)
    run = _cut_then_check(tmp_path, engine, run_phases, layer, job={"walltime": walltime})
    assert run.jobs["0"]["final_state"] == "COMPLETED_WALLTIME_REACHED"
    assert run.runtime("0") == pytest.approx(walltime, rel=1e-6)
    assert run.jobs["1"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert run.runtime("1") == pytest.approx(t1(S, 0), rel=1e-6)


def test_kill_during_a_forwarded_phase(tmp_path, engine, run_phases, layer):
    """KILL_JOB at 0.045 s (between 3·T1(S) and 4·T1(S); a round date, as the protocol's
    timestamps are rounded): COMPLETED_KILLED; job 1 then takes T1(S)."""
    run = _cut_then_check(tmp_path, engine, run_phases, layer, kill_at={"0": 0.045})
    assert run.jobs["0"]["final_state"] == "COMPLETED_KILLED"
    assert run.runtime("0") == pytest.approx(0.045, abs=1e-6)
    assert run.jobs["1"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    assert run.runtime("1") == pytest.approx(t1(S, 0), rel=1e-6)


@pytest.mark.parametrize("scheduler", ["fifo", "hbrr", "twins"])
def test_run_ends_while_forwarders_are_busy(tmp_path, engine, run_phases, layer, scheduler):
    """The last job is cut by its walltime while its requests are queued and on the disks of a
    forwarder with 4 workers: the run ends (the server has nothing left) while the forwarder
    workers and client streams — daemons — wait on locks, queues and disks, and SimGrid kills
    them. The kill must unwind them without a mutex simcall (SimGrid 3.32 aborts the process
    otherwise; sim/src/common/kill_safe_lock.hpp): exit 0 and complete outputs."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=4, forwarders=1, servers=2, link_lat=LAT)
    ids = ids_of(engine, platform)
    profile = phases_profile(4, descriptor("san", san_k=2), [read(10 * S)])
    run = run_phases(
        platform,
        [{"id": 0, "subtime": 0, "res": 4, "profile": "p", "walltime": 0.05}],
        {"p": profile},
        alloc={"0": f"{ids['client-0']}-{ids['client-3']}"},
        engine_args=["--forwarding-layer", str(layer(scheduler=scheduler, max_in_flight=4, window=0.001))],
    )
    assert run.jobs["0"]["final_state"] == "COMPLETED_WALLTIME_REACHED"
    assert run.runtime("0") == pytest.approx(0.05, rel=1e-6)
    assert isinstance(run, Run)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"scheduler": "fifo", "sheduler_window": 1}, "sheduler_window"),
        ({"scheduler": "lifo"}, "scheduler"),
        ({"scheduler": "twins", "window": 0}, "window"),
        ({"scheduler": "fifo", "request_size": 0}, "request_size"),
        ({"scheduler": "fifo", "stripe_size": -1}, "stripe_size"),
    ],
)
def test_bad_forwarding_layer_option_is_one_line(tmp_path, engine, fields, message):
    """A bad --forwarding-layer JSON: exit 1, one line naming the file and the field."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1)
    option = tmp_path / "layer.json"
    option.write_text(json.dumps(fields))
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 1, "jobs": [], "profiles": {}}))
    proc = subprocess.run(
        [
            str(engine),
            "-p",
            str(platform),
            "-w",
            str(workload),
            "--forwarding-layer",
            str(option),
            "-e",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(option) in lines[0] and message in lines[0]
