"""The scoreboard is generated from the claims files and the reports, lists claims not yet
produced, and counts the weakest word where a report judges a claim twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasched.analysis import scoreboard
from datasched.analysis.verdicts import Word

CLAIMS = """
seed: "009"
claims:
  - {key: a.one, where: "Fig. 1", paper: "+20 %", artifact: "x/{variant}"}
  - {key: a.two, where: "Fig. 2", paper: "no effect", artifact: "x/{variant}"}
  - {key: a.three, where: "Fig. 3", paper: "+17 %", missing: "runs not yet produced"}
"""

REPORT = """# x

| key | claim | paper | ours | verdict | why |
|---|---|---|---|---|---|
| a.one | claim one | +20 % | +19 % | reproduced | 0.95× the paper's |
| a.two | claim two | none | +1 % | reproduced | within ±5 |
| a.two | claim two | none | +9 % | not reproduced | outside ±5 |
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "seed009.yaml").write_text(CLAIMS)
    (tmp_path / "x" / "quick").mkdir(parents=True)
    (tmp_path / "x" / "quick" / "report.md").write_text(REPORT)
    return tmp_path


def test_cells_read_the_reports_and_keep_missing_claims(tree):
    claims = scoreboard.load_claims(tree / "claims")["009"]
    one, two, three = (scoreboard.cell(c, "quick", tree) for c in claims)
    assert one.word is Word.REPRODUCED and one.ours == "+19 %"
    assert two.word is Word.NOT_REPRODUCED  # the weaker of the two tables
    assert three.word is Word.MISSING and "not yet produced" in three.why
    assert scoreboard.cell(claims[0], "full", tree).word is Word.MISSING  # full not run


def test_render_counts_every_word_per_seed_and_variant(tree):
    lines = scoreboard.render(scoreboard.load_claims(tree / "claims"), tree)
    assert "| 009 | quick | 1 | 0 | 1 | 0 | 0 | 0 | 1 | 3 |" in lines
    assert "| 009 | full | 0 | 0 | 0 | 0 | 0 | 0 | 3 | 3 |" in lines


def test_a_claim_needs_an_artifact_or_a_reason_for_missing(tmp_path):
    (tmp_path / "seed009.yaml").write_text('seed: "009"\nclaims:\n  - {key: a, where: w, paper: p}\n')
    with pytest.raises(ValueError):
        scoreboard.load_claims(tmp_path)


def test_the_committed_scoreboard_is_up_to_date():
    """paper-artifacts/README.md's scoreboard is generated: rerun the module after a report changes."""
    assert scoreboard.main(["--check"]) == 0


def test_the_seeds_page_status_column_is_written_from_the_counts(tree):
    status = scoreboard.statuses(scoreboard.load_claims(tree / "claims"), tree)
    assert status == {"009": "quick 1/3, full 0/3 reproduced"}
    page = "| seed | paper | scoreboard |\n|---|---|---|\n| 009 | A paper | stale |\n| 010 | Other | kept |\n"
    assert scoreboard.update_seeds_page(page, status).splitlines()[2:] == [
        "| 009 | A paper | quick 1/3, full 0/3 reproduced |",
        "| 010 | Other | kept |",
    ]


def test_a_partial_accumulating_report_shows_its_run_count(tree):
    partial = REPORT.replace("\n", "\n\n**Partial: 412/600 planned runs are in** (committed summaries).\n", 1)
    (tree / "x" / "full").mkdir()
    (tree / "x" / "full" / "report.md").write_text(partial)
    claims = scoreboard.load_claims(tree / "claims")["009"]
    full = scoreboard.cell(claims[0], "full", tree)
    assert full.ours == "+19 % (partial: 412/600 runs)" and full.word is Word.REPRODUCED
    assert scoreboard.cell(claims[0], "quick", tree).ours == "+19 %"
