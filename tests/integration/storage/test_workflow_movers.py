"""The workflow policy's data movers and holds (schedulers/workflow.py: prestage,
post_move, hold) run in process against datasched-sim, checked against closed-form dates.

Platform: platforms/' one-level fat-tree (a star) of 4 nodes, as conftest.star_platform:
host speed 1e10 flop/s, node NVM 2 GB/s read / ``nvm_write`` write, 1 GB/s interconnect
links (a remote NVM read or a move between nodes runs at min(2, 1, write) GB/s), a
1.25 GB/s storage NIC per node to 2 I/O servers (a central read or write of one node:
1.25 GB/s), no latency. S = 4 GB everywhere."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from datasched.runner import run_simulation

pytestmark = pytest.mark.engine
GB = 1e9
S = 4 * GB
TOL = 1e-6
NIC = 1.25 * GB


def platform(path: Path, nvm_write: float = 1 * GB, nvm_capacity: float | None = None) -> Path:
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    node: dict[str, float] = {"nvm_write_bw": nvm_write}
    if nvm_capacity is not None:
        node["nvm_capacity"] = nvm_capacity
    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=4, levels=1), link_bw=1 * GB, link_lat=0),
        node=node,
        storage={"io_servers": 2, "frontend_lat": 0, "backend_lat": 0},
    )
    return write(generate(params), path)


def profile(*phases: dict, res: int = 1) -> dict:
    """A phase profile; every phase states its nominal time (the hold rule's estimate)."""
    return {
        "type": "datasched_phases",
        "version": 1,
        "res": res,
        "io_tasks": res,
        "storage": {
            "allocation": "internal",
            "stg_k": 1,
            "san_k": 1,
            "access": "local",
            "mem_hit_pct": 0,
            "remote_pct": 0,
        },
        "phases": [{"nominal_seconds": 0, **p} for p in phases],
    }


def compute(seconds: float) -> dict:
    return {"kind": "compute", "flops": seconds * 1e10, "nominal_seconds": seconds}


def read(item: str, nominal: float = 0) -> dict:
    return {"kind": "read", "bytes": S, "items": [{"name": item, "bytes": S}], "nominal_seconds": nominal}


def write(item: str, to: str = "nvm", nominal: float = 0) -> dict:
    return {"kind": "write", "bytes": S, "items": [{"name": item, "bytes": S, "to": to}], "nominal_seconds": nominal}


def job(number: int, prof: str, res: int = 1, **extra: object) -> dict:
    return {"id": number, "subtime": 0, "res": res, "walltime": 1000, "profile": prof, **extra}


def simulate(tmp_path: Path, plat: Path, jobs: list, profiles: dict, data: list, **options) -> tuple[dict, list]:
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 4, "jobs": jobs, "profiles": profiles, "datasched_data": data}))
    out = tmp_path / "out"
    result = run_simulation(plat, workload, "workflow", out, scheduler_options=options, in_process=True)
    with open(result.jobs_csv, newline="") as handle:
        rows = {r["job_id"]: r for r in csv.DictReader(handle)}
    data_csv = result.jobs_csv.parent / "out_data.csv"
    moves = list(csv.DictReader(open(data_csv, newline=""))) if data_csv.exists() else []
    return rows, moves


def span(row: dict) -> tuple[float, float]:
    return float(row["starting_time"]), float(row["finish_time"])


INITIAL = [{"name": "in", "bytes": S, "producer": None}]
DECLARED = {"datasched_workflow": {"reads": [{"data": "in", "bytes": S, "producer": None}]}}


@pytest.mark.parametrize("prestage", [False, True])
def test_prestage_overlaps_the_running_predecessor(tmp_path, prestage):
    """Step 1 computes 10 s on node 0; step 2 (afterok 1) reads item ``in`` (S, initial data
    on central storage). With prestage the policy stages ``in`` onto node 0's NVM at t = 0
    (step 2's likely host: its running predecessor's), through the NIC and the NVM write:
    S / min(1.25, 1) GB/s = 4 s, done while step 1 computes; step 2 then reads it locally:
    end = 10 + S / 2 GB/s = 12 s. Without: 10 + S / 1.25 GB/s = 13.2 s."""
    plat = platform(tmp_path / "p.xml")
    jobs = [job(1, "a"), {**job(2, "b", dependencies=[1]), **DECLARED}]
    profiles = {"a": profile(compute(10)), "b": profile(read("in"))}
    rows, moves = simulate(tmp_path, plat, jobs, profiles, INITIAL, prestage=prestage)
    start, end = span(rows["2"])
    assert start == pytest.approx(10, abs=TOL)
    if prestage:
        assert end == pytest.approx(10 + S / (2 * GB), abs=TOL)
        stage = [m for m in moves if m["event"] == "stage_in"]
        assert len(stage) == 1 and float(stage[0]["start_time"]) == 0
        assert float(stage[0]["end_time"]) == pytest.approx(S / min(NIC, 1 * GB), abs=TOL)
    else:
        assert end == pytest.approx(10 + S / NIC, abs=TOL)


