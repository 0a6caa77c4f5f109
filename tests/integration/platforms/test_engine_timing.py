"""Closed-form timings of generated platforms, through the engine itself: jobs whose
`parallel` profile moves bytes between a node and another node or a device endpoint
(node-local NVM), started by a scripted decision process.

small-test-unified: 2x2x2 torus of 1.25 GB/s, 1 us links; each node X has X-nvm behind
X-nvm-read (2 GB/s) / X-nvm-write (1 GB/s) links (platforms/README.md)."""

import json
import subprocess

import pytest

from datasched.engine import find_engine
from tests.conftest import REPO

pytestmark = pytest.mark.engine

PLATFORM = REPO / "platforms" / "catalog" / "small-test-unified.xml"
TOL = 1e-6


@pytest.fixture(scope="module")
def ids():
    out = subprocess.run(
        [str(find_engine()), "-p", str(PLATFORM), "--inspect"], capture_output=True, text=True, check=True
    ).stdout
    return {h["name"]: h["id"] for h in json.loads(out)["hosts"]}


def transfer_time(scripted, alloc, nbytes, source, destination):
    com = [0.0] * 4
    com[source * 2 + destination] = nbytes
    rows = scripted(
        [{"id": 0, "subtime": 0, "res": 2, "profile": "t"}],
        {"t": {"type": "parallel", "cpu": [0, 0], "com": com}},
        platform=PLATFORM,
        alloc={"0": alloc},
    )
    return float(rows["0"]["execution_time"])


def test_transfer_between_adjacent_nodes(scripted, ids):
    """latency + size / bandwidth = 1 us + 2.5e9 / 1.25e9."""
    alloc = f"{ids['node-10']} {ids['node-11']}"
    assert transfer_time(scripted, alloc, 2.5e9, 0, 1) == pytest.approx(1e-6 + 2.0, abs=TOL)


def test_local_nvm_read_and_write(scripted, ids):
    alloc = f"{ids['node-10']} {ids['node-10-nvm']}"
    assert transfer_time(scripted, alloc, 4e9, 1, 0) == pytest.approx(4e9 / 2e9, abs=TOL)  # read: 2 GB/s
    assert transfer_time(scripted, alloc, 4e9, 0, 1) == pytest.approx(4e9 / 1e9, abs=TOL)  # write: 1 GB/s


def test_remote_nvm_read_is_limited_by_the_network(scripted, ids):
    """node-11 reads node-10's NVM: the 1.25 GB/s link, not the 2 GB/s device, limits."""
    alloc = f"{ids['node-11']} {ids['node-10-nvm']}"
    assert transfer_time(scripted, alloc, 2.5e9, 1, 0) == pytest.approx(1e-6 + 2.0, abs=TOL)
