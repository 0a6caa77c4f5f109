"""Snakemake script: seed-000 Figure 9's figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis import seed000_fig9 as fig9
from datasched.analysis.seed000_common import run_means

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
results = {run: run_means(Path(sm.params.sims) / run.path / "out_jobs.csv") for run in spec.runs()}
rows = fig9.table_rows(spec, results)
fig9.write_table(rows, Path(sm.output.plotted))
fig9.plot(rows, Path(sm.output.figure), f"Seed 000 Fig. 9 on datasched ({sm.params.variant})")
Path(sm.output.report).write_text(fig9.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name))
Path(sm.log[0]).write_text(f"{len(results)} runs\n")
