"""Charts of the ``report.html`` pages that a PNG derives from its plotted CSV, with the paper's
values drawn on them as the PNG draws them.

Some figures mark the paper's values on quantities that are not a column of their plotted CSV
but are computed from it: seed 003's effect panels (latency, AWP-ODC run time and CG
communication time *with* I/O noise minus *without*), seed 004's idle-daemon overhead by job
size, seed 001 WfCommons' T_all at the paper's change from each data-unaware baseline. A page
drawing only the CSV's columns would have nowhere to put those marks. Each function here
computes the same derived numbers with the artifact's own code (``seed003.table.effects``,
``seed004.table.idle_overheads``, ``seed001_wfcommons.table.find_group``) from the committed CSV
rows, and takes the paper's values from the artifact's own constants (the ones its figure
module draws): no number is written here.

A derived trace carries ``meta: "derived"`` (the browser test counts only the CSV's own points
against the CSV), a paper trace ``meta: "paper"``, a paper line or band is a layout shape.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from datasched.analysis.report_html_figures import PALETTE, PaperLine, paper_shapes

Rows = Sequence[Mapping[str, str]]


def _typed(rows: Rows, text: Sequence[str], ints: Sequence[str] = ()) -> list[dict[str, Any]]:
    """CSV rows with the ``text`` columns kept, ``ints`` as ints and every other cell a float
    (an empty cell NaN), as the artifact's own code reads them."""
    out = []
    for row in rows:
        typed: dict[str, Any] = {}
        for key, cell in row.items():
            if key in text:
                typed[key] = cell
            elif key in ints:
                typed[key] = int(float(cell)) if cell else 0
            else:
                typed[key] = float(cell) if cell else math.nan
        out.append(typed)
    return out


def _series(name: str, xs: Sequence[Any], ys: Sequence[float], k: int, *, bar: bool = False) -> dict[str, Any]:
    keep = [(x, float(y)) for x, y in zip(xs, ys, strict=True) if math.isfinite(y)]
    trace: dict[str, Any] = {
        "name": name,
        "x": [x for x, _ in keep],
        "y": [y for _, y in keep],
        "customdata": [],
        "meta": "derived",
        "marker": {"color": PALETTE[k % len(PALETTE)]},
    }
    if bar:
        trace.update(type="bar")
    else:
        trace.update(type="scatter", mode="lines+markers")
    return trace


def _chart(
    title: str, x: str, y: str, data: list[dict[str, Any]], lines: Sequence[PaperLine] = (), *, log_x: bool = False
) -> dict[str, Any]:
    shapes, annotations = paper_shapes(lines)
    return {
        "data": data,
        "layout": {
            "title": {"text": title, "font": {"size": 14}},
            "height": 360,
            "margin": {"l": 70, "r": 20, "t": 40, "b": 60},
            "barmode": "group",
            "hovermode": "closest",
            "xaxis": {"title": {"text": x}, "type": "log" if log_x else "-"},
            "yaxis": {"title": {"text": y}},
            "shapes": shapes,
            "annotations": annotations,
            "legend": {"font": {"size": 11}},
        },
    }


def seed003_effects(rows: Rows) -> list[dict[str, Any]]:
    """The PNG's three effect panels: 4 MB latency added by the noise against the SSD bandwidth
    (Fig. 5c), the AWP-ODC-like run time with noise against its communication share (Fig. 10a),
    the CG-like communication time with noise against the SSD bandwidth (Fig. 10b); the paper's
    SL0 and SL1 values as lines (``seed003.spec.PAPER``, which the figure module draws)."""
    from datasched.analysis.seed003.spec import PAPER
    from datasched.analysis.seed003.table import effects, typed_row

    typed = [typed_row(r) for r in rows]
    ssds = sorted({r["ssd"] for r in typed if math.isfinite(r["ssd"])})
    grains = sorted({r["granularity"] for r in typed if math.isfinite(r["granularity"])})
    if not ssds or not grains:
        return []
    by_g = {g: [effects(typed, s, g) for s in ssds] for g in grains}
    gb = [s / 1e9 for s in ssds]
    latency, cg, awp = [], [], []
    for j, g in enumerate(grains):
        es = by_g[g]
        tag = f"g {g / 1024:g} KiB"
        latency += [
            _series(f"SL0, {tag}", gb, [e.latency_sl0_us for e in es], 2 * j),
            _series(f"SL1, {tag}", gb, [e.latency_sl1_us for e in es], 2 * j + 1),
        ]
        cg += [
            _series(f"SL0, {tag}", [f"{x:g}" for x in gb], [e.cg_sl0_pct for e in es], 2 * j, bar=True),
            _series(f"SL1, {tag}", [f"{x:g}" for x in gb], [e.cg_sl1_pct for e in es], 2 * j + 1, bar=True),
        ]
    first = by_g[grains[0]]
    for k, e in enumerate(first):
        shares = [100 * a[1] for a in e.awp]
        awp += [
            _series(f"SL0, SSD {e.ssd / 1e9:g} GB/s", shares, [a[2] for a in e.awp], k),
            _series(f"SL1, SSD {e.ssd / 1e9:g} GB/s", shares, [a[3] for a in e.awp], k) | {"line": {"dash": "dash"}},
        ]

    def paper(key: str, what: str) -> PaperLine:
        return PaperLine(f"paper {what}: {PAPER[key]:g}", PAPER[key], PAPER[key])

    g0 = f"g {grains[0] / 1024:g} KiB"
    return [
        _chart(
            "Latency added by the noise at the largest message (Fig. 5c)",
            "SSD write bandwidth (GB/s)",
            "latency − no I/O (µs)",
            latency,
            [paper("latency_sl0_us", "SL0"), paper("latency_sl1_us", "SL1")],
        ),
        _chart(
            f"AWP-ODC-like stencil: run time − no I/O (Fig. 10a), {g0}",
            "communication share of the run without I/O (%)",
            "run time − no I/O (%)",
            awp,
            [paper("awp_sl0_pct", "SL0"), paper("awp_sl1_pct", "SL1")],
            log_x=True,
        ),
        _chart(
            "NAS CG-like transpose: communication time − no I/O (Fig. 10b)",
            "SSD write bandwidth (GB/s)",
            "communication time − no I/O (%)",
            cg,
            [paper("cg_sl0_pct", "SL0"), paper("cg_sl1_pct", "SL1")],
        ),
    ]


