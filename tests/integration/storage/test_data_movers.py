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


def run(tmp_path, platform, jobs, profiles, alloc, stages, data, engine_args=()):
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 1, "jobs": jobs, "profiles": profiles, "datasched_data": data}))
    script = tmp_path / "script.json"
    log = tmp_path / "events.json"
    raw = tmp_path / "messages.txt"
    script.write_text(json.dumps({"alloc": alloc, "stages": stages, "log": str(log), "raw_log": str(raw)}))
    out = tmp_path / "out"
    r = run_engine_with_peer("stageSched.py", [str(script)], platform, workload, out, engine_args)
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


# ---- DATASCHED_ITEM_EVICTED (opt-in: --datasched-item-evictions) ---------------------

EVICTIONS = ["--datasched-item-evictions"]


@pytest.fixture(scope="module")
def small_nvm(tmp_path_factory, engine):
    """The star with 5 GB of NVM per node: two 4 GB items do not fit on one node."""
    path = star_platform(tmp_path_factory.mktemp("small") / "small.xml", nvm_capacity=5 * GB)
    return path, resource_ids(engine, path)


def writer(name: str, flops: float = 0.0, nbytes: float = SIZE) -> dict:
    """``flops`` of compute (at 1e10 flop/s), then a write of item ``name`` (4 GB) to NVM."""
    write = {"kind": "write", "bytes": nbytes, "items": [{"name": name, "bytes": nbytes}]}
    return phases_profile(1, descriptor(), ([compute(flops)] if flops else []) + [write])


def evicted(log: list[dict]) -> list[dict]:
    return [e for e in log if e["type"] == "DATASCHED_ITEM_EVICTED"]


def test_item_evicted_by_a_write_is_announced_at_the_eviction_date(tmp_path, small_nvm):
    """5 GB NVM. Job 0 (t = 0, node-10) writes d: 4 GB / 1 GB/s = 4 s, dirty. Job 1
    (t = 10, node-10) computes 5e10 flop / 1e10 flop/s = 5 s, then writes e: its room
    evicts d at t_evict = 10 + 5 = 15 s (submission + the phases before the write), d being
    written back (dirty: 4 GB / 1.25 GB/s NIC = 3.2 s, then e's write 4 s: job 1 runs
    5 + 3.2 + 4 = 12.2 s). One DATASCHED_ITEM_EVICTED, timestamp and date 15, naming d,
    node-10 and its NVM, 4 GB, written_back true."""
    platform, ids = small_nvm
    node = ids["node-10"]
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "wd"}, {"id": 1, "subtime": 10, "res": 1, "profile": "we"}]
    profiles = {"wd": writer("d"), "we": writer("e", 5e10)}
    alloc = {"0": str(node), "1": str(node)}
    rows, _data, log = run(tmp_path, platform, jobs, profiles, alloc, {}, [], EVICTIONS)
    assert float(rows["1"]["execution_time"]) == pytest.approx(12.2, abs=TOL)
    events = evicted(log)
    assert len(events) == 1, events
    assert events[0]["timestamp"] == pytest.approx(15.0, abs=TOL)
    assert events[0]["data"] == {
        "item": "d",
        "nodes": [node],
        "nvms": [ids["node-10-nvm"]],
        "bytes": SIZE,
        "written_back": True,
        "on_central": True,
        "date": 15.0,
    }
    begins = next(e for e in log if e["type"] == "SIMULATION_BEGINS")
    assert begins["data"]["config"]["datasched-item-evictions"] is True


