"""The HTML page of `datasched explore`: one self-contained file per call.

Every figure is a plotly figure (data + layout) built here from
:class:`~datasched.analysis.explore_data.RunData`; the page embeds them as JSON with one
inlined copy of ``plotly.min.js`` from the plotly wheel (about 4.8 MB), so it opens offline.
The page is deterministic: the same runs give the same bytes (no date, no random id), so a
committed page regenerates byte for byte. After drawing, the page writes what it drew into
its own DOM (``data-bars`` on each Gantt: the bars the browser rendered; ``data-js-errors``
on the body), which is what the headless-browser test reads.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from datasched.analysis.explore_data import RunData

#: The columns of the summary table: key in ``RunData.summary``, label, unit.
SUMMARY_ROWS = (
    ("jobs", "jobs", ""),
    ("succeeded", "succeeded", ""),
    ("makespan", "makespan", "s"),
    ("mean_wait", "mean waiting time", "s"),
    ("max_wait", "max waiting time", "s"),
    ("mean_slowdown", "mean slowdown", ""),
    ("max_slowdown", "max slowdown", ""),
    ("utilisation", "utilisation (compute nodes)", ""),
    ("energy_joules", "energy", "J"),
)

#: Line colours of the runs in comparison figures (run 1, run 2, ...).
RUN_COLOURS = ("#1f5fa8", "#d0641c", "#2a8a3e", "#a3278f", "#7a6a12", "#117a8b")


def job_colour(index: int) -> str:
    """A distinct, stable colour per job: hues spread by the golden angle."""
    hue = (index * 137.508) % 360
    lightness = 48 + 10 * (index % 3)
    return f"hsl({hue:.1f},62%,{lightness}%)"


def format_number(value: float | int | None, unit: str = "") -> str:
    """Six significant digits (what the tests compare with the CSVs), ``—`` when absent."""
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value}"
    text = f"{value:.6g}"
    return f"{text} {unit}".strip()


def _hover(run: RunData, job: int) -> str:
    jobs = run.jobs
    lines = [
        f"job {jobs['id'][job]} ({jobs['profile'][job]})",
        f"resources {jobs['resources'][job]}" + _named(run, jobs["resources"][job]),
        f"submitted {jobs['submit'][job]:.6g} s, started {jobs['start'][job]:.6g} s, "
        f"finished {jobs['finish'][job]:.6g} s",
        f"waited {jobs['wait'][job]:.6g} s; {jobs['state'][job]}",
    ]
    if run.storage:
        table = run.storage["table"]
        if jobs["id"][job] in table["job"]:
            row = table["job"].index(jobs["id"][job])
            tiers = [
                f"{tier} {table[f'{tier}_bytes'][row] / 1e9:.3g} GB"
                for tier in run.storage["tiers"]
                if table[f"{tier}_bytes"][row] > 0
            ]
            lines.append(f"storage {table['allocation'][row]}, access {table['access'][row]}")
            lines.append(f"devices {table['devices'][row] or '—'}" + _named(run, table["devices"][row]))
            if tiers:
                lines.append("bytes: " + ", ".join(tiers))
    return "<br>".join(html.escape(line) for line in lines)


def _named(run: RunData, ids: str, limit: int = 8) -> str:
    """`` (node-10, node-11 ...)``: the hosts' names for an id list or interval set, when known."""
    if not run.names or not ids:
        return ""
    from datasched.analysis.explore_data import resource_intervals

    names = [run.names.get(str(i), str(i)) for low, high in resource_intervals(ids) for i in range(low, high + 1)]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f" ({', '.join(names[:limit])}{more})"


def _resource_axis(run: RunData, top: int) -> dict[str, Any]:
    """Resource ids, labelled with host names when they are known and few enough to read."""
    axis: dict[str, Any] = {"title": {"text": "resource id"}, "range": [-0.5, top - 0.5]}
    if top <= 32:
        axis["tickvals"] = list(range(top))
        if run.names:
            axis["ticktext"] = [f"{run.names.get(str(i), '')} ({i})" for i in range(top)]
            axis["title"] = {"text": "host (resource id)", "standoff": 6}
    return axis


