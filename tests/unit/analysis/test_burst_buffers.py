"""The burst-buffers scheduling artifact: its run grid and platforms, a run's staging numbers, the
paired ratios of its table and the counts of its report, on hand-made numbers; its config checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasched.analysis.burst_buffers import metrics, report, spec, table
from datasched.analysis.experiment_config import load_config_file
from datasched.errors import UserError

SPEC = spec.BurstSpec(
    topologies={"fattree-64": "seed000-fattree-4-3", "torus-64": "seed000-torus-4x4x4"},
    n_apps=5,
    n_phases=3,
    seeds=(1, 2, 3),
    staging_servers=(0, 4),
)
REPO = Path(__file__).resolve().parents[3]


def test_grid_paths_options_and_engine_arguments():
    runs = SPEC.runs()
    assert len(runs) == 2 * 4 * 2 * 3  # platforms x allocations x staging servers x seeds
    assert SPEC.allocations == ("sequential", "random", "staging_spread", "staging_bytes")
    for run in runs:
        assert spec.BurstRun.from_path(run.path) == run
    run = spec.BurstRun("torus-64", "random", 4, 2)
    assert run.path == "platform=torus-64/allocation=random/servers=4/seed=2"
    assert (run.workload_path, run.platform_path) == ("platform=torus-64/seed=2", "platform=torus-64/servers=4")
    # random is seeded by the workload's seed; every job's data on its k I/O servers
    assert run.scheduler_options(SPEC) == {
        "allocation": {"name": "random", "seed": 2},
        "storage": {"name": "san", "k": 4},
    }
    assert run.engine_args("layer.json") == ["--staging-layer", "layer.json"]
    assert spec.BurstRun("torus-64", "staging_spread", 4, 2).scheduler_options(SPEC)["allocation"] == "staging_spread"
    assert spec.BurstRun("torus-64", "sequential", 0, 2).engine_args("layer.json") == []  # S = 0: no layer
    assert SPEC.layer() == {
        "block_size": 16 << 20,
        "buffer_bytes": 64 << 20,
        "drain_chunk": 64 << 20,
        "idle_seconds": 0.001,
    }


def test_platforms_add_staging_servers_to_the_san_system():
    from datasched.platforms.catalog import catalog

    assert SPEC.platform_params("fattree-64", 0) == catalog()["seed000-fattree-4-3-san"]
    with_servers = SPEC.platform_params("fattree-64", 4)
    assert with_servers.storage.staging_servers == 4 and with_servers.storage_mode == "san"
    assert with_servers.name == "seed000-fattree-4-3-san-stg4"


def _write_run(folder: Path, totals: list[float], staging: list[tuple[float, float]] | None) -> Path:
    """out_jobs.csv with the given turnarounds (waits 0), and out_staging.csv with one row per
    (absorbed, left) server when given."""
    folder.mkdir(parents=True)
    jobs = folder / "out_jobs.csv"
    lines = ["job_id,submission_time,starting_time,finish_time,waiting_time,turnaround_time,success,final_state"]
    lines += [f"{i},0,0,{t},0,{t},1,COMPLETED_SUCCESSFULLY" for i, t in enumerate(totals)]
    jobs.write_text("\n".join(lines) + "\n")
    if staging is not None:
        rows = ["server,absorbed_bytes,left_bytes"] + [f"s{i},{a},{left}" for i, (a, left) in enumerate(staging)]
        (folder / "out_staging.csv").write_text("\n".join(rows) + "\n")
    return jobs


def test_run_metrics_read_the_staging_servers(tmp_path):
    """Absorbed 3, 1 GB: busiest share 3 / 4 = 0.75; 0.5 GB left; mean total (10 + 30) / 2 = 20 s."""
    staged = metrics.run_metrics(_write_run(tmp_path / "a", [10.0, 30.0], [(3e9, 0.5e9), (1e9, 0.0)]))
    assert staged["mean_total_s"] == pytest.approx(20.0)
    assert (staged["staged_gb"], staged["busiest_share"], staged["left_gb"]) == pytest.approx((4.0, 0.75, 0.5))
    direct = metrics.run_metrics(_write_run(tmp_path / "b", [10.0], None))
    assert (direct["staged_gb"], direct["busiest_share"], direct["left_gb"]) == (0.0, 0.0, 0.0)


def results(buffer_factor: float, random_gain: float) -> dict:
    """Per run: 100 s per seed index, x buffer_factor with staging servers, x random_gain for
    random allocation with them; the busiest server absorbs 0.5 of 100 GB, 10 GB left."""
    out = {}
    for run in SPEC.runs():
        value = 100.0 * run.seed
        staged = run.staging_servers > 0
        if staged:
            value *= buffer_factor * (random_gain if run.allocation == "random" else 1.0)
        out[run] = {
            "mean_total_s": value,
            "mean_wait_s": 0.0,
            "staged_gb": 100.0 if staged else 0.0,
            "busiest_share": 0.5 if staged else 0.0,
            "left_gb": 10.0 if staged else 0.0,
        }
    return out


def test_paired_ratios_compare_each_seed_with_itself():
    """Totals differ 3x between seeds, the ratios not at all: each is exact with a zero-width interval."""
    rows = table.table_rows(SPEC, results(1.5, 0.8))
    by = {(r["platform"], r["allocation"], r["staging_servers"]): r for r in rows}
    sequential = by[("torus-64", "sequential", 4)]
    assert sequential["vs_no_buffers"] == pytest.approx(1.5) and sequential["vs_no_buffers_ci95_high"] == pytest.approx(
        1.5
    )
    assert sequential["vs_sequential"] == ""  # compared with itself
    randomised = by[("torus-64", "random", 4)]
    assert randomised["vs_no_buffers"] == pytest.approx(1.2) and randomised["vs_sequential"] == pytest.approx(0.8)
    assert by[("torus-64", "random", 0)]["vs_sequential"] == pytest.approx(1.0)
    assert by[("torus-64", "random", 0)]["vs_no_buffers"] == ""
    assert randomised["busiest_share"] == pytest.approx(0.5) and randomised["left_gb"] == pytest.approx(10.0)


def test_the_report_counts_follow_the_intervals():
    rows = table.table_rows(SPEC, results(1.5, 0.8))
    text = report.format_report(rows, SPEC, "test", "f.png")
    # with 4 servers: sequential, staging_spread and staging_bytes x1.5, random x1.2 on 2 platforms:
    # all 8 slower; an even spread is 25 %
    assert "- with 4 staging servers: +20.0 to +50.0 % of the mean total time without them" in text
    assert "(0 *faster*, 8 *slower* of 8 settings); the busiest server absorbed 50–50 %" in text
    assert "(an even spread: 25 %)" in text
    assert "`random` against `sequential` with staging servers: 2 *faster*, 0 *slower*" in text
    assert "`random` against `sequential` without staging servers: 0 *faster*, 0 *slower*, 2 *no clear" in text
    assert "- torus-64, 4 staging servers: `random` (" in text
    assert "`staging_spread` against `sequential` with staging servers: 0 *faster*, 0 *slower*, 2 *no clear" in text
    assert "`staging_bytes` against `sequential` with staging servers: 0 *faster*, 0 *slower*, 2 *no clear" in text


def _config_with(tmp_path: Path, **changes: object) -> Path:
    import yaml

    data = yaml.safe_load((REPO / "config" / "quick.yaml").read_text())
    data["artifacts"] = {"burst_buffers": {**data["artifacts"]["burst_buffers"], **changes}}
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_the_config_refuses_a_block_larger_than_the_buffer_and_an_unknown_system(tmp_path):
    with pytest.raises(UserError, match="block_size 2 is larger than buffer_bytes 1"):
        load_config_file(_config_with(tmp_path, block_size=2, buffer_bytes=1))
    with pytest.raises(UserError, match=r"topologies\.x: no catalogue system 'nowhere-san'"):
        load_config_file(_config_with(tmp_path, topologies={"x": "nowhere"}))
    with pytest.raises(UserError, match="unknown allocation policy 'nope'"):
        load_config_file(_config_with(tmp_path, allocations=["nope"]))
