"""A full variant run in pieces (analysis/accumulate.py) gives the figure and report of an
uninterrupted run: slices of a tiny seed-000 Fig. 8 grid, resumed in a fresh folder that holds
only the committed artifact folder (its runs/ summaries), as another machine's clone would."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import yaml

from datasched.analysis.accumulate import read_summary
from datasched.analysis.experiment_config import load_config_file
from datasched.analysis.reproduce_slice import run_slice
from tests.integration.pipeline.test_pipeline import REPO, TEST_CONFIG

pytestmark = pytest.mark.engine

ARTIFACT_FILES = ("seed000_fig8.png", "seed000_fig8_plotted.csv", "report.md")


def setup(workdir: Path):
    """A config accumulating a 14-run Fig. 8 grid under ``workdir``, and the Snakemake command."""
    workdir.mkdir(exist_ok=True)
    config = yaml.safe_load(TEST_CONFIG.read_text())
    config.update(results_dir=str(workdir / "results"), artifacts_dir=str(workdir / "results" / "artifacts"))
    config["artifacts"]["seed000_fig8"] = {
        "dir": str(workdir / "fig8"),
        "platforms": {"small": "platforms/catalog/small-test-unified.xml"},
        "n_apps": 4,
        "n_phases": 4,
        "seeds": [1, 2],
        "san_k": 1,
    }
    config["accumulate"] = ["seed000_fig8"]
    path = workdir / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    base = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir),
            "--configfile", str(path), "--cores", "2", "--rerun-incomplete"]  # fmt: skip
    return load_config_file(path), base, workdir


def summaries(folder: Path) -> list[Path]:
    return sorted((folder / "runs").rglob("*.json"))


def test_a_run_in_slices_resumed_elsewhere_equals_an_uninterrupted_run(tmp_path, capsys):
    exp, base, workdir = setup(tmp_path / "whole")
    assert run_slice(exp, ["seed000_fig8"], None, 2, base, [], workdir) == 0
    whole = tmp_path / "whole" / "fig8"
    assert len(summaries(whole)) == 14
    assert "**Complete: 14/14 planned runs**" in (whole / "report.md").read_text()

    # First sitting: a budget below the first estimate (140 CPU s per run) runs one run.
    exp, base, workdir = setup(tmp_path / "first")
    assert run_slice(exp, ["seed000_fig8"], 0.01, 2, base, [], workdir) == 0
    first = tmp_path / "first" / "fig8"
    assert len(summaries(first)) == 1
    report = (first / "report.md").read_text()
    assert "**Partial: 1/14 planned runs are in**" in report and "complete seeds only: none yet (0/2)" in report
    assert (first / "seed000_fig8_plotted.csv").read_text().count("\n") == 1  # the header only
    assert "1/14 planned runs committed" in capsys.readouterr().err

    # Elsewhere: only the committed folder travels (no results, no Snakemake state).
    exp, base, workdir = setup(tmp_path / "elsewhere")
    shutil.copytree(first, tmp_path / "elsewhere" / "fig8")
    # Another small budget: one more run (no run of its group measured yet: the 140 s default).
    assert run_slice(exp, ["seed000_fig8"], 0.003, 2, base, [], workdir) == 0
    resumed = tmp_path / "elsewhere" / "fig8"
    middle = len(summaries(resumed))
    assert middle == 2
    assert f"**Partial: {middle}/14 planned runs are in**" in (resumed / "report.md").read_text()
    done_first = read_summary(summaries(first)[0]).unit
    sims = tmp_path / "elsewhere" / "results" / "seed000_fig8" / "sims"
    assert not (sims / done_first).exists()  # committed before: not run again
    assert run_slice(exp, ["seed000_fig8"], None, 2, base, [], workdir) == 0
    assert not (sims / done_first).exists()
    for name in ARTIFACT_FILES:
        assert (resumed / name).read_bytes() == (whole / name).read_bytes(), name
    for a, b in zip(summaries(whole), summaries(resumed), strict=True):
        assert a.relative_to(whole) == b.relative_to(resumed)
        assert read_summary(a).metrics == read_summary(b).metrics