def gantt_figure(run: RunData, time_range: tuple[float, float]) -> dict[str, Any]:
    """One horizontal bar per contiguous interval of a job's resources (one per job when
    its resources are contiguous), coloured by job."""
    bars = run.bars
    trace = {
        "type": "bar",
        "orientation": "h",
        "base": bars["start"],
        "x": bars["duration"],
        "y": [(low + high) / 2 for low, high in zip(bars["low"], bars["high"], strict=True)],
        "width": [high - low + 1 for low, high in zip(bars["low"], bars["high"], strict=True)],
        "marker": {
            "color": [job_colour(j) for j in bars["job"]],
            "line": {"color": "#222", "width": 0.6},
        },
        "hovertext": [_hover(run, j) for j in bars["job"]],
        "hovertemplate": "%{hovertext}<extra></extra>",
        "customdata": [run.jobs["id"][j] for j in bars["job"]],
        "name": "jobs",
    }
    labels = {
        "type": "scatter",
        "mode": "text",
        "x": [s + d / 2 for s, d in zip(bars["start"], bars["duration"], strict=True)],
        "y": trace["y"],
        "text": [run.jobs["id"][j] for j in bars["job"]] if len(bars["job"]) <= 200 else [],
        "textfont": {"size": 10, "color": "#fff"},
        "hoverinfo": "skip",
        "showlegend": False,
    }
    states = run.machine_states
    machines = sum(int(values[0]) for column, values in states.items() if column != "time" and values)
    top = max(max(bars["high"], default=0) + 1, machines)  # every compute machine, used or not
    return {
        "data": [trace, labels],
        "layout": {
            "title": {
                "text": f"Gantt chart — {html.escape(run.label)}",
                "font": {"size": 14},
                "x": 0.01,
                "xanchor": "left",
            },
            "xaxis": {"title": {"text": "time (s)"}, "range": list(time_range)},
            "yaxis": _resource_axis(run, top),
            "showlegend": False,
            "bargap": 0,
            "margin": {"l": 120 if run.names and top <= 32 else 60, "r": 20, "t": 40, "b": 45},
            "height": min(480, 220 + 14 * top),
        },
    }


def _step_traces(runs: Sequence[RunData], series: list[tuple[str, list[float], list[float]]]) -> list[dict]:
    return [
        {
            "type": "scatter",
            "mode": "lines",
            "line": {"shape": "hv", "color": RUN_COLOURS[i % len(RUN_COLOURS)]},
            "name": name,
            "x": t,
            "y": y,
        }
        for i, (name, t, y) in enumerate(series)
    ]


def _layout(title: str, x: str, y: str, height: int = 320, **extra: Any) -> dict[str, Any]:
    layout = {
        "title": {"text": title, "font": {"size": 14}, "x": 0.01, "xanchor": "left"},
        "xaxis": {"title": {"text": x}},
        "yaxis": {"title": {"text": y}},
        "margin": {"l": 60, "r": 20, "t": 40, "b": 45},
        "height": height,
        "legend": {"orientation": "h", "y": -0.25},
    }
    layout.update(extra)
    return layout


def utilisation_figure(runs: Sequence[RunData]) -> dict[str, Any]:
    series = [
        (run.label, run.machine_states.get("time", []), run.machine_states.get("nb_computing", [])) for run in runs
    ]
    return {
        "data": _step_traces(runs, series),
        "layout": _layout("Computing machines over time (out_machine_states.csv)", "time (s)", "machines computing"),
    }


def queue_figure(runs: Sequence[RunData]) -> dict[str, Any]:
    series = [
        (run.label, [*run.queue["t"], float(run.summary["makespan"] or 0.0)], [*run.queue["n"], run.queue["n"][-1]])
        for run in runs
    ]
    return {
        "data": _step_traces(runs, series),
        "layout": _layout("Queue length over time (jobs submitted, not started)", "time (s)", "jobs waiting"),
    }


