"""Same inputs, same outputs: the demo twice gives byte-identical _jobs.csv files."""

from datasched.runner import run_simulation
from tests.conftest import REPO


def test_same_run_twice_is_byte_identical(tmp_path):
    platform = REPO / "examples" / "demo_platform.xml"
    workload = REPO / "examples" / "demo_workload.json"
    a = run_simulation(platform, workload, "easyBackfill", tmp_path / "a")
    b = run_simulation(platform, workload, "easyBackfill", tmp_path / "b")
    assert a.jobs_csv.read_bytes() == b.jobs_csv.read_bytes()
    assert len(a.jobs_csv.read_text().splitlines()) == 41
