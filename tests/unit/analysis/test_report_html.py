"""The artifacts' report.html pages (analysis/report_html.py): the Markdown subset, the figures
drawn from the plotted CSVs, the scoreboard rows, the committed pages up to date and small."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from datasched.analysis import markdown_subset, report_html
from datasched.analysis.report_html_figures import SPECS, figures, fitted, plotted_points, read_rows
from datasched.analysis.scoreboard import ARTIFACTS, load_claims

PAGES = sorted(p.parent for p in ARTIFACTS.glob("**/report.md"))


def test_markdown_subset_renders_the_reports_constructs() -> None:
    text = (
        "# Title `x<y`\n\nA *word* and **bold** [link](a.md).\n\n- one\n  continued\n- two\n\n"
        "1. first\n\n| a | b |\n|---|---|\n| 1 | `c|d` |\n\n```\n<raw>\n```\n"
    )
    out = markdown_subset.to_html(text)
    assert "<h1>Title <code>x&lt;y</code></h1>" in out
    assert '<p>A <em>word</em> and <strong>bold</strong> <a href="a.md">link</a>.</p>' in out
    assert "<ul><li>one continued</li><li>two</li></ul>" in out
    assert "<ol><li>first</li></ol>" in out
    assert "<th>a</th><th>b</th>" in out and "<td>1</td>" in out
    assert "<pre><code>&lt;raw&gt;</code></pre>" in out


def test_an_image_line_becomes_the_callers_block() -> None:
    out = markdown_subset.to_html("![results](fig.png)\n", lambda alt, src: f"[{alt}:{src}]")
    assert out == "[results:fig.png]\n"


@pytest.mark.parametrize("stem", sorted(SPECS))
def test_every_point_of_a_figure_is_a_row_of_its_plotted_csv(stem: str) -> None:
    """Points drawn = rows × y columns with a finite y (the browser test counts them in the page)."""
    csvs = sorted(ARTIFACTS.glob(f"**/{stem}_plotted.csv"))
    assert csvs, f"no committed {stem}_plotted.csv"
    # A full variant with no complete block yet commits its plotted CSV with the header only.
    filled = [(path, rows) for path in csvs if (rows := read_rows(path))]
    assert filled, f"every committed {stem}_plotted.csv is empty"
    for path, rows in filled:
        spec = fitted(SPECS[stem], list(rows[0]))
        assert spec is not None, f"{path}: the figure's x or y column is missing"
        drawn = [
            (x, y)
            for f in figures(spec, rows, stem)
            for t in f["data"]
            if t.get("meta") != "paper"
            for x, y in zip(t["x"], t["y"], strict=True)
        ]
        assert sorted(map(str, drawn)) == sorted(str((x, y)) for _, x, y in plotted_points(spec, rows))


def test_paper_values_are_marked_where_the_png_marks_them() -> None:
    rows = read_rows(ARTIFACTS / "seed001-pagecache/quick/seed001_tables1-3_plotted.csv")
    charts = figures(SPECS["seed001_tables1-3"], rows, "t")
    paper = [t for f in charts for t in f["data"] if t.get("meta") == "paper"]
    assert sorted(y for t in paper for y in t["y"]) == sorted(float(r["paper_total"]) for r in rows)
    fig8 = figures(
        SPECS["seed000_fig8"], read_rows(ARTIFACTS / "seed000-storage/fig8-quick/seed000_fig8_plotted.csv"), "t"
    )
    # analysis/seed000/fig8/figure.py's line: the constant the PNG draws, not a number of the page's
    assert all(f["layout"]["shapes"][0]["y0"] == 1.44 for f in fig8)
    assert "axhline(PAPER_VS_CACHE[0]" in (report_html.ARTIFACTS.parent / "analysis/seed000/fig8/figure.py").read_text()


def test_scoreboard_rows_are_the_claims_of_the_artifact() -> None:
    folder = ARTIFACTS / "seed003-qos/quick"
    rows = report_html.scoreboard_rows(folder)
    claims = [c for c in load_claims(ARTIFACTS / "claims")["003"] if c.artifact == "seed003-qos/{variant}"]
    assert [r[0] for r in rows] == [c.key for c in claims]
    assert rows[0][4] in (
        "reproduced",
        "in direction",
        "consistent for some parameter",
        "not reproduced",
        "inconclusive",
    )


@pytest.mark.parametrize("folder", PAGES, ids=lambda p: str(p.relative_to(ARTIFACTS)))
def test_committed_page_is_up_to_date_and_small(folder: Path, tmp_path: Path) -> None:
    """The committed report.html is what the module writes now (so `make reproduce` leaves git
    clean), it loads plotly.js from the git-ignored folder, and it stays small (no plotly copy)."""
    page = folder / "report.html"
    assert page.is_file(), f"{page} is not committed: python -m datasched.analysis.report_html {folder}"
    source = Path(re.search(r'<script src="([^"]+)">', page.read_text()).group(1))  # type: ignore[union-attr]
    assert (folder / source).resolve() == (report_html.PLOTLY_DIR / report_html.PLOTLY_NAME).resolve()
    assert page.read_text() == report_html.render(folder, source.as_posix())
    assert page.stat().st_size < 600_000


def test_page_embeds_figures_as_json_and_falls_back_to_the_png() -> None:
    folder = ARTIFACTS / "seed000-storage/fig8-quick"
    text = report_html.render(folder, "plotly.min.js")
    assert '<img src="seed000_fig8.png"' in text
    data = json.loads(re.search(r'id="page-figures">(.*?)</script>', text).group(1))  # type: ignore[union-attr]
    assert list(data) == ["seed000_fig8"] and len(data["seed000_fig8"]["rows"]) == 21


def test_unknown_folder_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert report_html.main([str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == f"report_html: {tmp_path}/report.md: no such file"
