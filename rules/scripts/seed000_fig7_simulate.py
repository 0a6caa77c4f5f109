"""Snakemake script: one seed-000 Figure 7 simulation (FCFS, the run's traffic policy and
sharing unit; outputs written atomically; its CPU seconds in cost.json)."""

from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.pipeline import simulate
from datasched.analysis.seed000.fig7.spec import Fig7Run

sm = snakemake  # noqa: F821 (injected by Snakemake)
run = Fig7Run.from_path(sm.wildcards.fig7)
label = f"fig7 {sm.wildcards.fig7}"
seconds = simulate(
    sm.params.platform,
    sm.input.workload,
    "fcfs",
    {},
    Path(sm.output.jobs).parent,
    decision_timeout=sm.params.decision_timeout,
    label=label,
    traffic_policy=run.policy,
    engine_args=run.engine_args(),
)
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(f"{label}: {seconds:.2f} s wall, {cpu:.1f} s CPU\n")
