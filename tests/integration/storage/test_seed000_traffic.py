"""Seed 000 applications under every traffic policy, on the paper's dragonflies: every
application kind (storage allocation internal / external / cache / SAN, with an access
pattern each) runs to completion under NP, BA (5, 50, 95), FP and weights on the 72-node
(2,4,2) and the 600-node (4,6,4) dragonfly, and moves the same bytes under each policy
(a policy changes when bytes move, never which). SimGrid 3.32's BMF solver aborted on
most of these (all-to-all phases, striped SAN I/O). Then a sanity check of the
direction: the most IPC-heavy application of a concurrent workload never ends later
under FP than under NP."""

from __future__ import annotations

import csv

import pytest

from datasched.platforms.catalog import catalog_path

pytestmark = pytest.mark.engine

POLICIES = ["np", "ba:5", "ba:50", "ba:95", "fp", "weights:ipc=3,storage=1"]
KINDS = {
    "internal": {"allocation": "internal", "stg_k": 4, "remote_pct": 50, "access": "D"},
    "external": {"allocation": "external", "stg_k": 4, "remote_pct": 100, "access": "A"},
    "cache": {"allocation": "cache", "remote_pct": 0, "access": "L"},
    "san": {"allocation": "san", "san_k": 4, "access": "D"},
}
BYTE_COLUMNS = ("network_bytes", "dram_bytes", "local_nvm_bytes", "remote_nvm_bytes", "san_bytes")


def read_rows(path) -> dict[str, dict[str, str]]:
    with open(path, newline="") as handle:
        return {row["job_id"]: row for row in csv.DictReader(handle)}


def run(tmp_path, platform, workload, policy, name):
    from datasched.runner import run_simulation

    result = run_simulation(
        platform, workload, "fcfs", tmp_path / name, decision_timeout=300, engine_args=["--traffic-policy", policy]
    )
    return read_rows(result.jobs_csv), read_rows(result.jobs_csv.parent / "out_io.csv")


@pytest.mark.parametrize("platform", ["seed000-dragonfly-2-4-2-unified", "seed000-dragonfly-4-6-4-unified"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_application_kind_runs_under_every_policy(tmp_path, platform, kind):
    from datasched.workloads import markov

    params = markov.parse_params(
        {"kind": "single", "seed": 3, "tasks": 64, "mem_hit_pct": 25, "sizes": {"n_phases": 12}, **KINDS[kind]}
    )
    workload = markov.write(markov.generate_from_seed(params), tmp_path / "w.json", profile_mode="phases")
    moved = {}
    for policy in POLICIES:
        jobs, io = run(tmp_path, catalog_path(platform), workload, policy, policy.replace(":", "-"))
        assert [row["final_state"] for row in jobs.values()] == ["COMPLETED_SUCCESSFULLY"], (policy, jobs)
        moved[policy] = {column: float(io["0"][column]) for column in BYTE_COLUMNS}
    assert all(m == moved["np"] for m in moved.values()), moved
    assert sum(moved["np"].values()) > 0


def test_fp_never_delays_the_most_ipc_heavy_application(tmp_path):
    """Four applications (Table 1 multi-application draws, up to 16 tasks, 1 GB sent
    per task and communicate phase, all at t = 0, so all run at once on the 72 nodes and
    FCFS places them identically under both policies): the one with the largest share of
    network bytes ends no later under FP, which serves IPC first on every shared link,
    than under NP."""
    from datasched.workloads import markov

    params = markov.parse_params(
        {
            "kind": "multi",
            "seed": 2,
            "n_apps": 4,
            "max_tasks": 16,
            "nb_res": 72,
            "san_k_choices": [1, 2, 4],
            "sizes": {"n_phases": 12, "comm_bytes": 1e9},
        }
    )
    workload = markov.write(markov.generate_from_seed(params), tmp_path / "w.json", profile_mode="phases")
    platform = catalog_path("seed000-dragonfly-2-4-2-unified")
    np_jobs, np_io = run(tmp_path, platform, workload, "np", "np")
    fp_jobs, _ = run(tmp_path, platform, workload, "fp", "fp")
    assert {row["starting_time"] for row in np_jobs.values()} == {"0.000000"}

    def network_share(row: dict[str, str]) -> float:
        total = sum(float(row[column]) for column in BYTE_COLUMNS)
        return float(row["network_bytes"]) / total if total else 0.0

    heaviest = max(np_io, key=lambda job: network_share(np_io[job]))
    assert network_share(np_io[heaviest]) > 0, np_io[heaviest]
    assert float(fp_jobs[heaviest]["execution_time"]) <= float(np_jobs[heaviest]["execution_time"]) + 1e-6
