"""Snakemake script: seed-000 Figure 7's figure, plotted numbers and report."""

import csv
from pathlib import Path

from datasched.analysis.seed000.fig7 import breakdown as fig7_breakdown
from datasched.analysis.seed000.fig7 import figure as fig7_figure
from datasched.analysis.seed000.fig7 import report as fig7_report
from datasched.analysis.seed000.fig7 import table as fig7_table

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
results = {}
for run in spec.runs():
    with open(Path(sm.params.sims) / run.path / "out_jobs.csv", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    if row["final_state"] != "COMPLETED_SUCCESSFULLY":
        raise RuntimeError(f"seed000 fig7 {run.path}: the application ended {row['final_state']}")
    results[run] = float(row["execution_time"])
rows = fig7_table.table_rows(results)
fig7_table.write_table(rows, Path(sm.output.plotted))
fig7_figure.plot(rows, Path(sm.output.figure), f"Seed 000 Fig. 7 on datasched ({sm.params.variant})")
breakdown = fig7_breakdown.read_breakdown(Path(sm.params.sims), fig7_breakdown.breakdown_runs(spec))
report = fig7_report.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name, breakdown)
Path(sm.output.report).write_text(report)
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
