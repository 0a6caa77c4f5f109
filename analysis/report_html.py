"""``report.html`` beside each artifact's ``report.md``: the report's text, its figures
interactive, and the artifact's scoreboard rows, readable offline in a browser.

Design (docs/outputs.md, "Artifact pages"):

- The text is the report's Markdown (:mod:`datasched.analysis.markdown_subset`); each
  ``![..](stem.png)`` whose ``stem_plotted.csv`` has a figure in
  :data:`datasched.analysis.report_html_figures.SPECS` becomes interactive charts drawn from that
  committed CSV, with the PNG kept underneath as an ``<img>``; charts the PNG derives from the
  CSV (with the paper's values it marks there) follow
  (:data:`datasched.analysis.report_html_derived.DERIVED`).
- plotly.js is not copied into the pages (4.8 MB each) nor into the repository: a page loads
  ``plotly.min.js`` from ``paper-artifacts/.plotly/`` (git-ignored), which this module writes
  from the installed plotly wheel. When that file is missing (a fresh clone), the page's
  script does nothing and the committed PNG shows, so every committed page still has its figure.
- The scoreboard rows are :func:`datasched.analysis.scoreboard.cell` of every claim whose
  artifact is this folder, so they read exactly as in ``paper-artifacts/README.md``.
- Output depends only on the report, the plotted CSVs and the claims: same inputs, same bytes.

    python -m datasched.analysis.report_html                 # every report.md under paper-artifacts/
    python -m datasched.analysis.report_html FOLDER [...]    # those artifact folders only
"""

from __future__ import annotations

import argparse
import html
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from datasched.analysis import markdown_subset
from datasched.analysis.explore_page import plotly_js
from datasched.analysis.report_html_derived import DERIVED
from datasched.analysis.report_html_figures import SPECS, figures, fitted, read_rows
from datasched.analysis.scoreboard import ARTIFACTS, VARIANTS, cell, load_claims