def test_item_evictions_are_not_sent_unless_asked_and_change_nothing_else(tmp_path, small_nvm):
    """The same run twice with the option: the same bytes. Without it: no
    DATASCHED_ITEM_EVICTED and no config key, and
    the engine's byte stream is the asked-for one minus exactly those: the eviction's own
    message (t = 15, nothing else happens then) and the key ``"datasched-item-evictions":
    true,`` (first in SIMULATION_BEGINS' config, keys being sorted)."""
    platform, ids = small_nvm
    node = ids["node-10"]
    jobs = [{"id": 0, "subtime": 0, "res": 1, "profile": "wd"}, {"id": 1, "subtime": 10, "res": 1, "profile": "we"}]
    profiles = {"wd": writer("d"), "we": writer("e", 5e10)}
    alloc = {"0": str(node), "1": str(node)}
    for name in ("asked", "again", "plain"):
        (tmp_path / name).mkdir()
    run(tmp_path / "asked", platform, jobs, profiles, alloc, {}, [], EVICTIONS)
    run(tmp_path / "again", platform, jobs, profiles, alloc, {}, [], EVICTIONS)
    _rows, _data, log = run(tmp_path / "plain", platform, jobs, profiles, alloc, {}, [])
    assert evicted(log) == []
    plain = (tmp_path / "plain" / "messages.txt").read_text()
    asked = (tmp_path / "asked" / "messages.txt").read_text()
    again = (tmp_path / "again" / "messages.txt").read_text()
    assert again.replace(str(tmp_path / "again"), str(tmp_path / "asked")) == asked  # deterministic
    assert "DATASCHED_ITEM_EVICTED" not in plain and "datasched-item-evictions" not in plain
    kept = [
        line
        for line in asked.splitlines(keepends=True)
        if not all(e["type"] == "DATASCHED_ITEM_EVICTED" for e in json.loads(line)["events"])
        or not json.loads(line)["events"]
    ]
    assert len(kept) == len(asked.splitlines()) - 1
    same_paths = "".join(kept).replace(str(tmp_path / "asked"), str(tmp_path / "plain"))  # the workload's path
    assert same_paths.replace('"datasched-item-evictions":true,', "", 1) == plain


def test_item_evicted_by_a_stage_is_announced_clean(tmp_path, small_nvm):
    """5 GB NVM. Job 0 (t = 0, node-10) writes d (4 s). At t = 10 a stage-out copies d to
    central storage (node-10-nvm -> 2 servers through the 1.25 GB/s NIC: 3.2 s, done at
    13.2 s): d is clean. At t = 20 a stage-in of ``in`` (4 GB, central) onto node-10 makes
    room there at once: d is evicted at t = 20 (the stage's request date), without a
    write-back (written_back false); the stage-in ends at 20 + 4 GB / 1 GB/s NVM write = 24 s."""
    platform, ids = small_nvm
    node, other = ids["node-10"], ids["node-11"]
    short = phases_profile(1, descriptor(), [compute(1e10)])
    jobs = [
        {"id": 0, "subtime": 0, "res": 1, "profile": "wd"},
        {"id": 1, "subtime": 10, "res": 1, "profile": "c"},
        {"id": 2, "subtime": 20, "res": 1, "profile": "c"},
    ]
    stages = {
        "1": [{"stage_id": "out", "item": "d", "to": "central"}],
        "2": [{"stage_id": "in", "item": "in", "to": [node]}],
    }
    alloc = {"0": str(node), "1": str(other), "2": str(other)}
    _rows, _data, log = run(tmp_path, platform, jobs, {"wd": writer("d"), "c": short}, alloc, stages, INPUT, EVICTIONS)
    done = {e["data"]["stage_id"]: e["timestamp"] for e in log if e["type"] == "DATASCHED_STAGE_DONE"}
    assert done == pytest.approx({"out": 13.2, "in": 24.0}, abs=TOL)
    events = evicted(log)
    assert len(events) == 1, events
    assert events[0]["timestamp"] == pytest.approx(20.0, abs=TOL)
    data = events[0]["data"]
    assert (data["item"], data["nodes"], data["bytes"], data["written_back"], data["date"]) == (
        "d",
        [node],
        SIZE,
        False,
        20.0,
    )


def test_items_evicted_together_are_announced_least_recently_used_first(tmp_path, engine):
    """9 GB NVM. On node-10: job 0 writes d (t = 0-4), job 1 writes f (t = 5-9), job 2 at
    t = 20 writes g (8 GB): 8 GB of room needs both gone (4 + 8 > 9), evicted least recently
    used first: d (last use 4 s), then f (9 s), both at t = 20 in one message, that order."""
    platform = star_platform(tmp_path / "nine.xml", nvm_capacity=9 * GB)
    node = resource_ids(engine, platform)["node-10"]
    jobs = [{"id": i, "subtime": t, "res": 1, "profile": p} for i, t, p in ((0, 0, "wd"), (1, 5, "wf"), (2, 20, "wg"))]
    profiles = {"wd": writer("d"), "wf": writer("f"), "wg": writer("g", nbytes=2 * SIZE)}
    _rows, _data, log = run(
        tmp_path, platform, jobs, profiles, {str(i): str(node) for i in range(3)}, {}, [], EVICTIONS
    )
    assert [(e["timestamp"], e["data"]["item"], e["data"]["date"]) for e in evicted(log)] == [
        (20.0, "d", 20.0),
        (20.0, "f", 20.0),
    ]
