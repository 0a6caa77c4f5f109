"""Snakemake script: seed 003's figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis import seed003_qos as qos

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
rows = qos.read_rows([Path(p) for p in sm.input.runs])
qos.write_plotted(rows, Path(sm.output.plotted))
qos.plot(rows, spec, Path(sm.output.figure), f"Seed 003 (QoS-aware data staging) on datasched ({sm.params.variant})")
Path(sm.output.report).write_text(qos.format_report(rows, spec, sm.params.variant, Path(sm.output.figure).name))
Path(sm.log[0]).write_text(f"{len(rows)} rows\n")
