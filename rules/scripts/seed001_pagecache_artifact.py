"""Snakemake script: seed 001's Tables 1-3 runs, figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis.seed001_pagecache import claims, figure, report, runs, table

sm = snakemake  # noqa: F821 (injected by Snakemake)
work = Path(sm.params.work)
work.mkdir(parents=True, exist_ok=True)
spec = sm.params.spec
rows = runs.run_all(spec, work / "sims")
_, best, _ = claims.verdict_rows(spec, rows)
table.write_table(spec, rows, best, Path(sm.output.plotted))
figure.plot(
    spec, rows, best, Path(sm.output.figure), f"Seed 001 Tables 1-3: producer-consumer I/O ({sm.params.variant})"
)
Path(sm.output.report).write_text(report.format_report(spec, rows, sm.params.variant, Path(sm.output.figure).name))
claims.write_values(spec, rows, work / "values.json")
Path(sm.log[0]).write_text(f"{len(rows)} runs\n")