PLOTLY_DIR = ARTIFACTS / ".plotly"
PLOTLY_NAME = "plotly.min.js"

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:18px auto;max-width:1150px;padding:0 20px;
color:#1d1d1d;background:#fafafa;line-height:1.45}
h1{font-size:22px}h2{font-size:18px;margin-top:26px;border-bottom:1px solid #ccc}h3{font-size:15px}
table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0;display:block;overflow-x:auto}
th,td{border:1px solid #d5d5d5;padding:3px 7px;text-align:left;vertical-align:top}
code{background:#eee;padding:0 3px;border-radius:3px;font-size:90%}
pre{background:#fff;border:1px solid #d5d5d5;padding:6px 8px;overflow-x:auto}
img{max-width:100%}.artifact-figure{margin:8px 0}.chart{background:#fff;border:1px solid #e0e0e0;margin:6px 0}
.note{color:#555;font-size:13px}#page-errors{color:#b00020}#page-errors:empty{display:none}
"""

#: Runs first: records uncaught errors (plotly's own included) for the browser test.
EARLY_SCRIPT = (
    "window.pageErrors=[];window.addEventListener('error',function(e){window.pageErrors.push(String(e.message));});"
)

#: Draws every figure when plotly.js loaded; otherwise leaves the PNGs. Records what plotly
#: holds once drawn (every [x, y] point, the paper's markers and lines) on <body> for the
#: browser test (tests/integration/explore/test_report_pages_browser.py).
SCRIPT = """
(function(){
  var errors=window.pageErrors, body=document.body, drawn=[], points=[], paper=[];
  var specs=JSON.parse(document.getElementById('page-figures').textContent);
  if(window.Plotly){
    document.querySelectorAll('.artifact-figure').forEach(function(box){
      var figure=specs[box.getAttribute('data-stem')];
      if(!figure){return;}
      var hover=figure.rows.map(function(row){
        return row.map(function(v,j){return figure.columns[j]+': '+v;}).join('<br>');});
      var charts=figure.charts;
      box.querySelector('img').style.display='none';
      box.querySelector('.figure-note').style.display='block';
      charts.forEach(function(spec,i){
        var div=document.createElement('div'); div.className='chart'; div.id=box.getAttribute('data-stem')+'-'+i;
        box.appendChild(div);
        spec.data.forEach(function(t){t.text=t.customdata.map(function(i){return hover[i];});});
        try{drawn.push(Plotly.newPlot(div,spec.data,spec.layout,{displaylogo:false,responsive:true}));}
        catch(e){errors.push(div.id+': '+e.message);}
      });
    });
  }
  Promise.all(drawn).then(function(){
    document.querySelectorAll('.chart').forEach(function(div){
      div.data.forEach(function(t){
        if(t.meta==='derived'){return;}
        var into=t.meta==='paper'?paper:points;
        t.y.forEach(function(y,i){into.push([t.x[i],y]);});
      });
      (div.layout.shapes||[]).forEach(function(s){paper.push(['line',s.y0]);});
    });
  }).catch(function(e){errors.push(String(e));}).then(function(){
    body.setAttribute('data-plotly',window.Plotly?'1':'0');
    body.setAttribute('data-charts',String(document.querySelectorAll('.chart').length));
    body.setAttribute('data-points',JSON.stringify(points));
    body.setAttribute('data-paper',JSON.stringify(paper));
    body.setAttribute('data-js-errors',String(errors.length));
    document.getElementById('page-errors').textContent=errors.join('\\n');
    body.setAttribute('data-rendered','1');
  });
})();
"""


def write_plotly(folder: Path = PLOTLY_DIR) -> Path:
    """``folder/plotly.min.js`` from the plotly wheel (rewritten only when it differs)."""
    path = folder / PLOTLY_NAME
    text = plotly_js()
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path


def scoreboard_rows(folder: Path, artifacts: Path = ARTIFACTS) -> list[tuple[str, str, str, str, str, str]]:
    """(key, where, paper, ours, verdict, why) of every claim whose artifact is ``folder``, as
    the scoreboard reads them."""
    try:
        relative = folder.resolve().relative_to(artifacts.resolve()).as_posix()
    except ValueError:
        return []
    rows = []
    for claims in load_claims(artifacts / "claims").values():
        for claim in claims:
            for variant in VARIANTS:
                if claim.artifact and claim.artifact.format(variant=variant) == relative:
                    one = cell(claim, variant, artifacts)
                    rows.append((claim.key, claim.where, claim.paper, one.ours, str(one.word), one.why))
    return rows


def _scoreboard_html(rows: Sequence[tuple[str, ...]]) -> str:
    if not rows:
        return '<p class="note">No claim of <code>paper-artifacts/claims/</code> names this artifact.</p>\n'
    head = "".join(f"<th>{h}</th>" for h in ("claim", "where", "paper", "ours", "verdict", "why"))
    body = "\n".join(
        f'<tr data-key="{html.escape(r[0])}">' + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
        for r in rows
    )
    return f'<table id="scoreboard"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>\n'


def _figure_block(stem: str, alt: str, src: str) -> str:
    note = (
        f'<p class="figure-note note" style="display:none">Interactive, drawn from <code>{stem}_plotted.csv</code> '
        f'(hover a point for its row); the static figure is <a href="{html.escape(src)}">{html.escape(src)}</a>.</p>'
    )
    return (
        f'<div class="artifact-figure" data-stem="{html.escape(stem)}">{note}'
        f'<img src="{html.escape(src)}" alt="{html.escape(alt)}"></div>'
    )


def render(folder: Path, plotly_src: str) -> str:
    """The page of the artifact in ``folder`` (``report.md`` and its plotted CSVs), loading
    plotly.js from ``plotly_src`` (relative to the page)."""
    report = (folder / "report.md").read_text(encoding="utf-8")
    specs: dict[str, dict[str, Any]] = {}

    def image_block(alt: str, src: str) -> str:
        stem = src.rsplit(".", 1)[0]
        plotted = folder / f"{stem}_plotted.csv"
        rows = read_rows(plotted) if stem in SPECS and plotted.is_file() and "/" not in src else []
        spec = fitted(SPECS[stem], list(rows[0])) if rows else None
        if spec:
            charts = figures(spec, rows, alt if alt not in ("", "results") else stem)
            charts += DERIVED[stem](rows) if stem in DERIVED else []
            specs[stem] = {"columns": list(rows[0]), "rows": [list(r.values()) for r in rows], "charts": charts}
            return _figure_block(stem, alt, src)
        return f'<p><img src="{html.escape(src)}" alt="{html.escape(alt)}"></p>'

    body = markdown_subset.to_html(report, image_block)
    title = next((line[2:] for line in report.splitlines() if line.startswith("# ")), folder.name)
    data = json.dumps(specs, sort_keys=True, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style><script>{EARLY_SCRIPT}</script>"
        f'<script src="{html.escape(plotly_src)}"></script></head><body>\n'
        '<p class="note">Generated from <a href="report.md">report.md</a> by '
        "<code>python -m datasched.analysis.report_html</code>; figures need "
        f"<code>{html.escape(plotly_src)}</code> (<code>make reproduce</code> writes it), else the PNG shows.</p>\n"
        '<pre id="page-errors"></pre>\n'
        f"{body}<h2>Scoreboard rows</h2>\n"
        '<p class="note">The claims of <code>paper-artifacts/claims/</code> judged by this artifact, as in '
        "<code>paper-artifacts/README.md</code>.</p>\n"
        f"{_scoreboard_html(scoreboard_rows(folder))}"
        f'<script type="application/json" id="page-figures">{data}</script>\n'
        f"<script>{SCRIPT}</script>\n</body></html>\n"
    )


def write(folder: Path, plotly_file: Path | None = None) -> Path:
    """``folder/report.html``, loading plotly.js from ``plotly_file`` (referenced relative to the
    page): a copy already written (the pipeline's ``plotly_js`` step), or by default
    ``paper-artifacts/.plotly/plotly.min.js``, written here from the wheel."""
    plotly_path = plotly_file if plotly_file is not None else write_plotly()
    page = folder / "report.html"
    source = Path(os.path.relpath(plotly_path.resolve(), folder.resolve())).as_posix()
    text = render(folder, source)
    if not page.is_file() or page.read_text(encoding="utf-8") != text:
        page.write_text(text, encoding="utf-8")
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="artifact folders (default: every one with a report.md)")
    args = parser.parse_args(argv)
    folders = args.folders or sorted(p.parent for p in ARTIFACTS.glob("**/report.md") if ".plotly" not in p.parts)
    missing = [folder for folder in folders if not (folder / "report.md").is_file()]
    if missing:
        print(f"report_html: {missing[0]}/report.md: no such file", file=sys.stderr)
        return 2
    plotly_file = write_plotly()  # once for every page
    for folder in folders:
        print(write(folder, plotly_file))
    return 0


if __name__ == "__main__":
    sys.exit(main())
