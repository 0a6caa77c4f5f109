"""Snakemake script: report.html beside each report.md of the variant (analysis/report_html.py)."""

from pathlib import Path

from datasched.analysis.report_html import write

sm = snakemake  # noqa: F821 (injected by Snakemake)
pages = [write(Path(page).parent, Path(sm.input.plotly)) for page in sm.output]
Path(sm.log[0]).write_text("".join(f"{page}\n" for page in pages))
