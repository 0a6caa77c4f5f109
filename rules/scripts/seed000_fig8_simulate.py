"""Snakemake script: one seed-000 Figure 8 simulation (outputs written atomically)."""

from pathlib import Path

from datasched.analysis.pipeline import simulate
from datasched.analysis.seed000_fig8 import Fig8Run

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
run = Fig8Run.from_path(sm.wildcards.fig8)
label = f"fig8 {sm.wildcards.fig8}"
seconds = simulate(
    spec.platforms[run.topology],
    sm.input.workload,
    spec.scheduler,
    run.scheduler_options(spec),
    Path(sm.output.jobs).parent,
    decision_timeout=sm.params.decision_timeout,
    label=label,
    traffic_policy=spec.traffic_policy,
    ipc_fanout=spec.ipc_fanout,
)
Path(sm.log[0]).write_text(f"{label}: {seconds:.2f} s wall\n")
