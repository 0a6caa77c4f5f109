"""generate-large: seeded bootstrap resampling of an SWF trace (workloads/resample.py)."""

from __future__ import annotations

import json

import pytest

from datasched.cli import main
from datasched.workloads import resample
from tests.conftest import LUBLIN


def _generate(tmp_path, name, *extra):
    out = tmp_path / name
    assert main(["workload", "generate-large", "--source", str(LUBLIN), "-o", str(out), *extra]) == 0
    return out


def test_same_seed_same_bytes_and_longer_runs_extend_shorter_ones(tmp_path):
    args = ["--seed", "3", "--platform-nodes", "1024", "--offered-load", "0.8"]
    a = _generate(tmp_path, "a.json", "--jobs", "300", *args)
    b = _generate(tmp_path, "b.json", "--jobs", "300", *args)
    longer = _generate(tmp_path, "c.json", "--jobs", "500", *args)
    assert a.read_bytes() == b.read_bytes()
    short, long_ = json.loads(a.read_text()), json.loads(longer.read_text())
    assert long_["jobs"][:300] == short["jobs"]
    assert _generate(tmp_path, "d.json", "--jobs", "300", "--seed", "4", "--platform-nodes", "1024").read_bytes() != (
        a.read_bytes()
    )


def test_jobs_are_valid_batsim_jobs_of_the_trace_scaled_to_the_platform(tmp_path):
    doc = json.loads(
        _generate(tmp_path, "w.json", "--jobs", "2000", "--seed", "1", "--platform-nodes", "512").read_text()
    )
    sample = resample.TraceSample.from_swf(LUBLIN)
    sizes = {sample.scaled_nodes(n, 512) for n, _, _ in sample.jobs}
    runtimes = {r for _, r, _ in sample.jobs}
    assert doc["nb_res"] == 512 and len(doc["jobs"]) == 2000
    subtimes = [j["subtime"] for j in doc["jobs"]]
    assert subtimes == sorted(subtimes) and subtimes[0] == 0
    for job in doc["jobs"]:
        assert job["res"] in sizes and 1 <= job["res"] <= 512
        profile = doc["profiles"][job["profile"]]
        assert profile["type"] == "delay" and profile["delay"] in runtimes
        assert job["walltime"] == profile["delay"] + 1  # the from-swf fallback: run time + 1 s margin
    assert doc["datasched_meta"]["seed"] == 1


def test_offered_load_sets_the_mean_gap():
    """offered load = mean(scaled nodes x run time) / (mean gap x scale) / platform nodes."""
    sample = resample.TraceSample.from_swf(LUBLIN)
    params = resample.ResampleParams(jobs=10, platform_nodes=1024, offered_load=0.5)
    assert sample.offered_load(1024, sample.gap_scale(params)) == pytest.approx(0.5)
    assert sample.gap_scale(resample.ResampleParams(jobs=10, platform_nodes=1024)) == 1.0


def test_bad_parameters_are_one_line_errors(tmp_path, capsys):
    code = main(
        [
            "workload",
            "generate-large",
            "--source",
            str(LUBLIN),
            "-o",
            str(tmp_path / "x.json"),
            "--seed",
            "1",
            "--jobs",
            "0",
            "--platform-nodes",
            "8",
        ]
    )
    assert code == 2
    assert "generate-large: option 'jobs'" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
