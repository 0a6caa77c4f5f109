"""Seed 000 Figure 9 through the Snakemake pipeline, on a tiny grid in tmp_path."""

from __future__ import annotations

import csv

import pytest
import yaml

from tests.integration.pipeline.test_pipeline import TEST_CONFIG, snakemake

pytestmark = pytest.mark.engine


def test_fig9_artifact_is_built_from_generated_platforms(tmp_path):
    config = yaml.safe_load(TEST_CONFIG.read_text())
    artifact = tmp_path / "fig9"
    config["artifacts"]["seed000_fig9"] = {
        "dir": str(artifact),
        "topologies": {"small": "small-test"},
        "servers": [1, 2],
        "n_apps": 3,
        "n_phases": 3,
        "seeds": [1],
    }
    configfile = tmp_path / "fig9.yaml"
    configfile.write_text(yaml.safe_dump(config))
    result = snakemake(tmp_path, "seed000_fig9", configfile=configfile)
    assert result.returncode == 0, result.stderr[-3000:]
    assert {p.name for p in artifact.iterdir()} == {"report.md", "seed000_fig9.png", "seed000_fig9_plotted.csv"}
    with open(artifact / "seed000_fig9_plotted.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    expected = [(s, m, n) for s in ("I-A", "Cache") for m in ("io_volume", "dataset") for n in "12"]
    assert [(r["series"], r["staging"], r["servers"]) for r in rows] == [
        *expected,
        ("SAN", "none", "1"),
        ("SAN", "none", "2"),
    ]
    platforms = sorted(p.name for p in (tmp_path / "results").rglob("servers=*.xml"))
    assert len(platforms) == 4  # unified and san, 1 and 2 servers
    report = (artifact / "report.md").read_text()
    assert "| key | claim | paper | ours | verdict | why |" in report and "SAN with" in report
