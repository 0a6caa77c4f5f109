"""Seed 002's scheduling section end to end on a tiny workload: EASY schedules Markov phase
jobs whose SAN I/O goes through the forwarders (analysis/seed002/scheduling.py); the same run
twice gives byte-identical outputs, and every byte the jobs read or wrote reached the servers."""

from __future__ import annotations

import csv
import math

import pytest

from datasched.analysis.seed002 import scheduling
from datasched.platforms.catalog import catalog_path

pytestmark = [pytest.mark.engine, pytest.mark.slow]


@pytest.mark.parametrize("configuration", ["fifo", "twins-8ms-drain"])
def test_tiny_scheduling_run_is_deterministic_and_accounts_bytes(tmp_path, configuration):
    spec = scheduling.SchedulingSpec(
        configurations=(configuration,), seeds=(3,), n_apps=4, n_phases=6, io_bytes=1e6, mean_interarrival=1.0
    )
    platform = catalog_path("seed002-forwarding")
    outputs = []
    for attempt in ("a", "b"):
        row = scheduling.run_one(spec, configuration, 3, platform, tmp_path / attempt)
        out = tmp_path / attempt / "out"
        outputs.append({name: (out / name).read_bytes() for name in ("out_jobs.csv", "out_io.csv", "out_servers.csv")})
    assert outputs[0] == outputs[1]
    assert row["jobs"] == 4 and row["completed"] + row["walltime_reached"] == 4
    assert row["san_bytes"] > 0 and row["walltime_reached"] == 0
    with open(tmp_path / "a" / "out" / "out_servers.csv", newline="") as f:
        server_bytes = math.fsum(float(r["bytes"]) for r in csv.DictReader(f))
    if row["walltime_reached"] == 0:  # a cut job's last requests may still reach the servers
        assert server_bytes == row["san_bytes"]
