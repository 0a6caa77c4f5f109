"""Properties of the storage model on random small phase jobs: every byte of a profile
is accounted for once in out_io.csv, by tier, and a run is deterministic."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.strategies import phase_jobs

pytestmark = pytest.mark.engine


def expected_bytes(profile: dict) -> dict[str, float]:
    """What the profile moves, from its schema (workloads/README.md): per I/O task and
    read/write phase, mem_hit_pct % through DRAM and the rest to a device; per
    communicate phase, each active node sends its bytes; staging as stated."""
    storage = profile["storage"]
    out = {"dram": 0.0, "device": 0.0, "network": 0.0, "stage_in": 0.0, "stage_out": 0.0}
    for phase in profile["phases"]:
        active = phase.get("nodes") or profile["res"]
        if phase["kind"] == "communicate":
            out["network"] += active * phase["bytes"] if active > 1 else 0.0
        elif phase["kind"] in ("read", "write"):
            tasks = min(active, profile["io_tasks"])
            mem = phase["bytes"] * storage["mem_hit_pct"] / 100
            out["dram"] += tasks * mem
            out["device"] += tasks * (phase["bytes"] - mem)
    out["stage_in"] = storage.get("stage_in_bytes", 0.0)
    out["stage_out"] = storage.get("stage_out_bytes", 0.0)
    return out


# run_phases gives every call its own workload and output folder (a counter), so
# sharing the function-scoped fixture across examples is safe.
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(jobs=phase_jobs())
def test_bytes_are_conserved_by_tier_and_runs_are_deterministic(run_phases, star, jobs):
    platform, ids = star
    workload_jobs, profiles, alloc, first = [], {}, {}, 0
    for number, (res, profile) in enumerate(jobs):
        workload_jobs.append({"id": number, "subtime": 0, "res": res, "profile": f"p{number}"})
        profiles[f"p{number}"] = profile
        alloc[str(number)] = " ".join(str(ids[f"node-1{first + i}"]) for i in range(res))
        first += res
    run1 = run_phases(platform, workload_jobs, profiles, alloc=alloc)
    run2 = run_phases(platform, workload_jobs, profiles, alloc=alloc)
    for name in ("out_jobs.csv", "out_io.csv"):
        assert (run1.out_dir / name).read_bytes() == (run2.out_dir / name).read_bytes(), name
    for number, (_res, profile) in enumerate(jobs):
        row, want = run1.io[str(number)], expected_bytes(profile)
        assert run1.jobs[str(number)]["final_state"] == "COMPLETED_SUCCESSFULLY"
        tolerance = 1e-6 * (1 + sum(want.values()))
        assert row["dram_bytes"] == pytest.approx(want["dram"], abs=tolerance)
        assert row["local_nvm_bytes"] + row["remote_nvm_bytes"] + row["san_bytes"] == pytest.approx(
            want["device"], abs=tolerance
        )
        assert row["network_bytes"] == pytest.approx(want["network"], abs=tolerance)
        assert row["stage_in_bytes"] == pytest.approx(want["stage_in"], abs=tolerance)
        assert row["stage_out_bytes"] == pytest.approx(want["stage_out"], abs=tolerance)
        if profile["storage"]["allocation"] == "san":
            assert row["local_nvm_bytes"] == row["remote_nvm_bytes"] == 0
        else:
            assert row["san_bytes"] == 0
        if profile["storage"]["allocation"] == "cache" or profile["storage"]["access"] == "local":
            assert row["remote_nvm_bytes"] == 0
