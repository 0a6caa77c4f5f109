"""``rereport`` rebuilds an artifact from the plotted numbers committed beside it: for the
allocators-against-the-optimum artifact those are every row the report sums, so the rebuilt
report and figure are the committed ones, byte for byte."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

from datasched.analysis import rereport
from datasched.analysis.experiment_config import REPO_ROOT, load_config_file


def test_placement_gap_report_and_figure_rebuild_byte_for_byte(tmp_path):
    committed = REPO_ROOT / "paper-artifacts" / "placement-gap" / "quick"
    folder = tmp_path / "quick"
    shutil.copytree(committed, folder)
    (folder / "report.md").unlink()
    (folder / "placement_gap.png").unlink()
    config = load_config_file(REPO_ROOT / "config" / "quick.yaml")
    exp = SimpleNamespace(placement_gap=config.placement_gap, placement_gap_dir=folder)
    assert rereport.placement_gap(exp, "quick") == folder / "report.md"
    assert (folder / "report.md").read_bytes() == (committed / "report.md").read_bytes()
    assert (folder / "placement_gap.png").read_bytes() == (committed / "placement_gap.png").read_bytes()
