"""Seed 000, single application on the 72-node (2,4,2) dragonfly: the *directions* the
paper reports (section 6.1), not its numbers. One 64-task Markov application (Table 1
single-application column, our stated sizes, 30 phases, same seed so every variant has
the same phase sequence), run alone with our FCFS policy (sequential allocation) and
the engine's default devices (internal: the first k nodes' NVMs)."""

from __future__ import annotations

import csv
import json

import pytest

from datasched.platforms.catalog import catalog_path

pytestmark = pytest.mark.engine
PLATFORM = catalog_path("seed000-dragonfly-2-4-2-unified")


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    from datasched.runner import run_simulation
    from datasched.workloads import markov

    cache: dict[tuple, float] = {}
    root = tmp_path_factory.mktemp("seed000")

    def run(**storage) -> float:
        key = tuple(sorted(storage.items()))
        if key not in cache:
            name = "-".join(f"{k}{v}" for k, v in key)
            params = markov.parse_params(
                {"kind": "single", "seed": 5, "tasks": 64, "sizes": {"n_phases": 30}, "access": "D", **storage}
            )
            workload = markov.write(markov.generate_from_seed(params), root / f"{name}.json", profile_mode="phases")
            result = run_simulation(
                PLATFORM, workload, "fcfs", root / name, decision_timeout=120, engine_args=["--traffic-policy", "np"]
            )
            with open(result.jobs_csv, newline="") as handle:
                (row,) = list(csv.DictReader(handle))
            assert row["final_state"] == "COMPLETED_SUCCESSFULLY", (storage, row)
            cache[key] = float(row["execution_time"])
        return cache[key]

    return run


def test_runtime_grows_as_memory_hits_fall(runtime):
    times = [runtime(allocation="internal", stg_k=16, remote_pct=50, mem_hit_pct=m) for m in (100, 75, 50, 25, 0)]
    assert times == sorted(times) and len(set(times)) == len(times), times


def test_cache_beats_stg1(runtime):
    cache = runtime(allocation="cache", mem_hit_pct=0, remote_pct=0)
    stg1 = runtime(allocation="internal", stg_k=1, mem_hit_pct=0, remote_pct=50)
    assert cache < stg1


def test_stg1_with_all_accesses_remote_is_the_slowest(runtime):
    variants = {
        "cache": runtime(allocation="cache", mem_hit_pct=0, remote_pct=0),
        "stg16 r100": runtime(allocation="internal", stg_k=16, mem_hit_pct=0, remote_pct=100),
        "stg1 r0": runtime(allocation="internal", stg_k=1, mem_hit_pct=0, remote_pct=0),
        "stg1 r50": runtime(allocation="internal", stg_k=1, mem_hit_pct=0, remote_pct=50),
    }
    slowest = runtime(allocation="internal", stg_k=1, mem_hit_pct=0, remote_pct=100)
    assert all(slowest > t for t in variants.values()), (slowest, variants)


def test_more_devices_help_when_accesses_are_remote(runtime):
    times = [runtime(allocation="internal", stg_k=k, mem_hit_pct=0, remote_pct=100) for k in (1, 4, 16)]
    assert times[0] > times[1] > times[2], times


def test_the_workload_carries_the_same_phases_whatever_the_storage(tmp_path):
    """The comparisons above are fair only if every variant runs the same phases."""
    from datasched.workloads import markov

    def phases(**storage):
        params = markov.parse_params(
            {"kind": "single", "seed": 5, "tasks": 64, "sizes": {"n_phases": 30}, "access": "D", **storage}
        )
        path = markov.write(markov.generate_from_seed(params), tmp_path / "w.json", profile_mode="phases")
        profile = next(iter(json.loads(path.read_text())["profiles"].values()))
        return [(p["kind"], p.get("bytes", p.get("flops"))) for p in profile["phases"]]  # nominal_seconds differ

    assert phases(allocation="cache", mem_hit_pct=0) == phases(allocation="internal", stg_k=1, mem_hit_pct=100)
