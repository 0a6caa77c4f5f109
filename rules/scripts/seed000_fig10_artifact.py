"""Snakemake script: seed-000 Figure 10's figure, plotted numbers and report (from the
simulations, or from the committed summaries when the variant accumulates)."""

from pathlib import Path

from datasched.analysis.seed000.fig10 import report as fig10_report

sm = snakemake  # noqa: F821 (injected by Snakemake)
text = fig10_report.build(
    sm.params.spec,
    Path(sm.output.report).parent,
    sm.params.variant,
    accumulate=bool(sm.params.accumulate),
    sims=Path(sm.params.sims),
)
Path(sm.log[0]).write_text(text)
