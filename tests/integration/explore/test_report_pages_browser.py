"""The artifacts' committed report.html pages in a real browser (headless Chromium, as the
explorer's test): they load without JavaScript errors, the points plotly drew equal the
committed plotted CSV, the paper's values are marked, the scoreboard rows are the claims' as
paper-artifacts/README.md states them, and without plotly.js the committed PNG shows."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from datasched.analysis import report_html
from datasched.analysis.explore_browser import find_browser, rendered_dom, screenshot
from datasched.analysis.report_html_figures import SPECS, fitted, plotted_points, read_rows
from datasched.analysis.scoreboard import ARTIFACTS, load_claims

pytestmark = pytest.mark.slow

BROWSER = find_browser() or ""
needs_browser = pytest.mark.skipif(
    not BROWSER,
    reason="no chromium on PATH: `make setup` installs Debian's chromium package (scripts/apt-packages.txt); "
    "this machine could not",
)

#: (artifact folder, plotted-CSV stem, paper values the page must mark: a CSV column or lines)
PAGES = [
    ("seed001-pagecache/quick", "seed001_tables1-3"),  # paper values as markers (paper_total)
    ("seed000-storage/fig8-quick", "seed000_fig8"),  # the paper's +44 % as a line
    ("seed004-interference/quick", "seed004_interference"),  # the paper's bands
]


def _body(dom: str) -> str:
    match = re.search(r"<body[^>]*>", dom)
    assert match, "no <body> in the rendered page"
    return match.group(0)


def _attribute(tag: str, name: str) -> str:
    match = re.search(rf'{name}="([^"]*)"', tag)
    assert match, f"<body> has no {name} (the page's script did not finish)"
    return html.unescape(match.group(1))


def _point(x: object, y: object) -> str:
    """A point as text, numbers as floats (JavaScript writes 0 where Python writes 0.0)."""
    return repr((float(x) if isinstance(x, int | float) else x, float(y)))  # type: ignore[arg-type]


def _readme_quick_cells(key: str) -> tuple[str, str]:
    """(quick: ours, quick verdict word) of ``key``'s row in paper-artifacts/README.md."""
    for line in (ARTIFACTS / "README.md").read_text().splitlines():
        if line.startswith(f"| `{key}` |"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            return cells[3], re.match(r"\*\*(.+?)\*\*", cells[4]).group(1)  # type: ignore[union-attr]
    raise AssertionError(f"{key} not in paper-artifacts/README.md")


@needs_browser
@pytest.mark.parametrize(("folder", "stem"), PAGES)
def test_committed_page_draws_the_csv_marks_the_paper_and_lists_the_claims(folder: str, stem: str) -> None:
    report_html.write_plotly()  # the git-ignored copy `make reproduce` writes
    page = ARTIFACTS / folder / "report.html"
    dom, log = rendered_dom(page, BROWSER)
    body = _body(dom)
    assert 'data-rendered="1"' in body, "the page's script did not finish"
    assert _attribute(body, "data-js-errors") == "0", re.search(r'id="page-errors">([^<]*)', dom)
    assert "Uncaught" not in log, log
    assert _attribute(body, "data-plotly") == "1"
    rows = read_rows(ARTIFACTS / folder / f"{stem}_plotted.csv")
    spec = fitted(SPECS[stem], list(rows[0]))
    assert spec is not None
    drawn = sorted(_point(x, y) for x, y in json.loads(_attribute(body, "data-points")))
    assert drawn == sorted(_point(x, y) for _, x, y in plotted_points(spec, rows))
    paper = json.loads(_attribute(body, "data-paper"))
    assert paper, "no paper value marked"
    if spec.paper_column:
        marked = sorted(y for x, y in paper if x != "line")
        assert marked == sorted(float(r[spec.paper_column]) for r in rows if r[spec.paper_column])
    for line in spec.paper_lines:
        assert ["line", line.y0] in paper
    # the scoreboard rows: the claims naming this folder, with README's quick values and words
    claims = [c for cs in load_claims(ARTIFACTS / "claims").values() for c in cs]
    mine = [c for c in claims if c.artifact.format(variant="quick") == folder]
    shown = re.findall(r'<tr data-key="([^"]+)">(.*?)</tr>', dom, re.S)
    assert [k for k, _ in shown] == [c.key for c in mine]
    for (key, cells), claim in zip(shown, mine, strict=True):
        values = [html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", cells, re.S)]
        assert values[:3] == [claim.key, claim.where, claim.paper]
        assert (values[3], values[4]) == _readme_quick_cells(key)


@needs_browser
def test_without_plotly_the_committed_png_shows(tmp_path: Path) -> None:
    """A fresh clone has no paper-artifacts/.plotly/: the page draws nothing and keeps the PNG."""
    folder = tmp_path / "fig8-quick"
    source = ARTIFACTS / "seed000-storage/fig8-quick"
    folder.mkdir()
    for name in ("report.html", "seed000_fig8.png"):
        shutil.copy(source / name, folder / name)
    dom, _ = rendered_dom(folder / "report.html", BROWSER)
    body = _body(dom)
    assert _attribute(body, "data-plotly") == "0" and _attribute(body, "data-charts") == "0"
    assert _attribute(body, "data-js-errors") == "0"
    img = re.search(r'<img src="seed000_fig8.png"[^>]*>', dom)
    assert img and "display: none" not in img.group(0)
    png = screenshot(folder / "report.html", tmp_path / "fallback.png", BROWSER, size=(1200, 900))
    assert png.stat().st_size > 30_000, "a blank screenshot"


@needs_browser
def test_screenshot_of_an_artifact_page(tmp_path: Path) -> None:
    """docs/img/report-page.png is this picture (scripts/explorer-screenshots.sh refreshes it)."""
    report_html.write_plotly()
    png = screenshot(ARTIFACTS / "seed000-storage/fig8-quick/report.html", tmp_path / "page.png", BROWSER)
    assert png.stat().st_size > 50_000, "a blank screenshot"
    print(f"screenshot: {png}")
