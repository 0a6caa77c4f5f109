"""Data movers (DATASCHED_STAGE / DATASCHED_STAGE_DONE, execution/data_mover.hpp) against
closed-form dates on the ``star`` platform (conftest.star_platform: NVM 2 GB/s read, 1 GB/s
write; node NIC and I/O-server front-ends 1.25 GB/s; host speed 1e10 flop/s; no latency).
The decision process is tests/data/stageSched.py (raw protocol)."""

from __future__ import annotations

import csv
import json

import pytest

from tests.conftest import run_engine_with_peer
from tests.integration.storage.conftest import GB, compute, descriptor, phases_profile, resource_ids, star_platform

pytestmark = pytest.mark.engine
TOL = 1e-6
SIZE = 4 * GB


@pytest.fixture(scope="module")
def star(tmp_path_factory, engine):
    path = star_platform(tmp_path_factory.mktemp("star") / "star.xml")
    return path, resource_ids(engine, path)


def run(tmp_path, platform, jobs, profiles, alloc, stages, data):
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 1, "jobs": jobs, "profiles": profiles, "datasched_data": data}))
    script = tmp_path / "script.json"
    log = tmp_path / "events.json"
    script.write_text(json.dumps({"alloc": alloc, "stages": stages, "log": str(log)}))
    out = tmp_path / "out"
    r = run_engine_with_peer("stageSched.py", [str(script)], platform, workload, out)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "out_jobs.csv", newline="") as handle:
        jobs_rows = {row["job_id"]: row for row in csv.DictReader(handle)}
    with open(tmp_path / "out_data.csv", newline="") as handle:
        data_rows = list(csv.DictReader(handle))
    return jobs_rows, data_rows, json.loads(log.read_text())


def reading_job() -> dict:
    """10 s of compute (1e11 flop at 1e10 flop/s), then a read of item ``in`` (4 GB)."""
    return phases_profile(
        1, descriptor(), [compute(1e11), {"kind": "read", "bytes": SIZE, "items": [{"name": "in", "bytes": SIZE}]}]
    )


INPUT = [{"name": "in", "bytes": SIZE, "producer": None}]


def test_stage_in_overlaps_the_jobs_compute(tmp_path, star):
    """Stage ``in`` (central) onto node-10's NVM at t = 0: io -> node-10-nvm, bottleneck the
    1 GB/s NVM write: done at 4 GB / 1 GB/s = 4 s, while the job computes (10 s). The read at
    t = 10 then finds it on its own NVM: 4 GB / 2 GB/s = 2 s. Runtime 10 + 2 = 12 s, not
    10 + 3.2 s (central read through the 1.25 GB/s NIC); DATASCHED_STAGE_DONE at t = 4."""
    platform, ids = star
    node = ids["node-10"]
    stage = {"stage_id": "s1", "item": "in", "to": [node]}
    jobs, data, log = run(
        tmp_path,
        platform,
        [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}],
        {"p": reading_job()},
        {"0": str(node)},
        {"0": [stage]},
        INPUT,
    )
    assert float(jobs["0"]["execution_time"]) == pytest.approx(12.0, abs=TOL)
    done = [e for e in log if e["type"] == "DATASCHED_STAGE_DONE"]
    assert len(done) == 1 and done[0]["data"]["stage_id"] == "s1" and done[0]["data"]["kind"] == "stage_in"
    assert done[0]["timestamp"] == pytest.approx(4.0, abs=TOL)
    events = [(row["event"], round(float(row["end_time"]), 6)) for row in data]
    assert ("stage_in", 4.0) in events and ("read_local_nvm", 12.0) in events


def test_without_a_stage_the_read_goes_to_central_storage(tmp_path, star):
    """The same job without the stage: 10 s + 4 GB / 1.25 GB/s = 13.2 s."""
    platform, ids = star
    node = ids["node-10"]
    jobs, _data, _log = run(
        tmp_path,
        platform,
        [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}],
        {"p": reading_job()},
        {"0": str(node)},
        {},
        INPUT,
    )
    assert float(jobs["0"]["execution_time"]) == pytest.approx(13.2, abs=TOL)


def test_stage_of_an_unknown_item_is_an_error_naming_it(tmp_path, star):
    platform, ids = star
    node = ids["node-10"]
    workload = tmp_path / "w.json"
    workload.write_text(
        json.dumps(
            {"nb_res": 1, "jobs": [{"id": 0, "subtime": 0, "res": 1, "profile": "p"}], "profiles": {"p": reading_job()}}
        )
    )
    script = tmp_path / "script.json"
    stage = {"stage_id": "s9", "item": "nope", "to": [node]}
    script.write_text(
        json.dumps({"alloc": {"0": str(node)}, "stages": {"0": [stage]}, "log": str(tmp_path / "l.json")})
    )
    r = run_engine_with_peer("stageSched.py", [str(script)], platform, workload, tmp_path / "out")
    assert r.returncode != 0
    assert "DATASCHED_STAGE 's9'" in r.stderr and "'nope'" in r.stderr, r.stderr
