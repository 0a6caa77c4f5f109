"""Snakemake script: the burst-buffers scheduling artifact's figure, plotted numbers and report
(from the simulations, or from the committed summaries when the variant accumulates)."""

from pathlib import Path

from datasched.analysis.burst_buffers.report import write_artifact

sm = snakemake  # noqa: F821 (injected by Snakemake)
count = write_artifact(
    sm.params.spec,
    variant=sm.params.variant,
    accumulate=bool(sm.params.accumulate),
    sims=Path(sm.params.sims),
    outputs=(Path(sm.output.figure), Path(sm.output.plotted), Path(sm.output.report)),
)
Path(sm.log[0]).write_text(f"{count} runs\n")
