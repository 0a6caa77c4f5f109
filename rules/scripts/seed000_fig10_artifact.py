"""Snakemake script: seed-000 Figure 10's figure, plotted numbers and report."""

from pathlib import Path

from datasched.analysis.seed000.fig10 import report as fig10_report

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
text = fig10_report.build(spec, Path(sm.output.report).parent, sm.params.variant)
Path(sm.log[0]).write_text(text)
