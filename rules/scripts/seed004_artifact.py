"""Snakemake script: seed 004's figure, plotted numbers and report (from the cases' run
files, or from the committed summaries when the variant accumulates)."""

from pathlib import Path

from datasched.analysis.accumulate import load_artifact, with_progress, write_pending
from datasched.analysis.seed004 import figure, paper_figures, report, table

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
title = f"Seed 004 (storage daemons next to HPL) on datasched ({sm.params.variant})"
progress = None
if sm.params.accumulate:
    loaded, progress = load_artifact("seed004_interference", spec, Path(sm.output.report).parent)
    spec = loaded.spec
    count = len(loaded.metrics)
    runs = [row for m in loaded.metrics.values() for row in m["rows"]]
else:
    cases = {case: Path(sm.params.cases) / case.path / "runs.csv" for case in spec.cases()}
    count = len(cases)
    runs = table.read_runs(cases)
rows = table.summarise_rows(runs)
if spec is None:
    columns = table.SUMMARY_COLUMNS
    write_pending(Path(sm.output.figure), Path(sm.output.plotted), Path(sm.output.report), title, columns, progress)
    for extra in (sm.output.fig5, sm.output.fig6):  # the paper-form figures wait for the same blocks
        write_pending(Path(extra), Path(sm.output.plotted), Path(sm.output.report), title, columns, progress)
else:
    table.write_summary(rows, Path(sm.output.plotted))
    figure.plot(rows, spec, Path(sm.output.figure), title)
    paper_figures.plot_fig5(rows, spec, Path(sm.output.fig5), f"Paper Fig. 5 form: {title}")
    paper_figures.plot_fig6(runs, spec, Path(sm.output.fig6), f"Paper Fig. 6 form: {title}")
    text = report.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name)
    Path(sm.output.report).write_text(with_progress(text, progress) if progress else text)
Path(sm.log[0]).write_text(f"{count} cases\n")
