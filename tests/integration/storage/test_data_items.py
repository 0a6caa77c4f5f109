"""Named data items that persist between jobs (seed 001), against closed-form dates.

Platform ``star`` (platforms/' one-level fat-tree, conftest.star_platform): node X
reaches node Y over X's up-link and Y's down-link at 1 GB/s, no latency; NVM 2 GB/s read
and 1 GB/s write; each node's 10 GbE NIC (1.25 GB/s) reaches 2 I/O servers (1.25 GB/s
front-end each). Job A writes item ``d`` (4 GB) from node-10 to its own NVM; job B,
submitted later, reads it. Each job starts at its submission on the node the test names.
"""

from __future__ import annotations

import csv

import pytest

from datasched.runner import SimulationError
from tests.integration.storage.conftest import GB, compute, descriptor, phases_profile, resource_ids, star_platform

pytestmark = pytest.mark.engine
TOL = 1e-6
SIZE = 4 * GB


@pytest.fixture(scope="module")
def small_nvm(tmp_path_factory, engine):
    """The star with 5 GB of NVM per node: two 4 GB items do not fit on one node."""
    path = star_platform(tmp_path_factory.mktemp("small") / "small.xml", nvm_capacity=5 * GB)
    return path, resource_ids(engine, path)


def writes(name: str, nbytes: float = SIZE, **item) -> dict:
    return phases_profile(
        1, descriptor(), [{"kind": "write", "bytes": nbytes, "items": [{"name": name, "bytes": nbytes, **item}]}]
    )


def reads(name: str, nbytes: float = SIZE) -> dict:
    return phases_profile(
        1, descriptor(), [{"kind": "read", "bytes": nbytes, "items": [{"name": name, "bytes": nbytes}]}]
    )


def job(number: int, profile: str, subtime: float) -> dict:
    return {"id": number, "subtime": subtime, "res": 1, "profile": profile}


