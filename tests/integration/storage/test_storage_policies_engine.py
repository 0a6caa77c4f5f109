"""Storage-assignment policies run unchanged under pybatsim's driver against the engine,
with every queue policy: the engine applies the devices the policy chose (out_io.csv)
and the storage option changes where the data lives and therefore the run times.

Platform: the star of conftest.star_platform (4 nodes, 1 GB/s links, NVM 2 GB/s read,
2 I/O servers behind 1.25 GB/s front-ends, each node's 10 GbE NIC 1.25 GB/s).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from datasched.runner import run_simulation
from tests.integration.storage.conftest import GB, Run, descriptor, phases_profile, read, resource_ids, star_platform

pytestmark = pytest.mark.engine


def workload(path: Path) -> Path:
    """Three jobs of 2 nodes, submitted together, each reading 2 GB per task, 100 %
    remote, from k = 1 device (their profiles say internal/disperse)."""
    profile = phases_profile(2, descriptor("internal", k=1, remote=100), [read(2 * GB)])
    jobs = [{"id": i, "subtime": 0, "res": 2, "walltime": 1000, "profile": "app"} for i in range(3)]
    path.write_text(json.dumps({"nb_res": 4, "jobs": jobs, "profiles": {"app": profile}}))
    return path


def run(tmp_path: Path, scheduler: str, storage: object) -> tuple[Run, dict[str, int]]:
    platform = star_platform(tmp_path / "star.xml")
    out = tmp_path / f"out-{scheduler}"
    options = {} if storage is None else {"storage": storage}
    run_simulation(platform, workload(tmp_path / "w.json"), scheduler, out, scheduler_options=options)
    from datasched.engine import find_engine

    return Run(out), resource_ids(find_engine(), platform)


def hosts_of(result: Run, job: str, ids: dict[str, int]) -> set[int]:
    """The job's compute resource ids from out_jobs.csv's allocated_resources."""
    text = result.jobs[job]["allocated_resources"]
    out: set[int] = set()
    for part in text.split():
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


@pytest.mark.parametrize("scheduler", ["fcfs", "easy", "sjf", "conservative"])
@pytest.mark.parametrize("kind", ["cache", "internal", "external", "san"])
def test_the_engine_uses_the_policys_devices(tmp_path, scheduler, kind):
    result, ids = run(tmp_path, scheduler, {"name": kind, "k": 1} if kind != "cache" else kind)
    nvm_owner = {ident: name.removesuffix("-nvm") for name, ident in ids.items() if name.endswith("-nvm")}
    servers = {ident for name, ident in ids.items() if name.startswith("io-")}
    assert len(result.io) == 3
    for job, row in result.io.items():
        assert row["allocation"] == kind
        devices = [int(d) for d in row["devices"].split()]
        hosts = hosts_of(result, job, ids)
        host_names = {name for name, ident in ids.items() if ident in hosts}
        if kind == "san":
            assert len(devices) == 1 and devices[0] in servers
            assert row["san_bytes"] == 4 * GB and row["remote_nvm_bytes"] == 0
        elif kind == "cache":
            assert {nvm_owner[d] for d in devices} == host_names
            assert row["local_nvm_bytes"] == 4 * GB and row["remote_nvm_bytes"] == 0
        elif kind == "internal":
            assert len(devices) == 1 and nvm_owner[devices[0]] in host_names
        else:
            assert len(devices) == 1 and nvm_owner[devices[0]] not in host_names
            assert row["remote_nvm_bytes"] == 4 * GB  # both tasks read a device outside


def test_without_the_option_the_engine_keeps_the_profiles_assignment(tmp_path):
    result, _ = run(tmp_path, "fcfs", None)
    assert {row["allocation"] for row in result.io.values()} == {"internal"}


def test_cache_is_faster_than_one_external_device(tmp_path):
    """Cache: each task reads 2 GB from its own NVM at 2 GB/s = 1 s. External k = 1: two
    tasks read 2 GB each from one NVM (2 GB/s shared) = 2 s at least."""
    (tmp_path / "c").mkdir()
    (tmp_path / "e").mkdir()
    cache, _ = run(tmp_path / "c", "fcfs", "cache")
    external, _ = run(tmp_path / "e", "fcfs", {"name": "external", "k": 1})
    assert cache.runtime("0") == pytest.approx(1.0, rel=1e-3)
    assert external.runtime("0") >= 2.0 - 1e-6
