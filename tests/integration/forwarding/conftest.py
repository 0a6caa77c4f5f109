"""Shared set-up of the I/O forwarding engine tests (seed 002): small platforms from
``platforms/``' ``build_forwarding`` whose flows can be worked out by hand, and a runner of
``datasched-sim --io-forwarding``."""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_engine_mode

pytestmark = pytest.mark.engine


@pytest.fixture(scope="session")
def engine() -> Path:
    from datasched.engine import find_engine

    return find_engine()


def forwarding_platform(path: Path, **params: Any) -> Path:
    """build_forwarding's star: every host has one SPLITDUPLEX NIC (``link_bw`` per direction,
    ``link_lat`` each), so host A -> host B crosses [A_UP, B_DOWN]: latency 2·link_lat."""
    from datasched.platforms import ForwardingParams, generate, write

    return write(generate(ForwardingParams(**params)), path)


def experiment(
    *,
    mode: str = "forwarded",
    nodes: int = 1,
    ppn: int = 1,
    forwarders: int = 1,
    scheduler: str = "fifo",
    servers: int = 1,
    applications: list[dict],
    **extra: Any,
) -> dict:
    doc: dict[str, Any] = {
        "mode": mode,
        "clients": {"nodes": nodes, "processes_per_node": ppn},
        "servers": {"count": servers, "stripe_size": extra.pop("stripe_size", 65536)},
        "applications": applications,
    }
    if "hdd_alpha" in extra:
        doc["servers"]["hdd_alpha"] = extra.pop("hdd_alpha")
    if mode == "forwarded":
        doc["forwarding"] = {"forwarders": forwarders, "scheduler": scheduler} | extra.pop("forwarding", {})
    doc.update(extra)
    return doc


def app(name: str = "A", **fields: Any) -> dict:
    return {
        "name": name,
        "processes": 1,
        "pattern": "file_per_process",
        "operation": "write",
        "request_size": 1_000_000,
        "bytes_per_process": 1_000_000,
    } | fields


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Result:
    def __init__(self, prefix: Path, proc: subprocess.CompletedProcess):
        self.prefix = prefix
        self.proc = proc

    def table(self, name: str) -> list[dict[str, str]]:
        return rows(Path(f"{self.prefix}_{name}.csv"))

    def makespan(self, application: str = "A") -> float:
        return next(float(r["makespan"]) for r in self.table("applications") if r["application"] == application)


@pytest.fixture
def run_forwarding(engine, tmp_path):
    """run_forwarding(platform, experiment_dict, name="run") -> Result (asserts exit 0 unless check=False)."""

    def run(platform: Path, doc: dict, name: str = "run", check: bool = True) -> Result:
        return Result(*run_engine_mode(engine, "--io-forwarding", platform, doc, tmp_path, name, check))

    return run
