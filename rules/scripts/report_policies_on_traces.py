"""Snakemake script: the Markdown report of the policies-on-traces artifact."""

from pathlib import Path

from datasched.analysis.experiment_config import load_config
from datasched.analysis.report import write_policies_on_traces_report

sm = snakemake  # noqa: F821 (injected by Snakemake)
exp = load_config(sm.config, source=sm.params.config_source)
write_policies_on_traces_report(
    exp, sm.params.config_source, sm.input.plotted, sm.input.runs, sm.input.workloads, sm.input.figure, sm.output[0]
)
Path(sm.log[0]).write_text(f"{sm.output[0]}\n")
