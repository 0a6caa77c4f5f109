"""Snakemake script: one seed-000 Figure 9 simulation (outputs written atomically)."""

from pathlib import Path

from datasched.analysis.pipeline import simulate
from datasched.analysis.seed000_fig9 import Fig9Run

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
run = Fig9Run.from_path(sm.wildcards.fig9)
label = f"fig9 {sm.wildcards.fig9}"
seconds = simulate(
    sm.input.platform,
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
