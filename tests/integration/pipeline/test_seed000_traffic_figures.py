"""Seed 000 Figures 7 and 10 and the abstract's claims through the Snakemake pipeline, on
tiny grids in tmp_path."""

from __future__ import annotations

import csv

import pytest
import yaml

from tests.integration.pipeline.test_pipeline import TEST_CONFIG, snakemake

pytestmark = pytest.mark.engine


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_fig7_policies_equal_np_without_distribution_and_act_with_it(tmp_path):
    """Under ``none-8`` one bulk-synchronous application never has IPC and storage traffic on
    the network at the same moment, so BA and FP must give NP's run time exactly (vs_np =
    1.000000) in both sharing units; under ``per_task-6`` the 6 I/O tasks distribute to the
    other 2 once their own read ends, so the classes meet and the rows are there to judge."""
    config = yaml.safe_load(TEST_CONFIG.read_text())
    artifact = tmp_path / "fig7"
    config["artifacts"]["seed000_fig7"] = {
        "dir": str(artifact),
        "platform": "platforms/catalog/seed000-dragonfly-2-4-2-unified.xml",
        "tasks": 8,
        "n_phases": 6,
        "seed": 3,
        "stg_k": [1, 4],
        "ba_levels": [5, 85],
        "remote_levels": [0, 50],
        "flow": {"stg_k": [4], "ba_levels": [85], "remote_levels": [50]},
        "io_models": ["none-8", "per_task-6"],
    }
    configfile = tmp_path / "fig7.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "seed000_fig7", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {p.name for p in artifact.iterdir()} == {"report.md", "seed000_fig7.png", "seed000_fig7_plotted.csv"}
    rows = _rows(artifact / "seed000_fig7_plotted.csv")
    # per I/O model: activity, per STG-k: NP + 2 BA + FP at 50 % remote, NP + FP at 0 %; flow, STG-4: NP, BA 85, FP
    assert len(rows) == 2 * (2 * 6 + 3)
    assert sorted({(r["io"], r["sharing"], r["storage"]) for r in rows}) == [
        (io, sharing, storage)
        for io in ("none-8", "per_task-6")
        for sharing, storage in (("activity", "stg-1"), ("activity", "stg-4"), ("flow", "stg-4"))
    ]
    assert {r["vs_np"] for r in rows if r["io"] == "none-8"} == {"1.000000"}
    assert all(float(r["runtime_s"]) > 0 for r in rows)
    report = (artifact / "report.md").read_text()
    assert "| fig7.fp-gain |" in report and "`per_task-6`" in report


def test_fig10_artifact_counts_its_runs_and_pairs_them_with_np(tmp_path):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    artifact = tmp_path / "fig10"
    config["artifacts"]["seed000_fig10"] = {
        "dir": str(artifact),
        "platform": {"small": "platforms/catalog/small-test-unified.xml"},
        "n_apps": 4,
        "n_phases": 4,
        "seeds": [1, 2],
        "policies": ["np", "fp", "ba:50"],
        "san_k": 1,
    }
    configfile = tmp_path / "fig10.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "seed000_fig10", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    assert not (artifact / "runs").exists()  # a variant that does not accumulate reads the simulations
    rows = _rows(artifact / "seed000_fig10_plotted.csv")
    assert [r["policy"] for r in rows] == ["np", "fp", "ba:50"]
    assert all(int(r["n_seeds"]) == 2 for r in rows)
    assert rows[0]["run_vs_np"] == rows[0]["total_vs_np"] == "1.000000"  # NP against itself, seed by seed
    for r in rows:
        assert float(r["run_vs_np_ci95_low"]) <= float(r["run_vs_np"]) <= float(r["run_vs_np_ci95_high"])
        # the total time = waiting + running, per application, so the means add up too
        assert float(r["mean_total_s"]) == pytest.approx(float(r["mean_run_s"]) + float(r["mean_wait_s"]), rel=1e-6)
    report = (artifact / "report.md").read_text()
    assert "**Runs judged: 6**" in report and "| fig10.fp-gain |" in report


def test_abstract_claims_are_judged_from_fig6_numbers(tmp_path):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    fig6 = tmp_path / "fig6"
    config["artifacts"]["seed000_fig6"] = {
        "dir": str(fig6),
        "platform": "platforms/catalog/seed000-dragonfly-2-4-2-unified.xml",
        "tasks": 4,
        "n_phases": 3,
        "seed": 3,
        "stg_k": [1, 4],  # Figure 6's own verdicts compare two STG-k at least
        "mem_levels": [0, 50],
        "remote_levels": [0, 50],
    }
    config["artifacts"]["seed000_abstract"] = {"dir": str(tmp_path / "abstract")}
    configfile = tmp_path / "abstract.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "seed000_abstract", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    report = (tmp_path / "abstract" / "report.md").read_text()
    assert "| abstract.temporal-locality |" in report and "| abstract.spatial-locality |" in report
    assert "memory hits 0 → 50 %" in report and "remote accesses 50 % against 0 %" in report
