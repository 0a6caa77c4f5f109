"""Snakemake script: one simulation of the storage-daemons scheduling artifact (outputs
atomic; its CPU cost beside them for the accumulating full variant)."""

from pathlib import Path

from datasched.analysis.accumulate import cpu_seconds, write_cost
from datasched.analysis.daemons_on_nodes.spec import DaemonsRun
from datasched.analysis.pipeline import simulate

sm = snakemake  # noqa: F821 (injected by Snakemake)
spec = sm.params.spec
run = DaemonsRun.from_path(sm.wildcards.daemons)
engine_args = ["--storage-daemons", str(sm.input.daemons)] if run.cpu_s_per_gb > 0 else []
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
    engine_args=engine_args,
)
cpu = cpu_seconds()
write_cost(sm.output.cost, cpu)
Path(sm.log[0]).write_text(f"{sm.params.label}: {seconds:.2f} s wall, {cpu:.1f} s CPU\n")
