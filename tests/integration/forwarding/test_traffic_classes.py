"""Forwarded I/O is storage traffic for ``--traffic-policy``: closed forms through the engine.

The platform (a hand-written Full-routing line, tests/integration/storage/conftest.py's
``line_platform``, recast): side A (switch S0) holds compute nodes ``c0`` and ``c2``; side B
(switch S1) holds compute node ``c1``, the forwarder ``f0`` and the data server ``s0`` (one
disk). The only shared link is the core link ``c1`` (SPLITDUPLEX, L = 1 GB/s each way, no
latency): access links are 100 GB/s. Job 0 (IPC) is an all-to-all on c0, c1 in which each
node sends X (c0 -> c1 crosses c1 UP); job 1 writes S bytes from c2 through the forwarding
layer in one request (c2 -> f0 crosses c1 UP; f0 -> s0, the disk and the two control bytes
back stay on side B or cross c1 DOWN after the IPC has ended).

So on c1 UP one IPC unit meets one storage unit (one activity or one flow each: the same in
both sharing modes), with parts (a, b) of L by policy (NP 1/2 : 1/2, BA:75 3/4 : 1/4, FP
1e6 : 1, weights A : B). The first of the two to finish does at its bytes / (part x L); the
other has moved its part x L x that time and moves the rest alone at L
(test_traffic_policies.two_on_one_link). Everything after the write's first leg (the
forwarder -> server copy, the disk at 150 MB/s, the control bytes back) happens after the
IPC has ended under every policy here (X = 4 GB, S = 1 GB: the IPC ends by X + S over L =
5 s, the disk alone takes 6.7 s), and is the same under every policy, so

    runtime(job 0) = t_ipc(policy)
    runtime(job 1, policy) - runtime(job 1, NP) = t_storage(policy) - t_storage(NP)

Before the forwarded transfers were reported to the arbiter (execution/traffic.hpp,
StorageTransfers), FP and BA left the forwarded write at its NP share.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.integration.storage.conftest import (
    GB,
    communicate,
    descriptor,
    line_platform,
    phases_profile,
    resource_ids,
    run_phases,
    write_phase,
)
from tests.integration.storage.test_traffic_policies import shares, two_on_one_link

__all__ = ["run_phases"]  # the fixture, imported for pytest

pytestmark = pytest.mark.engine

L = 1 * GB
X = 4 * GB
S = 1 * GB


def forwarding_line(path: Path) -> Path:
    """line_platform with f0 as the forwarder and s0 as a data server with one disk."""
    line_platform(path, {"c0": 0, "c2": 0, "c1": 1, "f0": 1, "s0": 1}, hops=1)
    tree = ET.parse(path)
    zone = tree.getroot().find("zone")
    assert zone is not None
    # f0 and s0 are not compute nodes: drop their NVM/DRAM endpoints and those routes
    for element in list(zone):
        ends = {element.get("id", ""), element.get("src", ""), element.get("dst", "")}
        if element.tag in ("host", "route") and ends & {f"{n}-{e}" for n in ("f0", "s0") for e in ("nvm", "dram")}:
            zone.remove(element)
    for host in zone.iter("host"):
        role = {"f0": "forwarder", "s0": "io_server"}.get(host.get("id", ""))
        if role is None:
            continue
        for prop in host.iter("prop"):
            if prop.get("id") in ("role", "datasched_role"):
                prop.set("value", "storage" if prop.get("id") == "role" else role)
        if role == "io_server":
            ET.SubElement(host, "disk", id="disk", read_bw="150000000Bps", write_bw="150000000Bps")
    header = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    path.write_text(header + ET.tostring(tree.getroot(), encoding="unicode") + "\n")
    return path


@pytest.fixture(scope="module")
def platform(tmp_path_factory, engine):
    path = forwarding_line(tmp_path_factory.mktemp("fwdline") / "line.xml")
    return path, resource_ids(engine, path)


def run_both(run_phases, tmp_path, platform, policy, sharing):
    path, ids = platform
    layer = tmp_path / f"layer-{policy.replace(':', '_')}-{sharing}.json"
    layer.write_text(json.dumps({"scheduler": "fifo", "request_size": int(S)}))
    jobs = [
        {"id": 0, "subtime": 0, "res": 2, "profile": "ipc"},
        {"id": 1, "subtime": 0, "res": 1, "profile": "io"},
    ]
    profiles = {
        "ipc": phases_profile(2, descriptor(), [communicate(X)]),
        "io": phases_profile(1, descriptor("san", san_k=1), [write_phase(S)]),
    }
    run = run_phases(
        path,
        jobs,
        profiles,
        policy=policy,
        alloc={"0": f"{ids['c0']} {ids['c1']}", "1": str(ids["c2"])},
        engine_args=["--forwarding-layer", str(layer), "--sharing", sharing],
    )
    assert {run.jobs[j]["final_state"] for j in ("0", "1")} == {"COMPLETED_SUCCESSFULLY"}
    return run


def on_the_core_link(policy: str) -> tuple[float, float]:
    """(IPC end, end of the forwarded write's first leg) on c1 UP."""
    return two_on_one_link(X, S, shares(policy))


@pytest.mark.parametrize("sharing", ["activity", "flow"])
@pytest.mark.parametrize("policy", ["ba:75", "fp", "weights:ipc=1,storage=3"])
def test_forwarded_write_is_weighted_as_storage(run_phases, tmp_path, platform, policy, sharing):
    np_run = run_both(run_phases, tmp_path, platform, "np", sharing)
    run = run_both(run_phases, tmp_path, platform, policy, sharing)
    ipc_np, storage_np = on_the_core_link("np")
    ipc, storage = on_the_core_link(policy)
    assert np_run.runtime("0") == pytest.approx(ipc_np, rel=1e-6)
    assert run.runtime("0") == pytest.approx(ipc, rel=1e-6)
    assert run.runtime("1") - np_run.runtime("1") == pytest.approx(storage - storage_np, abs=1e-5)
