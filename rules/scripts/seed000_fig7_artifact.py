"""Snakemake script: seed-000 Figure 7's figure, plotted numbers and report."""

import csv
from pathlib import Path

from datasched.analysis import seed000_fig7 as fig7

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
results = {}
for run in spec.runs():
    with open(Path(sm.params.sims) / run.path / "out_jobs.csv", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    if row["final_state"] != "COMPLETED_SUCCESSFULLY":
        raise RuntimeError(f"seed000 fig7 {run.path}: the application ended {row['final_state']}")
    results[run] = float(row["execution_time"])
rows = fig7.table_rows(results)
fig7.write_table(rows, Path(sm.output.plotted))
fig7.plot(rows, Path(sm.output.figure), f"Seed 000 Fig. 7 on datasched ({sm.params.variant})")
breakdown = fig7.read_breakdown(Path(sm.params.sims), fig7.breakdown_runs(spec))
report = fig7.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name, breakdown)
Path(sm.output.report).write_text(report)
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
