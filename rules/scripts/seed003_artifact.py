"""Snakemake script: seed 003's figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis.seed003 import figure, report, table

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
rows = table.read_rows([Path(p) for p in sm.input.runs])
table.write_plotted(rows, Path(sm.output.plotted))
figure.plot(rows, spec, Path(sm.output.figure), f"Seed 003 (QoS-aware data staging) on datasched ({sm.params.variant})")
Path(sm.output.report).write_text(report.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name))
Path(sm.log[0]).write_text(f"{len(rows)} rows\n")
