"""Snakemake script: seed-000 Figure 8's figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis import seed000_fig8 as fig8
from datasched.analysis.seed000_common import run_means

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
results = {run: run_means(Path(sm.params.sims) / run.path / "out_jobs.csv") for run in spec.runs()}
rows = fig8.table_rows(spec, results)
fig8.write_table(rows, Path(sm.output.plotted))
fig8.plot(rows, Path(sm.output.figure), f"Seed 000 Fig. 8 on datasched ({sm.params.variant})")
text = fig8.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name)
Path(sm.output.report).write_text(text)
Path(sm.log[0]).write_text(f"{len(results)} runs\n")
