"""Snakemake script: one seed-000 Figure 6 simulation (FCFS, outputs written atomically)."""

from pathlib import Path

from datasched.analysis.pipeline import simulate
from datasched.analysis.seed000.fig6.spec import Fig6Run

sm = snakemake  # noqa: F821 (injected by Snakemake)
label = f"fig6 {sm.wildcards.fig6}"
seconds = simulate(
    sm.params.platform,
    sm.input.workload,
    "fcfs",
    Fig6Run.from_path(sm.wildcards.fig6).scheduler_options(),
    Path(sm.output.jobs).parent,
    decision_timeout=sm.params.decision_timeout,
    label=label,
    traffic_policy=sm.params.traffic_policy,
)
Path(sm.log[0]).write_text(f"{label}: {seconds:.2f} s wall\n")
