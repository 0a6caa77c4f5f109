"""Snakemake script: seed-000 Figure 9's figure, plotted numbers and report (from the
simulations, or from the committed summaries when the variant accumulates)."""

from pathlib import Path

from datasched.analysis import seed000_fig9 as fig9
from datasched.analysis.accumulate import load_artifact, with_progress, write_pending
from datasched.analysis.seed000_common import run_means

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
title = f"Seed 000 Fig. 9 on datasched ({sm.params.variant})"
progress = None
if sm.params.accumulate:
    loaded, progress = load_artifact("seed000_fig9", spec, Path(sm.output.report).parent)
    spec = loaded.spec
    results = {fig9.Fig9Run.from_path(u): (m["mean_total_s"], m["mean_wait_s"]) for u, m in loaded.metrics.items()}
else:
    results = {run: run_means(Path(sm.params.sims) / run.path / "out_jobs.csv") for run in spec.runs()}
if spec is None:
    outputs = Path(sm.output.figure), Path(sm.output.plotted), Path(sm.output.report)
    write_pending(*outputs, title, fig9.COLUMNS, progress)
else:
    rows = fig9.table_rows(spec, results)
    fig9.write_table(rows, Path(sm.output.plotted))
    fig9.plot(rows, Path(sm.output.figure), title)
    text = fig9.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name)
    Path(sm.output.report).write_text(with_progress(text, progress) if progress else text)
Path(sm.log[0]).write_text(f"{len(results)} runs\n")