def data_rows(result) -> list[dict]:
    with open(result.out_dir / "out_data.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_item_read_on_the_writers_node_is_read_from_local_nvm(run_phases, star):
    """A: 4 GB / 1 GB/s NVM write = 4 s. B on the same node: 4 GB / 2 GB/s NVM read = 2 s."""
    platform, ids = star
    r = run_phases(
        platform,
        [job(0, "w", 0), job(1, "r", 10)],
        {"w": writes("d"), "r": reads("d")},
        alloc={"0": str(ids["node-10"]), "1": str(ids["node-10"])},
    )
    assert r.runtime("0") == pytest.approx(4.0, abs=TOL)
    assert r.runtime("1") == pytest.approx(2.0, abs=TOL)
    assert r.io["0"]["item_written_nvm_bytes"] == SIZE
    assert r.io["1"]["item_read_local_nvm_bytes"] == SIZE
    assert r.io["1"]["item_read_remote_nvm_bytes"] == 0 and r.io["1"]["item_read_central_bytes"] == 0
    events = [(row["item"], row["event"], row["job_id"], row["locations"]) for row in data_rows(r)]
    nvm = str(ids["node-10-nvm"])
    assert events == [("d", "create", "w0!0", nvm), ("d", "read_local_nvm", "w0!1", nvm)]


def test_item_read_on_another_node_is_limited_by_the_path(run_phases, star):
    """B on node-11 reads node-10's NVM: min(NVM read 2 GB/s, path 1 GB/s) = 1 GB/s: 4 s."""
    platform, ids = star
    r = run_phases(
        platform,
        [job(0, "w", 0), job(1, "r", 10)],
        {"w": writes("d"), "r": reads("d")},
        alloc={"0": str(ids["node-10"]), "1": str(ids["node-11"])},
    )
    assert r.runtime("1") == pytest.approx(4.0, abs=TOL)
    assert r.io["1"]["item_read_remote_nvm_bytes"] == SIZE
    assert r.io["1"]["remote_nvm_bytes"] == SIZE


def test_item_written_to_central_is_read_over_the_san_path(run_phases, star):
    """``to: central``: write 4 GB through node-10's 1.25 GB/s NIC = 3.2 s; read back on
    node-10 through the same NIC = 3.2 s (the two 1.25 GB/s server front-ends share it)."""
    platform, ids = star
    r = run_phases(
        platform,
        [job(0, "w", 0), job(1, "r", 10)],
        {"w": writes("d", to="central"), "r": reads("d")},
        alloc={"0": str(ids["node-10"]), "1": str(ids["node-10"])},
    )
    assert r.runtime("0") == pytest.approx(3.2, abs=TOL)
    assert r.runtime("1") == pytest.approx(3.2, abs=TOL)
    assert r.io["0"]["item_written_central_bytes"] == SIZE
    assert r.io["1"]["item_read_central_bytes"] == SIZE


def test_items_to_central_in_the_decision_overrides_the_profile(run_phases, star):
    """EXECUTE_JOB's datasched_storage {"items_to": "central"}: the same 3.2 s as above."""
    platform, ids = star
    r = run_phases(
        platform,
        [job(0, "w", 0)],
        {"w": writes("d")},
        alloc={"0": str(ids["node-10"])},
        storage={"0": {"items_to": "central"}},
    )
    assert r.runtime("0") == pytest.approx(3.2, abs=TOL)
    assert r.io["0"]["item_written_central_bytes"] == SIZE


def test_pre_existing_item_is_read_from_central_storage(run_phases, star):
    """datasched_data with producer null: on central storage at t = 0; 4 GB through the
    1.25 GB/s NIC = 3.2 s."""
    platform, ids = star
    r = run_phases(
        platform,
        [job(0, "r", 0)],
        {"r": reads("input")},
        alloc={"0": str(ids["node-10"])},
        workload_extra={"datasched_data": [{"name": "input", "bytes": SIZE, "producer": None, "consumers": [0]}]},
    )
    assert r.runtime("0") == pytest.approx(3.2, abs=TOL)
    assert r.io["0"]["item_read_central_bytes"] == SIZE


def test_capacity_overflow_evicts_with_write_back_then_reads_from_central(run_phases, small_nvm):
    """5 GB NVM. A writes d (4 GB, 4 s). C at t = 10 writes e (4 GB) on the same node:
    d (dirty, least recently used, unpinned) is written back first, node-10-nvm -> 2
    servers through the 1.25 GB/s NIC = 3.2 s, then e's write 4 s: C runs 7.2 s, of which
    3.2 s write-back. B at t = 30 reads d from central storage: 4 GB / 1.25 GB/s = 3.2 s."""
    platform, ids = small_nvm
    node = str(ids["node-10"])
    r = run_phases(
        platform,
        [job(0, "wd", 0), job(1, "we", 10), job(2, "rd", 30)],
        {"wd": writes("d"), "we": writes("e"), "rd": reads("d")},
        alloc={"0": node, "1": node, "2": node},
    )
    assert r.runtime("1") == pytest.approx(7.2, abs=TOL)
    assert r.io["1"]["writeback_bytes"] == SIZE
    assert r.io["1"]["writeback_seconds"] == pytest.approx(3.2, abs=TOL)
    assert r.io["1"]["write_phase_seconds"] == pytest.approx(4.0, abs=TOL)
    assert r.runtime("2") == pytest.approx(3.2, abs=TOL)
    assert r.io["2"]["item_read_central_bytes"] == SIZE
    rows = data_rows(r)
    events = [
        (row["item"], row["event"], round(float(row["start_time"]), 6), round(float(row["end_time"]), 6))
        for row in rows
    ]
    assert ("d", "evict", 10.0, 10.0) in events
    assert ("d", "write_back", 10.0, 13.2) in events


def test_item_pinned_by_a_running_job_is_not_evicted(run_phases, small_nvm):
    """B on node-11 computes (100 s) then reads d, which A wrote on node-10's NVM; C starts
    on node-10 at t = 11 and wants room there for e: d is pinned by B, nothing else can go,
    so e fits nowhere: an error naming e and the NVM."""
    platform, ids = small_nvm
    node = str(ids["node-10"])
    reader = phases_profile(
        1, descriptor(), [compute(1e11), {"kind": "read", "bytes": SIZE, "items": [{"name": "d", "bytes": SIZE}]}]
    )
    with pytest.raises(SimulationError) as error:
        run_phases(
            platform,
            [job(0, "wd", 0), job(1, "rd", 10), job(2, "we", 11)],
            {"wd": writes("d"), "rd": reader, "we": writes("e")},
            alloc={"0": node, "1": str(ids["node-11"]), "2": node},
        )
    message = str(error.value)
    assert "'e'" in message and "node-10-nvm" in message and "fits nowhere" in message, message


# ---- bad input: one line naming it, non-zero exit -----------------------------------


def test_item_read_before_any_producer_is_an_error_naming_it(run_phases, star):
    platform, ids = star
    with pytest.raises(SimulationError) as error:
        run_phases(platform, [job(0, "r", 0)], {"r": reads("ghost")}, alloc={"0": str(ids["node-10"])})
    message = str(error.value)
    assert "'ghost'" in message and "before any job wrote it" in message and "w0!0" in message, message


def test_item_larger_than_any_nvm_is_an_error_naming_it(run_phases, small_nvm):
    platform, ids = small_nvm
    with pytest.raises(SimulationError) as error:
        run_phases(platform, [job(0, "w", 0)], {"w": writes("huge", 6 * GB)}, alloc={"0": str(ids["node-10"])})
    message = str(error.value)
    assert "'huge'" in message and "fits nowhere" in message, message


def test_items_holding_more_than_the_phase_moves_are_refused_at_load(run_phases, star):
    platform, ids = star
    profile = phases_profile(
        1, descriptor(), [{"kind": "write", "bytes": 1 * GB, "items": [{"name": "x", "bytes": 2 * GB}]}]
    )
    with pytest.raises(SimulationError) as error:
        run_phases(platform, [job(0, "w", 0)], {"w": profile}, alloc={"0": str(ids["node-10"])})
    assert "more than the phase moves" in str(error.value)


# ---- NVM occupancy over time (out_nvm.csv) ------------------------------------------


def nvm_rows(result) -> list[tuple[float, str, str, float, str]]:
    with open(result.out_dir / "out_nvm.csv", newline="") as handle:
        return [
            (float(r["time"]), r["nvm"], r["host"], float(r["used_bytes"]), r["capacity_bytes"])
            for r in csv.DictReader(handle)
        ]


def test_nvm_occupancy_rows_follow_writes_and_evictions_not_reads(run_phases, small_nvm):
    """5 GB NVM on node-10. By hand: t = 0 A writes d (4 GB): room reserved at the write's
    start -> 4 GB. t = 10 B reads d: a read takes no room -> no row. t = 20 C writes e
    (3 GB): d (dirty, unpinned) is evicted (freed at once, its write-back runs 3.2 s) and
    e reserved -> 4 - 4 + 3 = 3 GB, one row at t = 20. Nothing else changes."""
    platform, ids = small_nvm
    node = str(ids["node-10"])
    r = run_phases(
        platform,
        [job(0, "wd", 0), job(1, "rd", 10), job(2, "we", 20)],
        {"wd": writes("d"), "rd": reads("d"), "we": writes("e", 3 * GB)},
        alloc={"0": node, "1": node, "2": node},
    )
    assert nvm_rows(r) == [
        (0.0, "node-10-nvm", "node-10", SIZE, "5000000000.000000"),
        (20.0, "node-10-nvm", "node-10", 3 * GB, "5000000000.000000"),
    ]


def test_nvm_occupancy_file_only_for_runs_with_data_items(run_phases, star):
    """Items only on central storage: the file has its header and no row (no NVM room
    taken; unlimited NVMs would show an empty capacity). No item at all: no file."""
    platform, ids = star
    node = str(ids["node-10"])
    central = run_phases(platform, [job(0, "w", 0)], {"w": writes("d", to="central")}, alloc={"0": node})
    assert nvm_rows(central) == []
    plain = run_phases(
        platform, [job(0, "c", 0)], {"c": phases_profile(1, descriptor(), [compute(1e9)])}, alloc={"0": node}
    )
    assert not (plain.out_dir / "out_nvm.csv").exists()
