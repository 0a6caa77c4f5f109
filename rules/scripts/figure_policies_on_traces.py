"""Snakemake script: the policies-on-traces figure and the CSV of its plotted numbers."""

from pathlib import Path

import pandas as pd

from datasched.analysis.policies_on_traces import plot, plotted_numbers, write_csv

sm = snakemake  # noqa: F821 (injected by Snakemake)
summary = pd.read_csv(sm.input.summary, keep_default_na=False, na_values=[""])
plotted = plotted_numbers(summary, sm.params.traces, sm.params.policies, sm.params.allocations)
write_csv(plotted, sm.output.plotted)
plot(pd.read_csv(sm.output.plotted), sm.output.figure, title=sm.params.title)
Path(sm.log[0]).write_text(f"{len(plotted)} plotted values\n")
