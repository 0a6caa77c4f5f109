"""Closed-form timing checks of the platform conventions, run by SimGrid itself with the
engine's models (ptask_L07 and its default solver): what a device endpoint behind links does to a flow.

These exercise the platform; the same cases through ``datasched-sim`` belong to the
engine's own tests once it exposes phase profiles."""

from __future__ import annotations

import pytest

from datasched.platforms import InterconnectParams, StorageNetworkParams, SystemParams, TorusParams, generate, write

GBps = 1e9
LAT = 1e-6


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    """2x2x2 torus, 1 GB/s links with 1 us latency, seed NVM/DRAM rates, 2 I/O servers."""
    params = SystemParams(
        name="timing",
        interconnect=InterconnectParams(topology=TorusParams(dims=(2, 2, 2)), link_bw=1 * GBps, link_lat=LAT),
        storage=StorageNetworkParams(io_servers=2),
    )
    return write(generate(params), tmp_path_factory.mktemp("timing") / "timing.xml")


def ptask(name, src, dst, size):
    """A two-host ptask moving ``size`` bytes from src to dst (the engine's transfer shape)."""
    return f"ptask {name} {src},{dst} 0,0 0,{size!r},0,0"


# rank 0 is node-10; its torus neighbours are ranks 1, 2, 4 (node-11, node-12, node-14)


def test_adjacent_transfer_is_latency_plus_size_over_bandwidth(platform, run_activities):
    done = run_activities(platform, [ptask("ipc", "node-10", "node-11", 3e9)])
    assert done["ipc"] == pytest.approx(LAT + 3e9 / GBps, rel=1e-9)


def test_local_nvm_read_and_write(platform, run_activities):
    done = run_activities(
        platform,
        [ptask("read", "node-10-nvm", "node-10", 4e9), ptask("write", "node-11", "node-11-nvm", 3e9)],
    )
    assert done["read"] == pytest.approx(4e9 / (2 * GBps), rel=1e-9)  # S / 2 GB/s
    assert done["write"] == pytest.approx(3e9 / (1 * GBps), rel=1e-9)  # S / 1 GB/s


def test_local_dram_read(platform, run_activities):
    done = run_activities(platform, [ptask("dram", "node-10-dram", "node-10", 20e9)])
    assert done["dram"] == pytest.approx(20e9 / (10 * GBps), rel=1e-9)


def test_nvm_disk_io_is_s_over_2gbps(platform, run_activities):
    done = run_activities(platform, ["io disk node-10-nvm nvm read 4e9"])
    assert done["disk"] == pytest.approx(2.0, rel=1e-9)


def test_remote_nvm_read_limited_by_1gbps_path(platform, run_activities):
    done = run_activities(platform, [ptask("remote", "node-10-nvm", "node-11", 2e9)])
    assert done["remote"] == pytest.approx(LAT + 2e9 / GBps, rel=1e-9)


def test_two_remote_readers_of_one_nvm_get_1gbps_each(platform, run_activities):
    done = run_activities(
        platform, [ptask("r1", "node-10-nvm", "node-11", 1e9), ptask("r2", "node-10-nvm", "node-12", 1e9)]
    )
    assert done["r1"] == pytest.approx(LAT + 1.0, rel=1e-9)
    assert done["r2"] == pytest.approx(LAT + 1.0, rel=1e-9)


def test_three_remote_readers_are_limited_by_the_device(platform, run_activities):
    """2 GB/s NVM shared by three readers on three distinct 1 GB/s paths: 2/3 GB/s each."""
    lines = [ptask(f"r{i}", "node-10-nvm", dst, 1e9) for i, dst in enumerate(["node-11", "node-12", "node-14"])]
    done = run_activities(platform, lines)
    for i in range(3):
        assert done[f"r{i}"] == pytest.approx(LAT + 1e9 / (2 * GBps / 3), rel=1e-6)


def test_remote_read_shares_a_link_with_ipc(platform, run_activities):
    done = run_activities(
        platform, [ptask("nvm", "node-10-nvm", "node-11", 1e9), ptask("ipc", "node-10", "node-11", 1e9)]
    )
    assert done["nvm"] == pytest.approx(LAT + 2.0, rel=1e-9)
    assert done["ipc"] == pytest.approx(LAT + 2.0, rel=1e-9)


def test_san_read_limited_by_10gbit_nic(platform, run_activities):
    done = run_activities(platform, [ptask("san", "io-0", "node-10-dram", 1.25e9)])
    assert done["san"] == pytest.approx(2 * 10e-6 + 1.0, rel=1e-9)
