"""Snakemake script: one simulation, outputs written atomically."""

from pathlib import Path

from datasched.analysis.pipeline import simulate

sm = snakemake  # noqa: F821 (injected by Snakemake)
seconds = simulate(
    sm.input.platform,
    sm.input.workload,
    sm.wildcards.policy,
    sm.params.scheduler_options,
    Path(sm.output.jobs).parent,
    decision_timeout=sm.params.decision_timeout,
    label=sm.params.label,
    traffic_policy=sm.params.traffic_policy,
)
Path(sm.log[0]).write_text(f"{sm.params.label}: options {sm.params.scheduler_options}, {seconds:.2f} s wall\n")
