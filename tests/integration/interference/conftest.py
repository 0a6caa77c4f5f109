"""Shared set-up of the storage-daemon interference engine tests (seed 004): small
``ondemand`` platforms (platforms/setups.py ``build_ondemand``: nodes ``node-0``... with an
SSD, ``pfs-0``... external servers, one switch) and a runner of ``datasched-sim --interference``."""

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


def ondemand_platform(path: Path, **params: Any) -> Path:
    from datasched.platforms import OnDemandParams, generate, write

    return write(generate(OnDemandParams(**({"name": "t"} | params))), path)


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Result:
    def __init__(self, prefix: Path, proc: subprocess.CompletedProcess):
        self.prefix = prefix
        self.proc = proc

    def table(self, name: str) -> list[dict[str, str]]:
        return rows(Path(f"{self.prefix}_{name}.csv"))

    def makespan(self) -> float:
        return float(self.table("hpl")[0]["makespan"])


@pytest.fixture
def run_interference(engine, tmp_path):
    """run_interference(platform, experiment_dict, name="run", check=True) -> Result."""

    def run(platform: Path, doc: dict, name: str = "run", check: bool = True) -> Result:
        return Result(*run_engine_mode(engine, "--interference", platform, doc, tmp_path, name, check))

    return run
