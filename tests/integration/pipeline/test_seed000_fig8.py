"""Seed 000 Figure 8 through the Snakemake pipeline, on a tiny grid in tmp_path."""

from __future__ import annotations

import csv

import pytest
import yaml

from tests.integration.pipeline.test_pipeline import TEST_CONFIG, snakemake

pytestmark = pytest.mark.engine


def test_fig8_artifact_is_built_from_its_simulations(tmp_path):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    artifact = tmp_path / "fig8"
    config["artifacts"]["seed000_fig8"] = {
        "dir": str(artifact),
        "platforms": {"small": "platforms/catalog/small-test-unified.xml"},
        "n_apps": 4,
        "n_phases": 4,
        "seeds": [1, 2],
        "san_k": 1,
    }
    configfile = tmp_path / "fig8.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "seed000_fig8", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {p.name for p in artifact.iterdir()} == {"report.md", "seed000_fig8.png", "seed000_fig8_plotted.csv"}
    with open(artifact / "seed000_fig8_plotted.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["storage"], r["access"]) for r in rows] == [
        ("cache", "L"),
        *((s, a) for s in ("internal", "external") for a in "DAL"),
    ]
    assert all(int(r["n_seeds"]) == 2 for r in rows)
    assert all(float(r["ci95_low_s"]) <= float(r["mean_total_s"]) <= float(r["ci95_high_s"]) for r in rows)
    report = (artifact / "report.md").read_text()
    assert "| key | claim | paper | ours | verdict | why |" in report and "Cache is the best" in report