def waiting_figure(runs: Sequence[RunData]) -> dict[str, Any]:
    """The empirical distribution of waiting times (fraction of jobs that waited ≤ w)."""
    series = []
    for run in runs:
        waits = sorted(w for w, s in zip(run.jobs["wait"], run.jobs["start"], strict=True) if s >= 0)
        n = len(waits)
        series.append((run.label, waits, [(i + 1) / n for i in range(n)]))
    data = _step_traces(runs, series)
    for trace in data:
        trace["mode"] = "lines+markers"
    return {
        "data": data,
        "layout": _layout(
            "Waiting-time distribution (ECDF)",
            "waiting time (s)",
            "fraction of jobs ≤ w",
            xaxis={"title": {"text": "waiting time (s)"}, "rangemode": "tozero"},
            yaxis={"title": {"text": "fraction of jobs ≤ w"}, "range": [0, 1.05]},
        ),
    }


def tier_figure(run: RunData) -> dict[str, Any]:
    """Stacked bars: each job's bytes per tier (``out_io.csv``)."""
    assert run.storage is not None
    table = run.storage["table"]
    palette = ("#8fb3de", "#1f5fa8", "#d0641c", "#6d6d6d", "#2a8a3e", "#a3278f", "#c9a227")
    data = [
        {
            "type": "bar",
            "name": tier,
            "x": [f"job {j}" for j in table["job"]],
            "y": [b / 1e9 for b in table[f"{tier}_bytes"]],
            "marker": {"color": palette[k % len(palette)]},
            "hovertemplate": f"%{{x}}: %{{y:.4g}} GB {tier}<extra></extra>",
        }
        for k, tier in enumerate(run.storage["tiers"])
        if any(table[f"{tier}_bytes"])
    ]
    return {
        "data": data,
        "layout": _layout(f"Bytes per tier per job — {html.escape(run.label)}", "job", "GB", barmode="stack"),
    }


def device_load_figure(run: RunData) -> dict[str, Any]:
    assert run.storage is not None
    load = run.storage["device_load"]
    data = [
        {
            "type": "scatter",
            "mode": "lines",
            "line": {"shape": "hv", "color": job_colour(k)},
            "name": f"{run.names[device]} ({device})" if device in run.names else f"device {device}",
            "x": series["t"],
            "y": [r / 1e9 for r in series["rate"]],
        }
        for k, (device, series) in enumerate(load.items())
    ]
    return {
        "data": data,
        "layout": _layout(
            f"Per-device load (estimated) — {html.escape(run.label)}",
            "time (s)",
            "GB/s",
        ),
    }


def link_load_figure(run: RunData) -> dict[str, Any]:
    """The busiest links' measured load: bytes per window of ``out_links.csv`` over the
    window's length (the engine integrates SimGrid's link usage; sim/src/export/links_csv.hpp)."""
    assert run.links is not None
    data = [
        {
            "type": "scatter",
            "mode": "lines",
            "line": {"shape": "hv", "color": job_colour(k)},
            "name": link,
            "x": series["t"],
            "y": [r / 1e9 for r in series["rate"]],
        }
        for k, (link, series) in enumerate(run.links["series"].items())
    ]
    return {
        "data": data,
        "layout": _layout(
            f"Per-link load (measured, busiest {len(data)}) — {html.escape(run.label)}",
            "time (s)",
            "GB/s",
            legend={"font": {"size": 10}},  # link names are long: a column on the right
        ),
    }


def nvm_figure(run: RunData) -> dict[str, Any]:
    assert run.nvm is not None
    data = [
        {
            "type": "scatter",
            "mode": "lines",
            "line": {"shape": "hv", "color": job_colour(k)},
            "name": f"{nvm} ({series['host']})",
            "x": series["t"],
            "y": [u / 1e9 for u in series["used"]],
        }
        for k, (nvm, series) in enumerate(sorted(run.nvm["series"].items()))
    ]
    return {
        "data": data,
        "layout": _layout(f"NVM occupancy (out_nvm.csv) — {html.escape(run.label)}", "time (s)", "GB used"),
    }


