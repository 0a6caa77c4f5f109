"""Console summaries count succeeded, killed and rejected jobs separately (issue 20: a
run whose jobs were all rejected printed "6/6 jobs completed (100.0 %)")."""

from __future__ import annotations

import pytest

from datasched.cli import main
from datasched.run_cli import job_counts
from datasched.runner import PROGRESS_RE, Progress
from tests.conftest import TEST_DATA, write_workload


def test_progress_line_of_the_engine_is_parsed_with_its_counts():
    line = "[datasched-sim progress] completed=6 total=6 simulated_time=3.000 succeeded=1 killed=2 rejected=3 done"
    match = PROGRESS_RE.search(line)
    assert match is not None
    assert [int(g) for g in match.groups()[3:]] == [1, 2, 3]
    assert job_counts(Progress(6, 6, 3.0, 1, 2, 3)) == "1 succeeded, 2 killed, 3 rejected"
    assert job_counts(Progress(7, 7, 3.0, 1, 2, 3)) == "1 succeeded, 2 killed, 3 rejected, 1 failed"


@pytest.mark.engine
def test_rejected_and_killed_jobs_are_not_reported_as_completed(tmp_path, capsys):
    jobs = [
        {"id": 1, "subtime": 0, "res": 9, "profile": "d"},  # wider than the 4 hosts: easyBackfill rejects it
        {"id": 2, "subtime": 0, "res": 2, "profile": "d", "walltime": 0.5},  # killed at its walltime
        {"id": 3, "subtime": 0, "res": 1, "profile": "d"},
    ]
    workload = write_workload(tmp_path, jobs, {"d": {"type": "delay", "delay": 1}})
    status = main(
        [
            "run",
            "--platform",
            str(TEST_DATA / "closed_form.xml"),
            "--workload",
            str(workload),
            "--scheduler",
            "easyBackfill",
            "--output",
            str(tmp_path / "out"),
        ]
    )
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "3 jobs: 1 succeeded, 1 killed, 1 rejected" in captured.out, captured.out
    assert "3/3 jobs finished (100.0 %: 1 succeeded, 1 killed, 1 rejected)" in captured.err, captured.err
    assert "jobs completed" not in captured.err