@pytest.mark.parametrize(("nvm_write", "post_moves"), [(2.5 * GB, True), (1 * GB, False)])
def test_post_move_of_a_final_output_by_the_rates(tmp_path, nvm_write, post_moves):
    """Step 1 computes 10 s and writes its final output ``out`` (S, ``to: central``).
    NVM write 2.5 GB/s > central path 1.25 GB/s: post_move writes it to NVM, S / 2.5 GB/s =
    1.6 s (end 11.6 instead of 10 + S / 1.25 GB/s = 13.2), then a mover stages it out from
    11.6: S / min(2 GB/s NVM read, 1.25 GB/s NIC) = 3.2 s, on central at 14.8. NVM write
    1 GB/s < 1.25 GB/s: writing to NVM would be slower, the policy keeps the central write
    (13.2) and moves nothing."""
    plat = platform(tmp_path / "p.xml", nvm_write=nvm_write)
    rows, moves = simulate(
        tmp_path, plat, [job(1, "a")], {"a": profile(compute(10), write("out", "central"))}, [], post_move=True
    )
    end = span(rows["1"])[1]
    stage_outs = [m for m in moves if m["event"] == "stage_out"]
    if post_moves:
        assert end == pytest.approx(10 + S / nvm_write, abs=TOL)
        assert len(stage_outs) == 1
        assert float(stage_outs[0]["start_time"]) == pytest.approx(end, abs=TOL)
        assert float(stage_outs[0]["end_time"]) == pytest.approx(end + S / NIC, abs=TOL)
    else:
        assert end == pytest.approx(10 + S / NIC, abs=TOL)
        assert stage_outs == []


@pytest.mark.parametrize(("c_seconds", "hold"), [(8, True), (10, True), (8, False)])
def test_hold_by_the_rate_formula(tmp_path, c_seconds, hold):
    """Step A (node 0) computes 1 s and writes ``d`` (S) to its NVM: S / 1 GB/s = 4 s, ends at 5.
    C (node 1) computes c s; a 2-node filler F holds nodes 2-3; B (afterok A, C) reads ``d``;
    D (20 s compute) waits for any node. At t = 5 node 0 is free and B still waits for C:
    T_move = S / min(2, 1, 1) GB/s = 4 s, T_wait = c - 5.
    c = 8: T_wait = 3 < 4, node 0 is held for B (until 9 at most); C ends at 8, B runs on node
    0 reading locally, S / 2 GB/s: [8, 10]; D gets node 1 at 8.
    c = 10: T_wait = 5 >= 4, no hold: D takes node 0 at 5; B runs on node 1 at 10 and reads
    d remotely at min(2, 1) GB/s: [10, 14].
    c = 8 without the hold option: D takes node 0 at 5; B on node 1: [8, 12]."""
    plat = platform(tmp_path / "p.xml")
    profiles = {
        "a": profile(compute(1), write("d", nominal=4)),
        "c": profile(compute(c_seconds)),
        "f": profile(compute(100), res=2),
        "b": profile(read("d", nominal=2)),
        "d": profile(compute(20)),
    }
    jobs = [job(1, "a"), job(2, "c"), job(3, "f", res=2), job(4, "b", dependencies=[1, 2]), job(5, "d")]
    rows, _ = simulate(tmp_path, plat, jobs, profiles, [], hold=hold)
    b, d = span(rows["4"]), span(rows["5"])
    if hold and c_seconds == 8:
        assert b == pytest.approx((8, 10), abs=TOL) and rows["4"]["allocated_resources"] == "0"
        assert d[0] == pytest.approx(8, abs=TOL)
    elif hold:
        assert b == pytest.approx((10, 14), abs=TOL) and rows["4"]["allocated_resources"] == "1"
        assert d[0] == pytest.approx(5, abs=TOL)
    else:
        assert b == pytest.approx((8, 12), abs=TOL) and rows["4"]["allocated_resources"] == "1"
        assert d[0] == pytest.approx(5, abs=TOL)


@pytest.mark.parametrize("in_process", [True, False])
def test_data_aware_policy_learns_the_engines_eviction(tmp_path, in_process):
    """End to end (runner -> --datasched-item-evictions -> engine -> in-process codec or
    pybatsim adapter -> ItemBook), 5 GB NVMs. Job 0 computes 10 s on node 0; job 1 writes d
    (S) on node 1 (t = 0-4, d dirty); job 2 (afterok 1) writes e on node 1, the lowest free
    host at t = 4: e's room evicts d at t = 4 (DATASCHED_ITEM_EVICTED), d's write-back
    S / 1.25 GB/s = 3.2 s, then e's write S / 1 GB/s = 4 s: job 2 ends at 11.2. Job 3
    (afterok 2) reads d: all hosts free; a book that missed the eviction would send it to
    d's old holder node 1 (tests/unit/schedulers: evicted_then_reader); knowing that d is
    on central storage only, the policy takes the lowest id, node 0. It reads d from
    central storage either way: S / 1.25 GB/s = 3.2 s, ending at 14.4. In process, the
    child adds the option for its own policy (not on the recorded command line): job 3's
    host is the evidence."""
    plat = platform(tmp_path / "p.xml", nvm_capacity=5 * GB)
    jobs = [job(0, "c"), job(1, "wd"), job(2, "we", dependencies=[1]), job(3, "rd", dependencies=[2])]
    profiles = {
        "c": profile(compute(10)),
        "wd": profile(write("d")),
        "we": profile(write("e")),
        "rd": profile(read("d")),
    }
    workload = tmp_path / "w.json"
    workload.write_text(json.dumps({"nb_res": 4, "jobs": jobs, "profiles": profiles}))
    result = run_simulation(plat, workload, "workflow", tmp_path / "out", in_process=in_process)
    assert ("--datasched-item-evictions" in result.engine_command) is not in_process
    with open(result.jobs_csv, newline="") as handle:
        rows = {r["job_id"]: r for r in csv.DictReader(handle)}
    assert [rows[str(j)]["allocated_resources"] for j in range(4)] == ["0", "1", "1", "0"]
    assert span(rows["2"]) == pytest.approx((4.0, 11.2), abs=TOL)
    assert span(rows["3"]) == pytest.approx((11.2, 14.4), abs=TOL)