def energy_figures(runs: Sequence[RunData]) -> list[dict[str, Any]]:
    with_energy = [run for run in runs if run.energy]
    if not with_energy:
        return []
    energy = _step_traces(with_energy, [(r.label, r.energy["t"], r.energy["energy"]) for r in with_energy])  # type: ignore[index]
    for trace in energy:
        trace["line"]["shape"] = "linear"
    power = _step_traces(with_energy, [(r.label, r.energy["power_t"], r.energy["power"]) for r in with_energy])  # type: ignore[index]
    return [
        {"data": energy, "layout": _layout("Energy consumed (out_consumed_energy.csv)", "time (s)", "J")},
        {"data": power, "layout": _layout("Power (energy increments over time)", "time (s)", "W")},
    ]


def summary_table(runs: Sequence[RunData]) -> str:
    """Rows: the figures; columns: the runs. Each cell carries ``data-key``/``data-run``
    so that a test can find it and compare it with the CSVs."""
    head = "".join(f"<th>{html.escape(run.label)}</th>" for run in runs)
    rows = []
    for key, label, unit in SUMMARY_ROWS:
        cells = "".join(
            f'<td class="num" data-key="{key}" data-run="{i}">'
            f"{html.escape(format_number(run.summary.get(key), unit))}</td>"
            for i, run in enumerate(runs)
        )
        rows.append(f"<tr><th>{html.escape(label)}</th>{cells}</tr>")
    return f'<table id="summary"><tr><th></th>{head}</tr>{"".join(rows)}</table>'


def storage_table(run: RunData, index: int) -> str:
    """Where each job's data lived: assignment, access, devices and GB per tier."""
    assert run.storage is not None
    table = run.storage["table"]
    tiers = [t for t in run.storage["tiers"] if any(table[f"{t}_bytes"])]
    head = "".join(f"<th>{t} GB</th>" for t in tiers)
    rows = []
    for r, job in enumerate(table["job"]):
        cells = "".join(f'<td class="num">{table[f"{t}_bytes"][r] / 1e9:.3f}</td>' for t in tiers)
        rows.append(
            f"<tr><td>{html.escape(job)}</td><td>{html.escape(table['allocation'][r])}</td>"
            f"<td>{html.escape(table['access'][r])}</td><td>{html.escape(table['devices'][r] or '—')}</td>"
            f"<td>{html.escape(_named(run, table['devices'][r], limit=64).strip(' ()') or '—')}</td>{cells}</tr>"
        )
    return (
        f'<table class="storage" data-run="{index}"><tr><th>job</th><th>storage</th><th>access</th>'
        f"<th>devices (resource ids)</th><th>device hosts</th>{head}</tr>{''.join(rows)}</table>"
    )


def links_table(run: RunData, index: int) -> str:
    """The busiest links over the run, as ``datasched links`` lists them
    (:func:`datasched.analysis.link_load.summarise`)."""
    assert run.links is not None
    rows = "".join(
        f"<tr><td>{html.escape(r['link'])}</td><td class=\"num\">{r['bytes'] / 1e9:.3f}</td>"
        f"<td class=\"num\">{r['busy_seconds']:.3f}</td><td class=\"num\">{100 * r['mean_utilisation']:.2f}</td>"
        f"<td class=\"num\">{100 * r['peak_utilisation']:.2f}</td>"
        f"<td class=\"num\">{r['peak_window_start']:g}</td></tr>"
        for r in run.links["table"]
    )
    return (
        f'<table class="links" data-run="{index}"><tr><th>link</th><th>GB</th><th>busy s</th>'
        f"<th>mean utilisation %</th><th>peak utilisation %</th><th>peak window at s</th></tr>{rows}</table>"
    )


