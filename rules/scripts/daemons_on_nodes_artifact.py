"""Snakemake script: the storage-daemons scheduling artifact's figure, plotted numbers and
report (from the simulations, or from the committed summaries when the variant accumulates)."""

from pathlib import Path

from datasched.analysis.daemons_on_nodes.report import STEPS
from datasched.analysis.seed000.multi_application_artifact import write_artifact

sm = snakemake  # noqa: F821 (injected by Snakemake)
count = write_artifact(
    STEPS,
    "daemons_on_nodes",
    sm.params.spec,
    variant=sm.params.variant,
    accumulate=bool(sm.params.accumulate),
    sims=Path(sm.params.sims),
    outputs=(Path(sm.output.figure), Path(sm.output.plotted), Path(sm.output.report)),
    title=f"Storage daemons on the compute nodes ({sm.params.variant})",
)
Path(sm.log[0]).write_text(f"{count} runs\n")
