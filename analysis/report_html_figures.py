"""The interactive figures of the artifacts' ``report.html`` pages: for each committed
``<stem>_plotted.csv`` (the numbers a report's ``<stem>.png`` draws), which columns are the
axes, series and panels, and where the PNG marks the paper's values.

A figure is drawn from the plotted CSV alone (never from the runs), so the page shows exactly
the committed numbers; one plotly chart per panel value, one trace per series, every row of the
CSV with a finite y becoming one point (the browser test counts them against the CSV). The
paper's values come from the same place the PNG's come from: a column of the CSV
(``paper_column``), or the constants the figure modules draw as lines and bands (imported from
them, never written here). Paper values that a PNG marks on quantities it derives from the CSV
are drawn by :mod:`datasched.analysis.report_html_derived`.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig7.figure import PAPER_VS_NP as FIG7_PAPER
from datasched.analysis.seed000.fig8.figure import PAPER_VS_CACHE as FIG8_PAPER
from datasched.analysis.seed000.fig10.figure import PAPER_VS_NP as FIG10_PAPER
from datasched.analysis.seed001_workflows.spec import PAPER_T_ALL
from datasched.analysis.seed004.spec import PAPER as SEED004_PAPER

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf")


@dataclass(frozen=True)
class PaperLine:
    """A horizontal paper value (``y0 == y1``) or band on the panels whose ``panel`` values
    contain ``where`` (every panel when empty)."""

    label: str
    y0: float
    y1: float
    where: str = ""


@dataclass(frozen=True)
class FigureSpec:
    x: str
    y: tuple[str, ...]
    series: tuple[str, ...] = ()
    panels: tuple[str, ...] = ()
    bar: bool = False
    log_x: bool = False
    log_y: bool = False
    paper_column: str = ""
    paper_lines: tuple[PaperLine, ...] = field(default_factory=tuple)


def _line(label: str, value: float, where: str = "") -> PaperLine:
    return PaperLine(label, value, value, where)


#: Plotted-CSV stem -> its figure. The paper values of Figs. 7, 8 and 10 are the constants their
#: figure modules draw on the same quantity (analysis/seed000/fig*/figure.py); seed 001's Table 4
#: model draws Table 4's T_all (seed001_workflows.spec.PAPER_T_ALL). Seed 003's effect panels,
#: seed 004's idle panel and seed 001 WfCommons' paper marks are derived charts
#: (report_html_derived.DERIVED).
SPECS: dict[str, FigureSpec] = {
    "policies_on_traces": FigureSpec("policy", ("mean",), ("allocation",), ("metric", "trace"), bar=True),
    "placement_gap": FigureSpec("scenario", ("hops_per_byte",), ("method",), ("platform",)),
    "seed000_fig6": FigureSpec("mem_hit_pct", ("runtime_s",), ("storage",), ("access", "remote_pct"), log_y=True),
    "seed000_fig7": FigureSpec(
        "remote_pct",
        ("vs_np",),
        ("policy", "storage"),
        ("io",),
        paper_lines=(_line(FIG7_PAPER[1], FIG7_PAPER[0]),),
    ),
    "seed000_fig8": FigureSpec(
        "storage",
        ("vs_cache",),
        ("access",),
        ("topology",),
        bar=True,
        paper_lines=(_line(FIG8_PAPER[1], FIG8_PAPER[0]),),
    ),
    "seed000_fig9": FigureSpec("servers", ("mean_total_s",), ("series", "staging"), ("topology",), log_x=True),
    "seed000_fig10": FigureSpec(
        "policy", ("run_vs_np",), ("io",), bar=True, paper_lines=(_line(FIG10_PAPER[1], FIG10_PAPER[0]),)
    ),
    "seed001_tables1-3": FigureSpec(
        "files", ("ours_total",), ("hardware",), ("table",), bar=True, log_y=True, paper_column="paper_total"
    ),
    "seed001_table4": FigureSpec("policy", ("t_all",), ("style",), ("nvm",), bar=True, paper_column="paper_t_all"),
    "seed001_table4_model": FigureSpec(
        "size_rate",
        ("t_all_unaware", "t_all_aware"),
        ("lustre_bw",),
        ("tier", "style", "load"),
        log_x=True,
        paper_lines=(
            _line(f"paper: {PAPER_T_ALL['unaware']:g} s (unaware)", PAPER_T_ALL["unaware"]),
            _line(f"paper: {PAPER_T_ALL['aware']:g} s (aware)", PAPER_T_ALL["aware"]),
        ),
    ),
    "seed001_wfcommons": FigureSpec("variant", ("makespan",), ("platform",), ("app",), bar=True),
    "seed002_twins": FigureSpec(
        "configuration", ("makespan_mean",), ("server_cache",), ("kind", "pattern", "operation")
    ),
    "seed003_qos": FigureSpec(
        "size",
        ("latency", "bandwidth", "runtime", "comm"),
        ("noise", "ssd"),
        ("bench",),
        log_x=True,
    ),
    "seed004_interference": FigureSpec(
        "configuration",
        ("slowdown_pct",),
        ("size",),
        ("model", "placement"),
        bar=True,
        paper_lines=(
            PaperLine("paper: single", *SEED004_PAPER["single"]),
            PaperLine("paper: matching", *SEED004_PAPER["matching"]),
        ),
    ),
}


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def number(text: str) -> float | None:
    """A CSV cell as a finite float, or None (empty, nan, not a number)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _x(text: str) -> float | str:
    value = number(text)
    return value if value is not None else text


