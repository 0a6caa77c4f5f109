"""Every paper value a report's PNG draws is drawn on its ``report.html`` (issue 33): a page
replaces the PNG by interactive charts, so a paper line, band or marker that only the PNG has is
lost to the reader. Checked on every committed page (quick and full).

What each PNG draws is listed here per plotted-CSV stem, from the constants and the CSV rows its
figure module draws from (``EXPECTED``); the page's paper values are its layout shapes (lines:
y0 = y1, bands: y0 and y1) and its ``meta: "paper"`` traces. A stem whose figure draws no paper
value is in ``NO_PAPER_MARKS``, and its figure module is checked to hold no string that names the
paper, so a mark added to a PNG later cannot be missed here. The seed 003 page was the gap (its
PNG marks six paper values on effect panels derived from the CSV; the page had none).
"""

from __future__ import annotations

import ast
import csv
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from datasched.analysis.report_html_figures import SPECS, number
from datasched.analysis.scoreboard import ARTIFACTS

Rows = list[dict[str, str]]
ANALYSIS = Path(__file__).resolve().parents[3] / "analysis"


def _fig(module: str, name: str) -> Callable[[Rows], set[float]]:
    def values(rows: Rows) -> set[float]:
        import importlib

        return {getattr(importlib.import_module(f"datasched.analysis.seed000.{module}.figure"), name)[0]}

    return values


def _table4(rows: Rows) -> set[float]:
    from datasched.analysis.seed001_workflows.spec import PAPER_T_ALL

    return set(PAPER_T_ALL.values())


def _pagecache(rows: Rows) -> set[float]:
    """The hatched paper bars: Tables 1-3's totals for every hardware and file set drawn."""
    from datasched.analysis.seed001_pagecache.spec import (
        HARDWARE,
        MULTI_FILES,
        PAPER_T1,
        PAPER_T2,
        PAPER_T3,
        SINGLE_FILES,
    )

    tables = ((PAPER_T1, SINGLE_FILES), (PAPER_T2, SINGLE_FILES), (PAPER_T3, MULTI_FILES))
    return {paper[kind][config][0] for paper, configs in tables for kind in HARDWARE for config in configs}


def _wfcommons(rows: Rows) -> set[float]:
    """Across each application's makespan bars: each data-unaware T_all x (1 + the paper's change),
    for the style the figure draws (dependency where run)."""
    from datasched.analysis.seed001_wfcommons.spec import PAPER_CHANGE_PCT

    styles = sorted({r["style"] for r in rows})
    style = "dependency" if "dependency" in styles else styles[0]
    return {
        float(r["makespan"]) * (1 + PAPER_CHANGE_PCT / 100)
        for r in rows
        if r["variant"] == "unaware" and r["style"] == style and r["platform"] in ("scm", "san")
    }


def _seed003(rows: Rows) -> set[float]:
    """The effect panels' lines: 4 MB latency, AWP-ODC run time and CG communication time, SL0 and SL1."""
    from datasched.analysis.seed003.spec import PAPER

    return {
        PAPER[k] for k in ("latency_sl0_us", "latency_sl1_us", "awp_sl0_pct", "awp_sl1_pct", "cg_sl0_pct", "cg_sl1_pct")
    }


def _seed004(rows: Rows) -> set[float]:
    """Bands: single and matching on panel (a); idle daemons at 64 nodes on the idle panel (drawn
    once the run has idle-service rows)."""
    from datasched.analysis.seed004.spec import PAPER

    bands = {*PAPER["single"], *PAPER["matching"]}
    if any(r["configuration"] == "hpl-only" and float(r["idle_fraction"]) > 0 for r in rows):
        bands |= set(PAPER["idle64"])
    return bands


EXPECTED: dict[str, Callable[[Rows], set[float]]] = {
    "seed000_fig7": _fig("fig7", "PAPER_VS_NP"),
    "seed000_fig8": _fig("fig8", "PAPER_VS_CACHE"),
    "seed000_fig10": _fig("fig10", "PAPER_VS_NP"),
    "seed001_table4": _table4,
    "seed001_table4_model": _table4,
    "seed001_tables1-3": _pagecache,
    "seed001_wfcommons": _wfcommons,
    "seed003_qos": _seed003,
    "seed004_interference": _seed004,
}

#: Stems whose PNG marks no paper value, with the figure module that draws it.
NO_PAPER_MARKS = {
    "policies_on_traces": "policies_on_traces.py",
    "placement_gap": "placement_gap/figure.py",
    "seed000_fig6": "seed000/fig6/figure.py",
    "seed000_fig9": "seed000/fig9/figure.py",
    "seed002_twins": "seed002/figure.py",
}


def _pages() -> list[Path]:
    return sorted(p for p in ARTIFACTS.glob("**/report.html") if ".plotly" not in p.parts)


def _page_paper_values(page: Path) -> dict[str, list[float]]:
    """Stem -> every paper value its charts draw (shapes' y0/y1, paper traces' y)."""
    text = page.read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="page-figures">(.*?)</script>', text, re.S)
    assert match, page
    specs = json.loads(match.group(1).replace("<\\/", "</"))
    out = {}
    for stem, figure in specs.items():
        values = []
        for chart in figure["charts"]:
            for shape in chart["layout"].get("shapes", []):
                values += [shape["y0"], shape["y1"]]
            for trace in chart["data"]:
                if trace.get("meta") == "paper":
                    values += trace["y"]
        out[stem] = values
    return out


def _close(value: float, among: list[float]) -> bool:
    return any(abs(value - v) <= 1e-9 * max(1.0, abs(value)) for v in among)


def test_every_stem_is_listed_once():
    assert set(EXPECTED) | set(NO_PAPER_MARKS) == set(SPECS)
    assert not set(EXPECTED) & set(NO_PAPER_MARKS)


@pytest.mark.parametrize("stem", sorted(NO_PAPER_MARKS))
def test_figures_said_to_mark_no_paper_value_name_no_paper(stem):
    """No string of the figure module (docstrings aside) names the paper: a label such as
    "paper: ..." would mean a mark that EXPECTED must list."""
    tree = ast.parse((ANALYSIS / NO_PAPER_MARKS[stem]).read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    strings = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]
    assert not [s for s in strings if "paper" in s.lower()], stem


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.parent.relative_to(ARTIFACTS).as_posix())
def test_every_paper_value_of_the_png_is_on_the_page(page):
    drawn = _page_paper_values(page)
    for stem, values in drawn.items():
        if stem not in EXPECTED:
            assert not values, f"{page}: {stem} draws paper values its PNG does not: add it to EXPECTED"
            continue
        with open(page.parent / f"{stem}_plotted.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
        expected = {v for v in EXPECTED[stem](rows) if number(str(v)) is not None}
        missing = sorted(v for v in expected if not _close(v, values))
        assert not missing, f"{page}: {stem}: paper values on the PNG, not on the page: {missing}"
