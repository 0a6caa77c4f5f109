"""Determinism and bad input of the storage-daemon interference engine mode (seed 004)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from datasched.scenarios import SCENARIOS
from tests.integration.interference.conftest import ondemand_platform

pytestmark = pytest.mark.engine

TABLES = SCENARIOS["interference"].outputs


def _busy(seed: int) -> dict:
    """Two HPL nodes, one IOR node with 4 processes, services on all three, idle noise at
    random phases: every mechanism of the mode at once."""
    nodes = ["node-0", "node-1", "node-2"]
    return {
        "seed": seed,
        "hpl": {"hosts": nodes[:2], "iterations": 20, "flops_per_iteration": 4e8, "bytes_per_iteration": 1e6},
        "ior": {"hosts": nodes[2:], "processes_per_node": 4, "transfer_size": 512, "requests_per_batch": 64},
        "services": {"storage": nodes, "metadata": nodes[:1]},
        "daemon_costs": {
            "flops_per_byte": 10,
            "flops_per_request": 2e4,
            "flops_per_metadata_op": 1e5,
            "idle_flops_per_second": 1e6,
            "idle_period": 0.05,
        },
    }


def test_same_inputs_give_byte_identical_outputs(tmp_path, run_interference):
    """Same experiment and seed twice: byte-identical outputs; another seed moves the idle
    bursts, hence the iteration times."""
    platform = ondemand_platform(tmp_path / "p.xml", nodes=3, pfs_servers=0, cores=4, speed=1e9)
    first = run_interference(platform, _busy(1), name="first")
    second = run_interference(platform, _busy(1), name="second")
    for table in TABLES:
        assert Path(f"{first.prefix}_{table}.csv").read_bytes() == Path(f"{second.prefix}_{table}.csv").read_bytes()
    third = run_interference(platform, _busy(2), name="third")
    assert Path(f"{third.prefix}_iterations.csv").read_bytes() != Path(f"{first.prefix}_iterations.csv").read_bytes()
    assert int(first.table("ior")[0]["requests"]) > 0


def _broken(change):
    doc = _busy(1)
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["daemon_costs"].update(cost_per_byte=1), "daemon_costs.cost_per_byte: unknown key"),
        (
            lambda d: d["daemon_costs"].update(flops_per_request=-5),
            "daemon_costs.flops_per_request: must be a number >= 0 and <= 1e+18 (flops), got -5",
        ),
        (lambda d: d["hpl"].update(hosts=["node-0", "node-9"]), "hpl.hosts: host 'node-9' is not in platform"),
        (
            lambda d: d["services"].update(storage=["node-0", "master"]),
            "services.storage: host 'master' has no <disk>",
        ),
        (lambda d: d["hpl"].pop("flops_per_iteration"), "hpl.flops_per_iteration: missing (required)"),
        (
            lambda d: d.update(simgrid_model="default"),
            'simgrid_model: expected "ptask_L07" or "cas01_cm02", got "default"',
        ),
    ],
)
def test_bad_input_is_one_line_naming_it(tmp_path, run_interference, change, message):
    """Each problem: exit 1, one line on stderr naming the file and the field (and host),
    no output file left behind."""
    platform = ondemand_platform(tmp_path / "p.xml", nodes=3, pfs_servers=0, cores=4, speed=1e9)
    result = run_interference(platform, _broken(change), check=False)
    assert result.proc.returncode == 1
    lines = result.proc.stderr.strip().splitlines()
    assert len(lines) == 1, result.proc.stderr
    assert message in lines[0] and "run.json" in lines[0]
    assert not any(Path(f"{result.prefix}_{t}.csv").exists() for t in TABLES)


def test_malformed_json_and_conflicting_modes(engine, tmp_path):
    platform = ondemand_platform(tmp_path / "p.xml", nodes=3, pfs_servers=0, cores=4, speed=1e9)
    bad = tmp_path / "bad.json"
    bad.write_text('{"hpl": {"hosts": [}')
    proc = subprocess.run(
        [str(engine), "--interference", str(bad), "-p", str(platform), "-e", str(tmp_path / "o")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1 and "bad.json" in proc.stderr
    proc = subprocess.run(
        [str(engine), "--interference", str(bad), "--io-forwarding", str(bad), "-p", str(platform)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "one scenario per run: --io-forwarding, --interference" in proc.stderr
