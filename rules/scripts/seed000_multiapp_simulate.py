"""Snakemake script: one multi-application simulation of seed 000's Figures 8 and 9 and of the
storage-daemons artifact (the rule gives the platform, the queue policy's options, a label and,
optionally, further engine options; outputs atomic)."""

from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.pipeline import simulate

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
seconds = simulate(
    sm.params.platform,
    sm.input.workload,
    spec.scheduler,
    sm.params.options,
    Path(sm.output.jobs).parent,
    decision_timeout=sm.params.decision_timeout,
    label=sm.params.label,
    traffic_policy=spec.traffic_policy,
    ipc_fanout=spec.ipc_fanout,
    engine_args=list(getattr(sm.params, "engine_args", [])),
)
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(f"{sm.params.label}: {seconds:.2f} s wall, {cpu:.1f} s CPU\n")
