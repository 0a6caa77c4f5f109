"""Snakemake script: seed 001 on WfCommons shapes: runs, figure, plotted numbers, report."""

from pathlib import Path

from datasched.analysis.runs_json import write_runs_json
from datasched.analysis.seed001_wfcommons import figure, report, runs, table

sm = snakemake  # noqa: F821 (injected by Snakemake)
work = Path(sm.params.work)
work.mkdir(parents=True, exist_ok=True)
rows = runs.run_all(sm.params.spec, work)
summary = table.summarise(rows)
table.write_table(summary, Path(sm.output.plotted))
figure.plot(
    summary, Path(sm.output.figure), f"Seed 001 on WfCommons shapes: data-aware vs data-unaware ({sm.params.variant})"
)
text = report.format_report(summary, rows, sm.params.spec, sm.params.variant, Path(sm.output.figure).name)
Path(sm.output.report).write_text(text)
write_runs_json(rows, work / "runs.json")
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
