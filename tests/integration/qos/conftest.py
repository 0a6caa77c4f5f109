"""Shared set-up of the QoS data-staging engine tests (seed 003): small staging platforms from
``platforms/``' ``build_staging`` (with a back-end PFS on a separate storage network) whose flows
can be worked out by hand, and a runner of ``datasched-sim --qos-staging``.

Platform notation: every host has one SPLITDUPLEX NIC of ``L`` B/s per direction and ``λ``
latency, so host A → host B crosses [A_UP, B_DOWN]: latency 2λ. The staging server's SSD writes
at ``W`` and reads at ``R`` B/s; its port and the PFS server have storage-network NICs of ``S``
B/s and ``μ`` latency each.
"""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_engine_mode

pytestmark = pytest.mark.engine

L = 4e9
LAT = 1.5e-6
W = 1e9
R = 1.4e9
S = 1.25e9
MU = 10e-6
MIB = 2**20


@pytest.fixture(scope="session")
def engine() -> Path:
    from datasched.engine import find_engine

    return find_engine()


def staging_platform(path: Path, **params: Any) -> Path:
    from datasched.platforms import StagingParams, generate, write

    defaults = {
        "clients": 3,
        "staging_servers": 1,
        "pfs_servers": 1,
        "link_bw": L,
        "link_lat": LAT,
        "ssd_write_bw": W,
        "ssd_read_bw": R,
        "storage_link_bw": S,
        "storage_link_lat": MU,
    }
    return write(generate(StagingParams(**(defaults | params))), path)


STAGING = {"server": "stg-0", "port": "stg-0-san", "pfs": "pfs-0"}


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Result:
    def __init__(self, prefix: Path, proc: subprocess.CompletedProcess):
        self.prefix = prefix
        self.proc = proc

    def table(self, name: str) -> list[dict[str, str]]:
        return rows(Path(f"{self.prefix}_{name}.csv"))

    def ends(self) -> dict[str, float]:
        return {r["name"]: float(r["end"]) for r in self.table("transfers")}


@pytest.fixture
def run_qos(engine, tmp_path):
    """run_qos(platform, experiment_dict, name="run") -> Result (asserts exit 0 unless check=False)."""

    def run(platform: Path, doc: dict, name: str = "run", check: bool = True) -> Result:
        return Result(*run_engine_mode(engine, "--qos-staging", platform, doc, tmp_path, name, check))

    return run


@pytest.fixture
def platform(tmp_path) -> Path:
    return staging_platform(tmp_path / "staging.xml")
