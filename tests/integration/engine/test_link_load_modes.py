"""``--link-load-window`` in the three experiment modes (``--io-forwarding``, ``--qos-staging``,
``--interference``): each writes ``PREFIX_links.csv`` with the measure of scheduling runs
(sim/src/export/links_csv.hpp, one LinkLoadCsv per run), checked against one closed form per mode.

Every platform here gives each host one SPLITDUPLEX NIC of ``L`` B/s per direction, so a transfer
host A -> host B of S bytes crosses ``A-nic_UP`` and ``B-nic_DOWN``: alone on them it puts S bytes
on each, busy S / L seconds (its route latency moves no byte and counts no busy time). One window
(1 s) covers each whole run, so each link is one row: ``bytes``, ``busy_seconds`` and
``utilisation = bytes / (L x 1 s)``. Links that carry nothing have no row.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.conftest import run_engine_mode
from tests.integration.forwarding.conftest import app, experiment, forwarding_platform
from tests.integration.interference.conftest import ondemand_platform
from tests.integration.qos.conftest import staging_platform

pytestmark = pytest.mark.engine

WINDOW = ["--link-load-window", "1"]


@pytest.fixture(scope="module")
def engine() -> Path:
    from datasched.engine import find_engine

    return find_engine()


def _links(prefix: Path) -> dict[str, tuple[float, float, float]]:
    """link -> (bytes, busy seconds, utilisation) of the one window."""
    with open(f"{prefix}_links.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert all((r["window_start"], r["window_end"]) == ("0.000000", "1.000000") for r in rows)
    return {r["link"]: (float(r["bytes"]), float(r["busy_seconds"]), float(r["utilisation"])) for r in rows}


def _assert_loads(
    got: Mapping[str, tuple[float, float, float]], expected: Mapping[str, float], bandwidth: float
) -> None:
    """``expected``: link -> bytes, each moved alone on the link: busy bytes / L, utilisation
    bytes / L (over the 1 s window). Written with 6 decimals: compared to ±1e-6 absolute."""
    assert sorted(got) == sorted(expected)
    for link, nbytes in expected.items():
        carried, busy, utilisation = got[link]
        assert carried == pytest.approx(nbytes, abs=1e-6), link
        assert busy == pytest.approx(nbytes / bandwidth, abs=1e-6), link
        assert utilisation == pytest.approx(nbytes / bandwidth, abs=1e-6), link


def test_qos_one_transfer_loads_its_two_nics_with_its_bytes(engine, tmp_path):
    """One high-table transfer (SL0) of N = 1 GB client-0 -> client-1, nothing else: N bytes on
    client-0-nic_UP and on client-1-nic_DOWN, each busy N / L = 0.25 s (L = 4 GB/s)."""
    bandwidth, n = 4e9, 1e9
    platform = staging_platform(tmp_path / "p.xml", clients=3, link_bw=bandwidth)
    doc = {"transfers": [{"name": "t", "src": "client-0", "dst": "client-1", "bytes": n, "sl": 0, "start": 0.0}]}
    prefix, _ = run_engine_mode(engine, "--qos-staging", platform, doc, tmp_path, "qos", True, WINDOW)
    _assert_loads(_links(prefix), {"client-0-nic_UP": n, "client-1-nic_DOWN": n}, bandwidth)


def test_forwarding_one_write_through_one_forwarder(engine, tmp_path):
    """One forwarded write of S = 1 MB (tests/integration/forwarding/test_closed_form.py's
    case): data client -> forwarder -> server, then the c = 1-byte acknowledgement server ->
    forwarder -> client. Per NIC direction: client UP S, forwarder DOWN S + c, forwarder UP
    S + c, server DOWN S, server UP c, client DOWN c; each transfer alone, busy bytes / L."""
    bandwidth, s, c = 1.25e9, 1_000_000, 1
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_bw=bandwidth)
    hosts = _host_names(platform)
    client, forwarder, server = (next(h for h in hosts if h.startswith(k)) for k in ("client", "fwd", "server"))
    doc = experiment(applications=[app(request_size=s, bytes_per_process=s)])
    prefix, _ = run_engine_mode(engine, "--io-forwarding", platform, doc, tmp_path, "fw", True, WINDOW)
    expected = {
        f"{client}-nic_UP": s,
        f"{forwarder}-nic_DOWN": s + c,
        f"{forwarder}-nic_UP": s + c,
        f"{server}-nic_DOWN": s,
        f"{server}-nic_UP": c,
        f"{client}-nic_DOWN": c,
    }
    _assert_loads(_links(prefix), expected, bandwidth)


def test_interference_ior_writes_load_the_client_and_target_nics(engine, tmp_path):
    """One IOR process on node-1 writes b = 4 MB in one batch of 4 requests to the storage target
    on node-0, control messages of 0 bytes (file creation, acknowledgement); HPL on node-0
    computes only. So node-1-nic_UP and node-0-nic_DOWN carry b each, busy b / L
    (L = 12.5 GB/s), and no other link carries a byte."""
    bandwidth, b = 12.5e9, 4_000_000
    platform = ondemand_platform(tmp_path / "p.xml", nodes=4, pfs_servers=1, cores=1, speed=1e9)
    doc = {
        "hpl": {"hosts": ["node-0"], "iterations": 1, "flops_per_iteration": 4e9},
        "services": {"storage": ["node-0"], "metadata": ["node-2"], "chunk_size": b},
        "ior": {
            "hosts": ["node-1"],
            "transfer_size": b // 4,
            "requests_per_process": 4,
            "requests_per_batch": 4,
            "control_bytes": 0,
        },
        "daemon_costs": {},
    }
    prefix, _ = run_engine_mode(engine, "--interference", platform, doc, tmp_path, "ior", True, WINDOW)
    _assert_loads(_links(prefix), {"node-1-nic_UP": b, "node-0-nic_DOWN": b}, bandwidth)


def test_without_the_option_no_links_file_and_a_failed_run_leaves_none(engine, tmp_path):
    """Off by default; and a run that fails (an unknown host) removes a previous run's file."""
    platform = staging_platform(tmp_path / "p.xml", clients=3)
    doc = {"transfers": [{"name": "t", "src": "client-0", "dst": "client-1", "bytes": 1e6, "sl": 0, "start": 0.0}]}
    prefix, _ = run_engine_mode(engine, "--qos-staging", platform, doc, tmp_path, "q", True)
    assert not Path(f"{prefix}_links.csv").exists()
    prefix, _ = run_engine_mode(engine, "--qos-staging", platform, doc, tmp_path, "q", True, WINDOW)
    assert Path(f"{prefix}_links.csv").exists()
    bad = {"transfers": [doc["transfers"][0] | {"dst": "nowhere"}]}
    prefix, proc = run_engine_mode(engine, "--qos-staging", platform, bad, tmp_path, "q", False, WINDOW)
    assert proc.returncode != 0 and "nowhere" in proc.stderr
    assert not Path(f"{prefix}_links.csv").exists()


def _host_names(platform: Path) -> list[str]:
    import re

    return re.findall(r'<host id="([^"]+)"', platform.read_text())
