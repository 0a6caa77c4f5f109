"""Snakemake script: plotly.min.js from the installed plotly wheel, for the report.html pages."""

from pathlib import Path

from datasched.analysis.report_html import write_plotly

sm = snakemake  # noqa: F821 (injected by Snakemake)
path = write_plotly(Path(sm.output[0]).parent)
Path(sm.log[0]).write_text(f"{path}\n")
