"""Snakemake script: a seed-000 traffic-priority figure (``params.figure``: fig7 or fig10) — its
figure, plotted numbers and report, by the figure's own ``report.build``, from the simulations or,
when the variant accumulates, from the committed summaries."""

import importlib
from pathlib import Path

sm = snakemake  # noqa: F821 (injected by Snakemake)
report = importlib.import_module(f"datasched.analysis.seed000.{sm.params.figure}.report")
text = report.build(
    sm.params.spec,
    Path(sm.output.report).parent,
    sm.params.variant,
    accumulate=bool(sm.params.accumulate),
    sims=Path(sm.params.sims),
)
Path(sm.log[0]).write_text(text)
