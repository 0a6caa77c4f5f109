"""Rewrite a report and its figure from the plotted numbers committed beside them, without
rerunning anything.

The full variants take CPU hours, so when only the judging changes (new verdict rules), their
reports are rewritten from their committed ``*_plotted.csv`` (the same rows the pipeline's
artifact step writes) and the variant's config. The quick variants are not rewritten here: ``make
reproduce`` regenerates them from the simulations, byte for byte.

Numbers read back from the CSVs carry the precision they were written with (6 to 9 significant
digits), so a rewritten report may differ from a pipeline run in a last printed digit. The
report's ``report.html`` sibling is rewritten with it (:mod:`datasched.analysis.report_html`).

    python -m datasched.analysis.rereport --variant full seed000_fig6 seed002_twins seed003_qos
    python -m datasched.analysis.rereport --variant full seed000_fig10   # from the summaries committed so far
    python -m datasched.analysis.rereport --variant full seed001_wfcommons   # its figure only
    python -m datasched.analysis.rereport --variant full placement_gap
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from datasched.analysis.experiment_config import REPO_ROOT, load_config_file


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def seed000_fig6(exp: Any, variant: str) -> Path:
    from datasched.analysis.seed000.fig6 import figure as fig6_figure
    from datasched.analysis.seed000.fig6 import report as fig6_report
    from datasched.analysis.seed000.fig6 import spec as fig6_spec

    folder = Path(exp.seed000_fig6_dir)
    rows = [
        {
            "storage": r["storage"],
            "mem_hit_pct": float(r["mem_hit_pct"]),
            "remote_pct": float(r["remote_pct"]),
            "access": r["access"],
            "runtime_s": float(r["runtime_s"]),
            "routing": r.get("routing") or "minimal",  # CSVs written before the column: minimal routing
        }
        for r in _csv(folder / "seed000_fig6_plotted.csv")
    ]
    fig6_figure.plot(rows, folder / "seed000_fig6.png", f"Seed 000 Fig. 6 on datasched ({variant})")
    text = fig6_report.format_report(rows, fig6_spec.spec_description(exp.seed000_fig6, variant), "seed000_fig6.png")
    (folder / "report.md").write_text(text)
    return folder / "report.md"


def seed002_twins(exp: Any, variant: str) -> Path:
    import dataclasses

    from datasched.analysis.seed002 import figure, figure_ifer, figure_sizes, scheduling
    from datasched.analysis.seed002.report import format_report
    from datasched.analysis.seed002.spec import set_name
    from datasched.analysis.seed002.units import build

    folder = Path(exp.seed002_twins_dir)
    if "seed002_twins" in exp.accumulate:  # from the committed summaries (the complete parameter sets)
        stem = folder / "seed002_twins"
        outputs = (
            stem.with_suffix(".png"),
            folder / "seed002_twins_ifer.png",
            folder / "seed002_twins_sizes.png",
            folder / "seed002_twins_plotted.csv",
            folder / "seed002_twins_scheduling.csv",
            folder / "report.md",
        )
        build(exp.seed002_twins, outputs, variant, accumulate=True, sims=Path(exp.results_dir) / "seed002_twins")
        return folder / "report.md"
    text_columns = {"kind", "pattern", "operation", "configuration", "server_cache"}
    int_columns = {"request_size", "runs"}
    rows = [
        {k: v if k in text_columns else int(v) if k in int_columns else float(v) for k, v in r.items()}
        for r in _csv(folder / "seed002_twins_plotted.csv")
    ]
    for r in rows:  # CSVs written before the seek and cache sweeps: the count-only curve, no cache
        r.setdefault("hdd_seek_scale", 0.0)
        r["server_cache"] = r.get("server_cache") or "none"
    # the report covers the seek scales and caches the committed rows have (the full sweep may not
    # be run yet)
    seeks = {float(r["hdd_seek_scale"]) for r in rows}
    caches = {r["server_cache"] for r in rows}
    full = exp.seed002_twins
    spec = dataclasses.replace(
        full,
        hdd_seek_scale=tuple(s for s in full.hdd_seek_scale if s in seeks),
        server_caches=tuple(c for c in full.server_caches if c.name in caches),
    )
    runs = scheduling.read_rows([folder / "seed002_twins_scheduling.csv"])
    section = scheduling.report_section(spec.scheduling, runs)
    figure.plot(rows, folder / "seed002_twins.png", f"Seed 002 (TWINS) on datasched ({variant})")
    figure_ifer.plot_ifer(
        rows, folder / "seed002_twins_ifer.png", f"Seed 002 IFER (2 × 64 processes) on datasched ({variant})"
    )
    figure_sizes.plot_sizes(
        rows, folder / "seed002_twins_sizes.png", f"Seed 002 request sizes on datasched ({variant})"
    )
    text = format_report(rows, spec, variant, "seed002_twins.png", scheduling=section)
    if spec != full:
        title, rest = text.split("\n", 1)
        not_run = [set_name(*p) for p in full.parameter_sets() if p not in spec.parameter_sets()]
        text = (
            f"{title}\n\n**Not simulated yet at this scale**: {'; '.join(not_run)} (config/{variant}.yaml). "
            "This report is rebuilt from the committed numbers (analysis/rereport.py); the verdicts below "
            "are over the parameter sets those numbers cover.\n" + rest
        )
    (folder / "report.md").write_text(text)
    return folder / "report.md"


def seed003_qos(exp: Any, variant: str) -> Path:
    """The committed full rows of the 1 MiB granularity ran at 1048580 B (the ``{g:g}`` path bug
    named the case 1.04858e+06); the report is written for the granularities the rows have, so
    it says what was simulated, until those cases are run again."""
    import dataclasses

    from datasched.analysis.seed003 import figure, report, table

    folder = Path(exp.seed003_qos_dir)
    rows = table.read_rows([folder / "seed003_qos_plotted.csv"])
    spec = exp.seed003_qos
    ran = {r["granularity"] for r in rows}
    granularity = tuple(_nearest(ran, want) for want in spec.granularity)
    spec = dataclasses.replace(spec, granularity=granularity)
    figure.plot(rows, spec, folder / "seed003_qos.png", f"Seed 003 (QoS-aware data staging) on datasched ({variant})")
    text = report.format_report(rows, spec, variant, "seed003_qos.png")
    (folder / "report.md").write_text(text)
    return folder / "report.md"


def seed000_fig7(exp: Any, variant: str) -> Path:
    """From the committed run summaries when the variant accumulates (the complete STG-k), else
    from the committed plotted numbers (the report's breakdown needs the simulations then)."""
    from datasched.analysis.seed000.fig7 import figure as fig7_figure
    from datasched.analysis.seed000.fig7 import report as fig7_report
    from datasched.analysis.seed000.fig7 import table as fig7_table

    folder = Path(exp.seed000_fig7_dir)
    if "seed000_fig7" in exp.accumulate:
        sims = Path(exp.results_dir) / "seed000_fig7" / "sims"
        fig7_report.build(exp.seed000_fig7, folder, variant, accumulate=True, sims=sims)
        return folder / "report.md"
    rows = fig7_table.read_table(folder / "seed000_fig7_plotted.csv")
    fig7_figure.plot(rows, folder / "seed000_fig7.png", f"Seed 000 Fig. 7 on datasched ({variant})")
    (folder / "report.md").write_text(fig7_report.format_report(rows, exp.seed000_fig7, variant, "seed000_fig7.png"))
    return folder / "report.md"


def seed000_fig10(exp: Any, variant: str) -> Path:
    """From the committed run summaries in ``runs/`` when the variant accumulates (the complete
    seeds; the report counts them); otherwise from the simulations under ``results/``."""
    from datasched.analysis.seed000.fig10 import report as fig10_report

    folder = Path(exp.seed000_fig10_dir)
    sims = Path(exp.results_dir) / "seed000_fig10" / "sims"
    fig10_report.build(exp.seed000_fig10, folder, variant, accumulate="seed000_fig10" in exp.accumulate, sims=sims)
    return folder / "report.md"


def seed000_abstract(exp: Any, variant: str) -> Path:
    from datasched.analysis.seed000 import abstract

    source = Path(exp.seed000_fig6_dir) / "seed000_fig6_plotted.csv"
    out = Path(exp.seed000_abstract_dir) / "report.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(abstract.format_report(abstract.read_fig6(source), variant, f"{source.parent.name}/{source.name}"))
    return out


def seed001_wfcommons(exp: Any, variant: str) -> Path:
    """The figure only: the report lists every run (``runs.json`` in the results folder), which
    the plotted numbers (means and ranges per group) do not hold."""
    from datasched.analysis.seed001_wfcommons import figure

    folder = Path(exp.seed001_wfcommons_dir)
    text = {"app", "platform", "variant", "style"}
    summary = [
        {k: v if k in text else int(v) if k == "instances" else float(v) for k, v in r.items()}
        for r in _csv(folder / "seed001_wfcommons_plotted.csv")
    ]
    title = f"Seed 001 on WfCommons shapes: data-aware vs data-unaware ({variant})"
    figure.plot(summary, folder / "seed001_wfcommons.png", title)
    return folder / "seed001_wfcommons.png"


def placement_gap(exp: Any, variant: str) -> Path:
    """From its plotted rows, which are every (platform, moment, method) row the report sums."""
    from datasched.analysis.placement_gap import figure
    from datasched.analysis.placement_gap.report import format_report

    folder = Path(exp.placement_gap_dir)
    ints, text = {"scenario"}, {"platform", "method"}
    rows = [
        {k: v if k in text else int(v) if k in ints else float(v) for k, v in r.items()}
        for r in _csv(folder / "placement_gap_plotted.csv")
    ]
    figure.plot(rows, folder / "placement_gap.png", f"Allocators against the data-access optimum ({variant})")
    (folder / "report.md").write_text(format_report(rows, exp.placement_gap, variant, "placement_gap.png"))
    return folder / "report.md"


def _nearest(values: set[float], want: float) -> float:
    return min(values, key=lambda g: abs(g - want))


ARTIFACTS: dict[str, Callable[[Any, str], Path]] = {
    "seed000_fig6": seed000_fig6,
    "seed002_twins": seed002_twins,
    "seed003_qos": seed003_qos,
    "seed000_fig7": seed000_fig7,
    "seed000_fig10": seed000_fig10,
    "seed000_abstract": seed000_abstract,
    "seed001_wfcommons": seed001_wfcommons,
    "placement_gap": placement_gap,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="full", choices=("quick", "full"))
    parser.add_argument("artifacts", nargs="*", default=list(ARTIFACTS), help=f"any of {', '.join(ARTIFACTS)}")
    args = parser.parse_args(argv)
    exp = load_config_file(REPO_ROOT / "config" / f"{args.variant}.yaml")
    from datasched.analysis import report_html

    for name in args.artifacts:
        written = ARTIFACTS[name](exp, args.variant)
        print(written)
        if (written.parent / "report.md").is_file():  # its report.html follows (analysis/report_html.py)
            print(report_html.write(written.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
