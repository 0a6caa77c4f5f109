"""Same inputs, same outputs: the demo twice gives byte-identical _jobs.csv files."""

import pytest

from datasched.runner import Progress, run_simulation
from tests.conftest import REPO

pytestmark = pytest.mark.engine


def test_same_run_twice_is_byte_identical(tmp_path):
    platform = REPO / "examples" / "demo_platform.xml"
    workload = REPO / "examples" / "demo_workload.json"
    a = run_simulation(platform, workload, "easyBackfill", tmp_path / "a")
    b = run_simulation(platform, workload, "easyBackfill", tmp_path / "b")
    assert a.jobs_csv.read_bytes() == b.jobs_csv.read_bytes()
    assert len(a.jobs_csv.read_text().splitlines()) == 41


def test_progress_is_reported_until_the_end(tmp_path):
    seen: list[Progress] = []
    run_simulation(
        REPO / "examples" / "demo_platform.xml",
        REPO / "examples" / "demo_workload.json",
        "easyBackfill",
        tmp_path / "out",
        on_progress=seen.append,
    )
    assert seen, "no progress line"
    assert seen[-1].completed == seen[-1].total == 40
    assert [p.completed for p in seen] == sorted(p.completed for p in seen)
