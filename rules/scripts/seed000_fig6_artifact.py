"""Snakemake script: seed-000 Figure 6's figure, plotted numbers and report."""

import csv
from pathlib import Path

from datasched.analysis.seed000 import routing as fig6_routing
from datasched.analysis.seed000.fig6 import figure as fig6_figure
from datasched.analysis.seed000.fig6 import report as fig6_report
from datasched.analysis.seed000.fig6 import spec as fig6_spec
from datasched.analysis.seed000.fig6 import table as fig6_table

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
results = {}
for run in spec.runs():
    with open(Path(sm.params.sims) / run.path / "out_jobs.csv", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    if row["final_state"] != "COMPLETED_SUCCESSFULLY":
        raise RuntimeError(f"seed000 fig6 {run.path}: the application ended {row['final_state']}")
    results[run] = float(row["execution_time"])
rows = fig6_table.table_rows(results, fig6_routing.platform_routing(spec.platform))
fig6_table.write_table(rows, Path(sm.output.plotted))
fig6_figure.plot(rows, Path(sm.output.figure), f"Seed 000 Fig. 6 on datasched ({sm.params.variant})")
text = fig6_report.format_report(rows, fig6_spec.spec_description(spec, sm.params.variant), Path(sm.output.figure).name)
Path(sm.output.report).write_text(text)
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
