"""Determinism and bad input of the QoS data-staging engine mode (seed 003): every bad input
gives one line naming the file and field (or the option), a non-zero exit and no output files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from datasched.scenarios import SCENARIOS
from tests.integration.qos.conftest import STAGING

pytestmark = pytest.mark.engine

OUTPUTS = SCENARIOS["qos-staging"].outputs


def _noisy_stencil() -> dict:
    return {
        "staging": STAGING,
        "noise": {"writers": ["client-0", "client-1", "client-2"], "sl": 1},
        "benchmark": {
            "kind": "stencil",
            "hosts": ["client-0", "client-1", "client-2"],
            "grid": [3, 1, 1],
            "iterations": 20,
            "compute_seconds": 1e-4,
            "halo_bytes": 1 << 20,
            "start": 1e-3,
        },
    }


def test_same_inputs_give_byte_identical_outputs(tmp_path, platform, run_qos):
    first = run_qos(platform, _noisy_stencil(), name="a")
    second = run_qos(platform, _noisy_stencil(), name="b")
    for name in OUTPUTS:
        a = Path(f"{first.prefix}_{name}.csv").read_bytes()
        assert a == Path(f"{second.prefix}_{name}.csv").read_bytes(), name
    (row,) = first.table("benchmark")
    assert float(row["communication_time"]) > 0 and float(row["compute_time"]) == pytest.approx(20 * 1e-4)


def _transfer(**fields) -> dict:
    return {"transfers": [{"src": "client-0", "dst": "client-1", "bytes": 1000, "sl": 0} | fields]}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (_transfer(sl=16), "transfers[0].sl: the service level must be an integer 0-15, got 16"),
        (_transfer(sl=9), "transfers[0].sl: SL9 (VL15) is the management lane, which carries no data"),
        (_transfer() | {"colour": "red"}, "colour: unknown key"),
        (_transfer(dst="nowhere"), "transfers[0].dst: no host 'nowhere' in platform"),
        (
            {"arbitration": {"vlarb_low": "1:2,2:4,3:999"}} | _transfer(),
            "arbitration.vlarb_low: expected vl:weight with VL 0-14 and weight 0-255, got '3:999'",
        ),
        (
            {"arbitration": {"high_limit": 256}} | _transfer(),
            "arbitration.high_limit: must be an integer >= 0 and <= 255 (4 KiB bursts; 255: unbounded), got 256",
        ),
        (
            {"arbitration": {"across_tables": "fair"}} | _transfer(),
            'arbitration.across_tables: expected one of pieces, priority, got "fair"',
        ),
        (
            {"noise": {"writers": ["client-0"]}} | _transfer(),
            "staging: missing (required by noise and writes",
        ),
        (
            {"staging": STAGING | {"server": "client-0"}, "writes": [{"host": "client-1", "bytes": 10}]},
            "staging.server: host 'client-0' has 0 disks",
        ),
        (_transfer(dst="pfs-0"), "transfers[0]: no network route from 'client-0' to 'pfs-0' in platform"),
        (
            {"staging": STAGING, "writes": [{"host": "stg-0", "bytes": 10}]},
            "writes[0].host: a flow from 'stg-0' to itself has no network route",
        ),
        (
            {"benchmark": {"kind": "stencil", "hosts": ["client-0", "client-1"], "grid": [3, 1, 1], "halo_bytes": 1}},
            "benchmark.grid: nx x ny x nz = 3 nodes, but hosts lists 2",
        ),
        (
            {"benchmark": {"kind": "allreduce", "hosts": ["client-0", "client-1", "client-2"], "sizes": [8]}},
            "benchmark.hosts: an allreduce needs a power-of-two number of nodes",
        ),
        (
            {"benchmark": {"kind": "allreduce", "hosts": ["client-0", "client-1"], "sizes": [8], "algorithm": "ring"}},
            'benchmark.algorithm: expected one of auto, recursive_doubling, rabenseifner, got "ring"',
        ),
        (
            {"benchmark": {"kind": "bibw", "hosts": ["client-0", "client-1", "client-2"], "sizes": [8]}},
            "benchmark.hosts: a point-to-point benchmark needs two distinct hosts",
        ),
        (
            {"benchmark": {"kind": "alltoall", "hosts": ["client-0", "client-0"], "sizes": [8]}},
            "benchmark.hosts: every node must appear once",
        ),
        (
            {"benchmark": {"kind": "alltoall", "hosts": ["client-0", "client-1"], "sizes": [8], "window": 4}},
            "benchmark.window: unknown key",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_field(tmp_path, platform, run_qos, doc, message):
    result = run_qos(platform, doc, check=False)
    assert result.proc.returncode == 1
    lines = result.proc.stderr.strip().splitlines()
    assert len(lines) == 1, result.proc.stderr
    assert message in lines[0] and "run.json" in lines[0]
    assert not list(result.prefix.parent.glob("*.csv"))


def test_unreadable_experiment_and_conflicting_options(tmp_path, engine, platform):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    proc = subprocess.run(
        [str(engine), "--qos-staging", str(bad), "-p", str(platform), "-e", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1 and "bad.json" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_transfer()))
    proc = subprocess.run(
        [str(engine), "--qos-staging", str(good), "--io-forwarding", str(good), "-p", str(platform)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "one scenario per run: --io-forwarding, --qos-staging" in proc.stderr
