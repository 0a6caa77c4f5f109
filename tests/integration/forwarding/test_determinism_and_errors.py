"""Determinism and bad input of the I/O forwarding engine mode (seed 002)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from datasched.scenarios import SCENARIOS
from tests.integration.forwarding.conftest import app, experiment, forwarding_platform

pytestmark = pytest.mark.engine


def _jittered(scheduler: str) -> dict:
    a = app(
        processes=8,
        pattern="shared_strided",
        operation="read",
        request_size=32768,
        bytes_per_process=8 * 32768,
        jitter=0.001,
    )
    return experiment(
        nodes=4,
        ppn=2,
        forwarders=2,
        servers=2,
        scheduler=scheduler,
        seed=7,
        applications=[a],
        hdd_alpha=0.2,
        outputs={"dispatch_trace": True},
    )


@pytest.mark.parametrize("scheduler", ["fifo", "hbrr", "twins"])
def test_same_inputs_give_byte_identical_outputs(tmp_path, run_forwarding, scheduler):
    """Same experiment and seed, twice: every output file is byte-identical; another seed
    changes the jittered start times, hence the outputs."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=4, forwarders=2, servers=2)
    first = run_forwarding(platform, _jittered(scheduler), name="first")
    second = run_forwarding(platform, _jittered(scheduler), name="second")
    for table in SCENARIOS["io-forwarding"].outputs:
        a = Path(f"{first.prefix}_{table}.csv").read_bytes()
        assert a == Path(f"{second.prefix}_{table}.csv").read_bytes(), table
    other = _jittered(scheduler) | {"seed": 8}
    third = run_forwarding(platform, other, name="third")
    assert Path(f"{third.prefix}_dispatches.csv").read_bytes() != Path(f"{first.prefix}_dispatches.csv").read_bytes()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["forwarding"].update(mapping=[0, 1, 1, 7]),
            "forwarding.mapping: client node 3 is mapped to forwarder 7, which does not exist",
        ),
        (
            lambda d: d["forwarding"].update(mapping=["fwd-0", "fwd-1", "fwd-1", "fwd-9"]),
            "forwarding.mapping: client node 3 is mapped to forwarder 'fwd-9', which is not one of the experiment's",
        ),
        (lambda d: d["servers"].update(stripe_size=0), "servers.stripe_size: must be an integer >= 1 and <="),
        (lambda d: d["servers"].update(stripe_size=-65536), "servers.stripe_size: must be an integer >= 1 and"),
        (lambda d: d["forwarding"].update(window=0), "forwarding.window: must be a number >= 1e-09 and"),
        (lambda d: d["forwarding"].update(window=-0.001), "forwarding.window: must be a number >= 1e-09"),
        (lambda d: d.update(colour="red"), "colour: unknown key"),
        (
            lambda d: d["servers"].update(cache={"write_behind": 65536}),
            "servers.cache.memory_bandwidth: missing (required)",
        ),
        (
            lambda d: d["servers"].update(cache={"memory_bandwidth": 0, "write_behind": 65536}),
            "servers.cache.memory_bandwidth: must be a number > 0",
        ),
        (
            lambda d: d["servers"].update(cache={"memory_bandwidth": 1e10, "write_behind": -1}),
            "servers.cache.write_behind: must be an integer >= 0",
        ),
        (
            lambda d: d["servers"].update(cache={"memory_bandwidth": 1e10, "read_ahead": "4 MiB"}),
            "servers.cache.read_ahead: expected an integer >= 0",
        ),
        (
            lambda d: d["servers"].update(cache={"memory_bandwidth": 1e10, "dirty": 1}),
            "servers.cache.dirty: unknown key",
        ),
        (
            lambda d: d["forwarding"].update(aggregation_limit=0),
            "forwarding.aggregation_limit: must be an integer >= 1",
        ),
        (lambda d: d["forwarding"].update(forwarders=3), "forwarding.forwarders: asks for 3 hosts of role 'forwarder'"),
    ],
)
def test_bad_experiment_one_line_nonzero_no_outputs(tmp_path, engine, change, message):
    """Each error: exit 1, one line naming the experiment file and the field, no output left
    (not even a previous run's)."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=4, forwarders=2, servers=2)
    doc = _jittered("twins")
    change(doc)
    exp = tmp_path / "bad.json"
    exp.write_text(json.dumps(doc))
    prefix = tmp_path / "out"
    stale = Path(f"{prefix}_applications.csv")
    stale.write_text("stale\n")
    proc = subprocess.run(
        [str(engine), "--io-forwarding", str(exp), "-p", str(platform), "-e", str(prefix)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(exp) in lines[0] and message in lines[0], lines[0]
    assert list(tmp_path.glob("out_*")) == []


def test_malformed_json_names_the_file_and_line(tmp_path, engine):
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1)
    exp = tmp_path / "broken.json"
    exp.write_text('{\n  "mode": "direct",\n  oops\n}')
    proc = subprocess.run(
        [str(engine), "--io-forwarding", str(exp), "-p", str(platform), "-e", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert str(exp) in proc.stderr and "line 3" in proc.stderr, proc.stderr


def test_mapping_by_forwarder_names(tmp_path, run_forwarding):
    """Client nodes mapped by host name: all four nodes on fwd-1 -> fwd-0 receives nothing."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=4, forwarders=2, servers=2)
    doc = _jittered("fifo")
    doc["forwarding"]["mapping"] = ["fwd-1"] * 4
    fwd = run_forwarding(platform, doc).table("forwarders")
    assert [int(r["client_requests"]) for r in fwd] == [0, 64]


def test_io_forwarding_refuses_a_workload(tmp_path, engine):
    """The mode runs without a decision process: a workload given with it is a usage error."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1)
    exp = tmp_path / "e.json"
    exp.write_text(json.dumps(experiment(applications=[app()])))
    proc = subprocess.run(
        [str(engine), "--io-forwarding", str(exp), "-p", str(platform), "-w", str(exp)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "--io-forwarding runs an experiment on its own" in proc.stderr
