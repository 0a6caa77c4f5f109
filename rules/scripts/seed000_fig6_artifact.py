"""Snakemake script: seed-000 Figure 6's figure, plotted numbers and report."""

import csv
from pathlib import Path

from datasched.analysis import seed000_fig6 as fig6

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
results = {}
for run in spec.runs():
    with open(Path(sm.params.sims) / run.path / "out_jobs.csv", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    if row["final_state"] != "COMPLETED_SUCCESSFULLY":
        raise RuntimeError(f"seed000 fig6 {run.path}: the application ended {row['final_state']}")
    results[run] = float(row["execution_time"])
rows = fig6.table_rows(results, fig6.platform_routing(spec.platform))
fig6.write_table(rows, Path(sm.output.plotted))
fig6.plot(rows, Path(sm.output.figure), f"Seed 000 Fig. 6 on datasched ({sm.params.variant})")
text = fig6.format_report(rows, fig6.spec_description(spec, sm.params.variant), Path(sm.output.figure).name)
Path(sm.output.report).write_text(text)
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
