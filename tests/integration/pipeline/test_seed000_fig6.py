"""Seed 000 Figure 6 through the Snakemake pipeline, on a tiny grid in tmp_path."""

from __future__ import annotations

import pytest
import yaml

from tests.integration.pipeline.test_pipeline import TEST_CONFIG, snakemake

pytestmark = pytest.mark.engine


def test_fig6_artifact_is_built_from_its_simulations(tmp_path):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    artifact = tmp_path / "fig6"
    config["artifacts"]["seed000_fig6"] = {
        "dir": str(artifact),
        "platform": "platforms/catalog/seed000-dragonfly-2-4-2-unified.xml",
        "tasks": 8,
        "n_phases": 4,
        "seed": 3,
        "stg_k": [1, 4],
        "mem_levels": [0, 50],
        "remote_levels": [50, 100],
    }
    configfile = tmp_path / "fig6.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "seed000_fig6", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {p.name for p in artifact.iterdir()} == {"report.md", "seed000_fig6.png", "seed000_fig6_plotted.csv"}
    rows = (artifact / "seed000_fig6_plotted.csv").read_text().splitlines()
    # header + storages x points x access types + the 2 STG-k with spread Affinity
    assert len(rows) == 1 + 4 * 3 * 2 + 2 * 3
    report = (artifact / "report.md").read_text()
    assert "| key | claim | paper | ours | verdict | why |" in report and "Fig. 6c" in report
