"""The allocators-against-the-optimum artifact through the Snakemake pipeline, in tmp_path."""

from __future__ import annotations

import csv

import pytest
import yaml

from tests.integration.pipeline.test_pipeline import TEST_CONFIG, snakemake

pytestmark = pytest.mark.engine  # the platform's hosts come from `datasched-sim --inspect`


def test_placement_gap_artifact_is_built_and_rejects_unknown_allocators(tmp_path):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    artifact = tmp_path / "gap"
    config["artifacts"]["placement_gap"] = {
        "dir": str(artifact),
        "platforms": {"torus-64": "platforms/catalog/seed000-torus-4x4x4-unified.xml"},
        "scenarios": 2,
        "jobs": 3,
        "job_hosts": [2, 4],
        "holders": [1, 2],
        "busy_fraction": 0.5,
        "seed": 3,
    }
    configfile = tmp_path / "gap.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "placement_gap", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {p.name for p in artifact.iterdir()} == {"report.md", "placement_gap.png", "placement_gap_plotted.csv"}
    with open(artifact / "placement_gap_plotted.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * 6  # two moments x (optimum, online optimum, four allocators)
    assert all(float(r["hops_per_byte"]) >= float(r["optimum_hops_per_byte"]) - 1e-9 for r in rows)

    config["artifacts"]["placement_gap"]["allocators"] = ["sequential", "nearest_magic"]
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "placement_gap", configfile=configfile)
    assert result.returncode != 0
    assert "artifacts.placement_gap.allocators" in result.stderr and "nearest_magic" in result.stderr
