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

from tests.integration.forwarding.conftest import forwarding_platform
from tests.integration.storage.conftest import Run, descriptor, phases_profile, read, run_phases, write_phase

__all__ = ["run_phases"]  # the fixture, imported for pytest

pytestmark = pytest.mark.engine

L = 1.25e9
LAT = 10e-6
B = 150e6
C = 1
S = 1_500_000


def t1(size: float) -> float:
    """One request of ``size`` bytes: client→fwd, fwd→server, disk, and back (two control messages)."""
    return 8 * LAT + 2 * size / L + size / B + 2 * C / L


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
        [str(engine), "-p", str(platform), "-w", str(workload), "--forwarding-layer", str(option), "-e", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "--forwarding-layer" in lines[0] and str(option) in lines[0] and "forwarder" in lines[0]
    assert "san.xml" in lines[0]
