"""Snakemake script: one seed-000 Figure 10 simulation (the run's traffic policy; outputs atomic;
its CPU seconds in cost.json)."""

from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.pipeline import simulate
from datasched.analysis.seed000.fig10.spec import Fig10Run

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
run = Fig10Run.from_path(sm.wildcards.fig10)
label = f"fig10 {sm.wildcards.fig10}"
seconds = simulate(
    spec.platform,
    sm.input.workload,
    spec.scheduler,
    run.scheduler_options(spec),
    Path(sm.output.jobs).parent,
    decision_timeout=sm.params.decision_timeout,
    label=label,
    traffic_policy=run.policy,
    ipc_fanout=spec.ipc_fanout,
    engine_args=spec.engine_args(),
)
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(f"{label}: {seconds:.2f} s wall, {cpu:.1f} s CPU\n")