def _key(row: dict[str, str], columns: Sequence[str]) -> str:
    return ", ".join(f"{c}={row[c]}" for c in columns)


def plotted_points(spec: FigureSpec, rows: Sequence[dict[str, str]]) -> list[tuple[str, float | str, float]]:
    """Every (column, x, y) the figures draw from ``rows``: one per row and y column with a
    finite y. The browser test compares the drawn points with these."""
    return [(column, _x(row[spec.x]), y) for row in rows for column in spec.y if (y := number(row[column])) is not None]


def fitted(spec: FigureSpec, columns: Sequence[str]) -> FigureSpec | None:
    """``spec`` without the series and panel columns a variant's CSV lacks (the full and quick
    variants of an artifact may differ in swept columns); None when its x or a y is missing."""
    if spec.x not in columns or any(y not in columns for y in spec.y):
        return None
    return replace(
        spec,
        series=tuple(c for c in spec.series if c in columns),
        panels=tuple(c for c in spec.panels if c in columns),
        paper_column=spec.paper_column if spec.paper_column in columns else "",
    )


def figures(spec: FigureSpec, rows: Sequence[dict[str, str]], title: str) -> list[dict[str, Any]]:
    """One plotly figure (data + layout) per panel value, in the CSV's order. A point's
    ``customdata`` is its row's index in ``rows``: the page builds the hover text from the rows,
    stored once (not once per point), to keep the committed pages small."""
    panels: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        panels.setdefault(_key(row, spec.panels), []).append(row)
    index = {id(row): i for i, row in enumerate(rows)}
    out = []
    for panel, members in panels.items():
        traces: dict[str, dict[str, Any]] = {}
        for row in members:
            for column in spec.y:
                y = number(row[column])
                if y is None:
                    continue
                name = ", ".join(filter(None, [column if len(spec.y) > 1 else "", _key(row, spec.series)])) or column
                trace = traces.setdefault(name, _trace(spec, name, len(traces)))
                trace["x"].append(_x(row[spec.x]))
                trace["y"].append(y)
                trace["customdata"].append(index[id(row)])
        data = list(traces.values())
        if spec.paper_column:
            paper = [(row[spec.x], number(row[spec.paper_column]), row) for row in members]
            data.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "name": "paper",
                    "x": [_x(x) for x, v, _ in paper if v is not None],
                    "y": [v for _, v, _ in paper if v is not None],
                    "customdata": [index[id(r)] for _, v, r in paper if v is not None],
                    "hovertemplate": "%{text}<extra>paper</extra>",
                    "marker": {"symbol": "x", "size": 11, "color": "black"},
                    "meta": "paper",
                }
            )
        lines = [line for line in spec.paper_lines if line.where in panel]
        out.append({"data": data, "layout": _layout(spec, f"{title} — {panel}" if panel else title, lines)})
    return out


def _trace(spec: FigureSpec, name: str, index: int) -> dict[str, Any]:
    colour = PALETTE[index % len(PALETTE)]
    trace: dict[str, Any] = {
        "name": name,
        "x": [],
        "y": [],
        "customdata": [],
        "hovertemplate": "%{text}<extra></extra>",
    }
    if spec.bar:
        trace.update(type="bar", marker={"color": colour}, textposition="none")
    else:
        trace.update(type="scatter", mode="markers", marker={"color": colour, "size": 8, "opacity": 0.8})
    return trace


def paper_shapes(lines: Sequence[PaperLine]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """plotly layout shapes and their labels for paper lines (dotted) and bands (shaded)."""
    shapes, annotations = [], []
    for line in lines:
        band = line.y0 != line.y1
        shapes.append(
            {
                "type": "rect" if band else "line",
                "xref": "paper",
                "x0": 0,
                "x1": 1,
                "y0": line.y0,
                "y1": line.y1,
                "line": {"color": "black", "dash": "dot", "width": 0 if band else 1.5},
                "fillcolor": "rgba(120,120,120,0.18)",
            }
        )
        annotations.append(
            {"xref": "paper", "x": 1, "xanchor": "right", "y": line.y1, "yanchor": "bottom", "showarrow": False}
            | {"text": line.label, "font": {"size": 11}}
        )
    return shapes, annotations


def _layout(spec: FigureSpec, title: str, lines: Sequence[PaperLine]) -> dict[str, Any]:
    shapes, annotations = paper_shapes(lines)
    return {
        "title": {"text": title, "font": {"size": 14}},
        "height": 360,
        "margin": {"l": 70, "r": 20, "t": 40, "b": 60},
        "barmode": "group",
        "hovermode": "closest",
        "xaxis": {"title": {"text": spec.x}, "type": "log" if spec.log_x else "-"},
        "yaxis": {"title": {"text": " / ".join(spec.y)}, "type": "log" if spec.log_y else "-"},
        "shapes": shapes,
        "annotations": annotations,
        "legend": {"font": {"size": 11}},
    }