def seed004_idle(rows: Rows) -> list[dict[str, Any]]:
    """The PNG's idle-services panel per node model: HPL's slowdown with idle daemons against the
    job size, one series per (core share, period), the paper's band at 64 nodes
    (``seed004.spec.PAPER["idle64"]``, as the figure module shades it)."""
    from datasched.analysis.seed004.spec import PAPER
    from datasched.analysis.seed004.table import idle_overheads

    typed = _typed(rows, text=("model", "configuration", "placement"), ints=("size", "runs"))
    charts = []
    for model in dict.fromkeys(r["model"] for r in typed):
        overheads = sorted(idle_overheads(typed, model).items())
        if not overheads:
            continue
        data = [
            _series(f"{100 * fraction:g} %, {period:g} s", sorted(by_size), [by_size[x] for x in sorted(by_size)], i)
            for i, ((fraction, period), by_size) in enumerate(overheads)
        ]
        low, high = PAPER["idle64"]
        band = PaperLine(f"paper at 64 nodes: +{low:g} to +{high:g} %", low, high)
        charts.append(_chart(f"{model}: idle services (core share, period)", "HPL nodes", "slowdown (%)", data, [band]))
    return charts


def seed001_wfcommons_paper(rows: Rows) -> list[dict[str, Any]]:
    """The PNG's makespan panels: per size scale, the mean T_all per application and
    platform/variant (the figure's style: ``dependency`` where run), and across each application
    the T_all at the paper's change from each data-unaware baseline
    (``seed001_wfcommons.spec.PAPER_CHANGE_PCT``, as the figure module marks it)."""
    from datasched.analysis.seed001_wfcommons.spec import PAPER_CHANGE_PCT
    from datasched.analysis.seed001_wfcommons.table import find_group, group_label

    summary = _typed(rows, text=("app", "platform", "variant", "style"), ints=("instances",))
    if not summary:
        return []
    styles = sorted({r["style"] for r in summary})
    style = "dependency" if "dependency" in styles else styles[0]
    apps = list(dict.fromkeys(r["app"] for r in summary))
    labels = list(dict.fromkeys(group_label(r) for r in summary))
    charts = []
    for scale in sorted({r["size_scale"] for r in summary}):
        data = []
        for k, label in enumerate(labels):
            platform, variant = label.split("/", 1)
            found = [
                find_group(summary, platform=platform, variant=variant, app=a, style=style, size_scale=scale)
                for a in apps
            ]
            data.append(
                _series(
                    label,
                    [a for a, r in zip(apps, found, strict=True) if r],
                    [r["makespan"] for r in found if r],
                    k,
                    bar=True,
                )
            )
        for platform in ("scm", "san"):
            bases = [
                (a, r["makespan"] * (1 + PAPER_CHANGE_PCT / 100))
                for a in apps
                if (
                    r := find_group(summary, platform=platform, variant="unaware", app=a, style=style, size_scale=scale)
                )
            ]
            if bases:
                data.append(
                    {
                        "type": "scatter",
                        "mode": "markers",
                        "name": f"paper: {PAPER_CHANGE_PCT:+.0f} % from {platform}/unaware",
                        "x": [a for a, _ in bases],
                        "y": [y for _, y in bases],
                        "customdata": [],
                        "meta": "paper",
                        "marker": {"symbol": "line-ew-open", "size": 28, "color": "black", "line": {"width": 2}},
                    }
                )
        charts.append(
            _chart(
                f"T_all at the paper's change, file sizes x {scale:g}, {style} style", "application", "T_all (s)", data
            )
        )
    return charts


#: Plotted-CSV stem -> the charts its PNG derives from it (drawn after the CSV's own charts).
DERIVED: dict[str, Callable[[Rows], list[dict[str, Any]]]] = {
    "seed003_qos": seed003_effects,
    "seed004_interference": seed004_idle,
    "seed001_wfcommons": seed001_wfcommons_paper,
}
