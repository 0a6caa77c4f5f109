"""Tidy loading and metric definitions on hand-made _jobs.csv files."""

from pathlib import Path

import pandas as pd
import pytest

from datasched.analysis.jobs import load_runs, params_from_path, read_jobs
from datasched.analysis.metrics import add_job_metrics, run_metrics, summarise_over_seeds

HEADER = (
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,"
    "final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,"
    "allocated_resources,consumed_energy,metadata\n"
)


def write_jobs(path: Path, rows: list[tuple]) -> Path:
    """rows: (id, submit, nodes, start, run, state)"""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [HEADER]
    for job_id, submit, nodes, start, run, state in rows:
        finish = start + run if start >= 0 else -1
        lines.append(
            f'{job_id},w0,p{job_id},{submit},{nodes},100,{int(state == "COMPLETED_SUCCESSFULLY")},{state},'
            f'{start},{run},{finish},0,0,1,0-{nodes - 1},-1,""\n'
        )
    path.write_text("".join(lines))
    return path


def test_params_come_from_hive_style_path_segments():
    path = "results/sims/trace=hpc2n/policy=easy/allocation=random/seed=3/out_jobs.csv"
    assert params_from_path(path) == {"trace": "hpc2n", "policy": "easy", "allocation": "random", "seed": "3"}


def test_jobs_are_sorted_by_numeric_id_and_params_lead(tmp_path):
    csv = write_jobs(
        tmp_path / "out_jobs.csv",
        [(10, 0, 1, 0, 5, "COMPLETED_SUCCESSFULLY"), (2, 0, 1, 0, 5, "COMPLETED_SUCCESSFULLY")],
    )
    frame = read_jobs(csv, {"policy": "fcfs"})
    assert list(frame["job_id"]) == ["2", "10"]
    assert list(frame.columns[:2]) == ["policy", "job_id"]


def test_job_metrics_follow_the_documented_definitions(tmp_path):
    csv = write_jobs(
        tmp_path / "out_jobs.csv",
        [
            (1, 0, 2, 10, 100, "COMPLETED_SUCCESSFULLY"),  # wait 10, turnaround 110
            (2, 5, 1, 25, 2, "COMPLETED_SUCCESSFULLY"),  # wait 20, run 2 < tau
            (3, 5, 1, -1, -1, "REJECTED"),
        ],
    )
    jobs = add_job_metrics(read_jobs(csv))
    first, second, rejected = jobs.iloc[0], jobs.iloc[1], jobs.iloc[2]
    assert first["waiting"] == 10 and first["turnaround"] == 110
    assert first["slowdown"] == pytest.approx(1.1)
    assert first["bounded_slowdown"] == pytest.approx(1.1)
    assert second["slowdown"] == pytest.approx(11.0)  # 22 / 2
    assert second["bounded_slowdown"] == pytest.approx(2.2)  # 22 / max(2, 10)
    assert not rejected["started"] and pd.isna(rejected["waiting"])


def test_run_metrics_utilisation_makespan_and_counts(tmp_path):
    csv = write_jobs(
        tmp_path / "trace=t/policy=p/allocation=a/seed=none/out_jobs.csv",
        [
            (1, 0, 2, 0, 10, "COMPLETED_SUCCESSFULLY"),
            (2, 0, 2, 10, 10, "COMPLETED_WALLTIME_REACHED"),
            (3, 0, 1, -1, -1, "REJECTED"),
        ],
    )
    jobs = load_runs([csv], extra={"trace": {"t": {"nodes": 4}}})
    row = run_metrics(jobs, by=["trace", "policy", "allocation", "seed"]).iloc[0]
    assert row["makespan"] == 20
    assert row["utilisation"] == pytest.approx((10 * 2 + 10 * 2) / (4 * 20))
    assert (row["jobs"], row["killed_jobs"], row["rejected_jobs"]) == (3, 1, 1)
    assert row["mean_waiting"] == 5 and row["p50_waiting"] == 5


def test_summary_over_seeds_groups_only_by_configuration(tmp_path):
    paths = [
        write_jobs(
            tmp_path / f"trace=t/policy=p/allocation=random/seed={s}/out_jobs.csv",
            [(1, 0, 1, wait, 10, "COMPLETED_SUCCESSFULLY")],
        )
        for s, wait in ((1, 10), (2, 30))
    ]
    runs = run_metrics(
        load_runs(paths, extra={"trace": {"t": {"nodes": 1}}}), by=["trace", "policy", "allocation", "seed"]
    )
    summary = summarise_over_seeds(runs, by=["trace", "policy", "allocation"], metrics=["mean_waiting"])
    assert len(summary) == 1
    row = summary.iloc[0]
    assert row["mean"] == 20 and row["runs"] == 2
    assert row["ci95_low"] < 20 < row["ci95_high"]
