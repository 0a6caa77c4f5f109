"""Snakemake script: seed 002's figures, plotted numbers, scheduling-section numbers and report
(from the simulations, or from the committed summaries when the variant accumulates)."""

from pathlib import Path

from datasched.analysis.seed002.units import build

sm = snakemake  # noqa: F821 (injected by Snakemake)
out = sm.output
outputs = (out.figure, out.ifer, out.sizes, out.plotted, out.scheduling, out.report)
count = build(
    sm.params.spec,
    tuple(Path(p) for p in outputs),
    sm.params.variant,
    accumulate=bool(sm.params.accumulate),
    sims=Path(sm.params.sims),
)
Path(sm.log[0]).write_text(f"{count} units\n")
