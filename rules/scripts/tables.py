"""Snakemake script: per-run metrics and their summary over seeds."""

from pathlib import Path

from datasched.analysis.policies_on_traces import run_table, summary_table, write_csv

sm = snakemake  # noqa: F821 (injected by Snakemake)
runs = run_table(sm.input.jobs, sm.params.nodes, sm.params.torus_dims)
write_csv(runs, sm.output.runs)
write_csv(summary_table(runs), sm.output.summary)
Path(sm.log[0]).write_text(f"{len(runs)} runs\n")