def forwarding_tables(run: RunData) -> str:
    parts = []
    for name, rows in run.forwarding.items():
        if not rows:
            continue
        columns = list(rows[0])
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(r[c])}</td>" for c in columns) + "</tr>" for r in rows)
        parts.append(f"<h3>out_{name}.csv</h3><table>{head and f'<tr>{head}</tr>'}{body}</table>")
    return "".join(parts)


def plotly_js() -> str:
    """plotly.js as the plotly wheel ships it (the page inlines one copy)."""
    return resources.files("plotly").joinpath("package_data/plotly.min.js").read_text(encoding="utf-8")


STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:18px 26px;color:#1d1d1d;background:#fafafa}
h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:26px 0 6px;border-bottom:1px solid #ccc}
h3{font-size:15px;margin:14px 0 4px}
table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0}
th,td{border:1px solid #d5d5d5;padding:3px 8px;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#fff;border:1px solid #d5d5d5;padding:6px 8px;white-space:pre-wrap;word-break:break-all;font-size:12px}
.fig{background:#fff;border:1px solid #e0e0e0;margin:6px 0}
.runs{display:grid;gap:12px}.note{color:#555;font-size:13px;margin:2px 0 6px}
#explorer-errors{color:#b00020}#explorer-errors:empty{display:none}
"""

#: Runs before plotly.js: records every uncaught error, plotly's own included.
EARLY_SCRIPT = (
    "window.explorerErrors=[];"
    "window.addEventListener('error',function(e){window.explorerErrors.push(String(e.message));});"
)

#: The page's own script: draws every figure, then records what was drawn in the DOM.
SCRIPT = """
(function(){
  var errors=window.explorerErrors;
  var figures=JSON.parse(document.getElementById('explorer-figures').textContent);
  var drawn=[];
  Object.keys(figures).sort().forEach(function(id){
    var spec=figures[id], div=document.getElementById(id);
    try{drawn.push(Plotly.newPlot(div,spec.data,spec.layout,{displaylogo:false,responsive:true}));}
    catch(e){errors.push(id+': '+e.message);}
  });
  Promise.all(drawn).then(function(){
    document.querySelectorAll('.gantt').forEach(function(div){
      div.setAttribute('data-bars',String(div.querySelectorAll('.barlayer .point').length));
      div.setAttribute('data-bar-jobs',String(new Set(div.data[0].customdata).size));
    });
  }).catch(function(e){errors.push(String(e));}).then(function(){
    document.body.setAttribute('data-js-errors',String(errors.length));
    document.getElementById('explorer-errors').textContent=errors.join('\\n');
    document.body.setAttribute('data-rendered','1');
  });
})();
"""


def render_page(runs: Sequence[RunData], title: str | None = None) -> str:
    """The whole page for one run or several side by side (same figures, one column each;
    overlaid where the runs share axes: utilisation, queue, waiting, energy)."""
    figures: dict[str, dict[str, Any]] = {}
    end = max((max(run.jobs["finish"], default=0.0) for run in runs), default=0.0)
    time_range = (0.0, end * 1.02 if end > 0 else 1.0)
    columns = f"grid-template-columns:repeat({len(runs)},minmax(0,1fr))"
    title = title or (
        "datasched run: " + runs[0].label if len(runs) == 1 else "datasched runs: " + " vs ".join(r.label for r in runs)
    )
    body = [
        f"<h1>{html.escape(title)}</h1>",
        '<pre id="explorer-errors"></pre>',
        "<h2>Summary</h2>",
        summary_table(runs),
    ]
    body.append("<h2>Commands</h2>")
    for run in runs:
        command = run.command or "(not recorded: the run's folder has no out_run.json)"
        if run.command_cwd:
            command = f"{command}\n(run in {run.command_cwd})"
        body.append(
            f"<h3>{html.escape(run.label)} — {html.escape(run.folder)}</h3>"
            f'<pre class="command">{html.escape(command)}</pre>'
        )
    body.append("<h2>Jobs on resources</h2>")
    body.append(
        '<p class="note">One bar per job and contiguous range of resources, coloured by job; '
        "hover for its dates, waiting time and bytes per tier.</p>"
    )
    for i, run in enumerate(runs):
        figures[f"fig-gantt-{i}"] = gantt_figure(run, time_range)
        body.append(
            f'<div id="fig-gantt-{i}" class="fig gantt" data-run="{i}" data-jobs="{len(run.jobs["id"])}"></div>'
        )
    body.append("<h2>Utilisation, queue and waiting</h2>")
    figures["fig-util"] = utilisation_figure(runs)
    body.append('<div id="fig-util" class="fig"></div>')
    body.append('<div class="runs" style="grid-template-columns:1fr 1fr">')
    for name, figure in (("queue", queue_figure(runs)), ("wait", waiting_figure(runs))):
        figures[f"fig-{name}"] = figure
        body.append(f'<div id="fig-{name}" class="fig"></div>')
    body.append("</div>")
    if any(run.storage for run in runs):
        body.append("<h2>Storage</h2>")
        body.append(
            '<p class="note">Bytes per tier and devices from out_io.csv '
            "(devices are the resource ids of NVM endpoints or I/O servers). "
            + (
                "The link load below is measured: out_links.csv holds the bytes each link carried per window, "
                "integrated by the engine from SimGrid's link usage (engine option --link-load-window).</p>"
                if all(run.links for run in runs if run.storage)
                else "Without out_links.csv (run with --engine-arg=--link-load-window=SECONDS to get it), the "
                "device load below is estimated: it spreads each job's device bytes (local and remote NVM, SAN, "
                "staging) evenly over its devices and its run.</p>"
            )
        )
        body.append(f'<div class="runs" style="{columns}">')
        for i, run in enumerate(runs):
            body.append("<div>")
            if run.storage:
                # one run: its storage figures two by two; several: one column per run
                pairs = "grid-template-columns:1fr 1fr" if len(runs) == 1 else "grid-template-columns:1fr"
                body.append(f'<div class="runs" style="{pairs}">')
                load = link_load_figure(run) if run.links else device_load_figure(run)
                for name, figure in (("tiers", tier_figure(run)), ("load", load)):
                    figures[f"fig-{name}-{i}"] = figure
                    body.append(f'<div id="fig-{name}-{i}" class="fig"></div>')
                if run.nvm:
                    figures[f"fig-nvm-{i}"] = nvm_figure(run)
                    body.append(f'<div id="fig-nvm-{i}" class="fig"></div>')
                body.append("</div>")
                if run.links:
                    body.append(f"<h3>Busiest links — {html.escape(run.label)}</h3>{links_table(run, i)}")
                body.append(f"<h3>Where each job's data lived — {html.escape(run.label)}</h3>{storage_table(run, i)}")
            else:
                body.append(
                    f'<p class="note">{html.escape(run.label)}: no out_io.csv (no storage model in this run)</p>'
                )
            body.append(forwarding_tables(run))
            body.append("</div>")
        body.append("</div>")
    energy = energy_figures(runs)
    if energy:
        body.append("<h2>Energy</h2>")
        for k, figure in enumerate(energy):
            figures[f"fig-energy-{k}"] = figure
            body.append(f'<div id="fig-energy-{k}" class="fig"></div>')
    data = json.dumps(figures, sort_keys=True, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
        f"<script>{EARLY_SCRIPT}</script><script>{plotly_js()}</script></head><body>\n"
        + "\n".join(body)
        + f'\n<script type="application/json" id="explorer-figures">{data}</script>'
        + f"\n<script>{SCRIPT}</script>\n</body></html>\n"
    )


def write_page(runs: Sequence[RunData], path: str | Path, title: str | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(render_page(runs, title), encoding="utf-8")
    tmp.replace(path)
    return path
