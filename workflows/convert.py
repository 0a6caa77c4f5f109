"""Workflow file -> Batsim workload JSON carrying dependencies and data declarations.

Each step becomes one job (id = step id). Extra job fields (ignored by Batsim, read by
our engine and schedulers):

- ``dependencies`` (list of job ids): Slurm ``afterok`` semantics -- the job is
  submitted at ``subtime`` but must not start before every listed job completed
  successfully (the field name Batsim's docs suggest). Emitted for
  ``submission: dependency`` steps.
- ``datasched_submit_after`` (list of job ids): job chaining -- the job is only
  *submitted* when all listed jobs have completed (at ``max(subtime, completion)``), as
  when a job script ``sbatch``-es its successor. Emitted for ``submission: chain`` steps.
- ``datasched_workflow``: ``{"workflow", "step", "name", "submission",
  "reads": [{"data", "bytes", "producer"}], "writes": [{"data", "bytes", "consumers"}]}``
  where bytes are the job's totals over its nodes (reads of several products are split
  in proportion to their sizes).

Top-level ``datasched_data`` lists every data product ``{"name", "bytes", "producer",
"consumers", "workflow"}`` (producer ``null``: it exists on external storage before the
workload starts).

Profiles: ``mode="composed"`` (default) gives Batsim's ``composed`` of one ``delay`` per
phase equal to the phase's nominal seconds -- exact for the stated Table 4 times on any
Batsim engine, blind to contention and data locality -- with the exact phase profile
embedded as ``datasched_phases_profile``. ``mode="phases"`` gives the
``datasched_phases`` profile itself (storage descriptor: ``san`` = external file
system, which the engine/scheduler replaces by node-local SCM when the data is there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from datasched.errors import UserError
from datasched.workflows.model import Workflow
from datasched.workloads.jsonio import write_json
from datasched.workloads.phases import (
    EMBEDDED_PHASES_FIELD,
    AccessType,
    ItemUse,
    Phase,
    PhaseKind,
    ProfileMode,
    ReferenceRates,
    StorageAllocation,
    StorageDescriptor,
    close_sequence,
    phase_profile,
)

GENERATOR_NAME = "datasched.workflows.convert"
FORMAT_VERSION = 1

#: External parallel file system, the seed-001 default location of every file.
EXTERNAL_STORAGE = StorageDescriptor(
    allocation=StorageAllocation.SAN, stg_k=1, mem_hit_pct=0, remote_pct=100, access=AccessType.DISPERSE, san_k=1
)


def step_phases(workflow: Workflow, step_index: int) -> tuple[list[Phase], list[float]]:
    """The step's phases, each read/write phase naming its data products as engine data
    items (``items``): the phase's bytes over its nodes split among its products in
    proportion to their sizes (as :func:`data_traffic`). A written product that no step
    consumes is the workflow's final output: it goes to central storage (``to:
    central``, seed 001 4.1: "the final job needs to write back to external storage");
    intermediate products stay on the writers' NVM unless the decision says otherwise
    (EXECUTE_JOB ``datasched_storage.items_to``)."""
    step = workflow.steps[step_index]
    ref = workflow.reference
    products = {d.name: d for d in workflow.data}
    phases = []
    for p in step.phases:
        items: list[ItemUse] = []
        if p.data:
            total = p.amount(ref) * (p.nodes or step.nodes)
            sizes = [products[n].bytes for n in p.data]
            whole = sum(sizes)
            for name, size in zip(p.data, sizes, strict=True):
                share = total * (size / whole if whole > 0 else 1.0 / len(sizes))
                final = p.kind == "write" and not products[name].consumers
                items.append(ItemUse(name, share, "central" if final else None))
        phases.append(Phase(PhaseKind(p.kind), p.amount(ref), tuple(p.data), p.nodes, tuple(items)))
    nominal = [p.nominal_seconds(ref) for p in step.phases]
    return phases, nominal


def data_traffic(workflow: Workflow, step_index: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(reads, writes) of declared data for the job, totals over its nodes."""
    step = workflow.steps[step_index]
    products = {d.name: d for d in workflow.data}
    reads: dict[str, float] = {}
    writes: dict[str, float] = {}
    for phase in step.phases:
        if not phase.data:
            continue
        total = phase.amount(workflow.reference) * (phase.nodes or step.nodes)
        sizes = [products[n].bytes for n in phase.data]
        whole = sum(sizes)
        for name, size in zip(phase.data, sizes, strict=True):
            share = total * (size / whole if whole > 0 else 1.0 / len(sizes))
            target = reads if phase.kind == "read" else writes
            target[name] = target.get(name, 0.0) + share
    read_list = [{"data": n, "bytes": b, "producer": products[n].producer} for n, b in sorted(reads.items())]
    write_list = [{"data": n, "bytes": b, "consumers": list(products[n].consumers)} for n, b in sorted(writes.items())]
    return read_list, write_list


def workflow_to_workload(
    workflow: Workflow,
    *,
    mode: ProfileMode = "composed",
    walltime_factor: float = 1.0,
    walltime_margin: float = 1.0,
    source: str | None = None,
) -> dict[str, Any]:
    """The workload document for ``workflow``. Walltime: the step's ``walltime`` if set,
    else ``walltime_factor`` x the sum of its nominal phase seconds + ``walltime_margin``
    (factor 1: the exact estimates a table like seed 001's Table 4 states; the 1 s margin
    keeps the walltime strictly above the run time, since a job whose run time equals
    its walltime is killed by our engine)."""
    if walltime_factor < 1.0:
        raise UserError(f"walltime_factor must be >= 1, got {walltime_factor}")
    if walltime_margin < 0.0:
        raise UserError(f"walltime_margin must be >= 0, got {walltime_margin}")
    rates = ReferenceRates(
        host_speed=workflow.reference.host_speed,
        link_bandwidth=workflow.reference.link_bandwidth,
        san_frontend_bandwidth=workflow.reference.io_bandwidth,
        san_server_bandwidth=workflow.reference.io_bandwidth * workflow.system_nodes,
    )
    workflow_of = {s.id: s.workflow for s in workflow.steps}
    jobs: list[dict[str, Any]] = []
    profiles: dict[str, dict[str, Any]] = {}
    for index, step in enumerate(workflow.steps):
        phases, nominal = step_phases(workflow, index)
        name = f"step{step.id}"
        exact = phase_profile(phases, EXTERNAL_STORAGE, step.nodes, step.nodes, rates, nominal)
        if mode == "phases":
            profiles[name] = exact
        elif mode == "composed":
            # Batsim 4.2.1 refuses a delay of 0: zero-time phases are left out (close_sequence)
            seq: list[str] = []
            for j, seconds in enumerate(nominal):
                if seconds > 0:
                    sub = f"{name}.{j}.{phases[j].kind.value}"
                    profiles[sub] = {"type": "delay", "delay": seconds}
                    seq.append(sub)
            close_sequence(name, seq, profiles)
            profiles[name] = {"type": "composed", "repeat": 1, "seq": seq, EMBEDDED_PHASES_FIELD: exact}
        else:
            raise UserError(f"unknown profile mode {mode!r} (expected 'composed' or 'phases')")
        reads, writes = data_traffic(workflow, index)
        job: dict[str, Any] = {
            "id": step.id,
            "subtime": step.submit,
            "res": step.nodes,
            "profile": name,
            "walltime": step.walltime
            if step.walltime is not None
            else max(1e-3, sum(nominal) * walltime_factor + walltime_margin),
            "datasched_workflow": {
                "workflow": step.workflow,
                "step": step.id,
                "name": step.name,
                "submission": step.submission,
                "reads": reads,
                "writes": writes,
            },
        }
        if step.after:
            key = "dependencies" if step.submission == "dependency" else "datasched_submit_after"
            job[key] = sorted(step.after)
        jobs.append(job)
    jobs.sort(key=lambda j: (j["subtime"], j["id"]))
    data = [
        {
            "name": d.name,
            "bytes": d.bytes,
            "producer": d.producer,
            "consumers": list(d.consumers),
            "workflow": workflow_of.get(d.producer)
            if d.producer is not None
            else next((workflow_of[c] for c in d.consumers if workflow_of.get(c)), None),
        }
        for d in workflow.data
    ]
    meta = {
        "generator": GENERATOR_NAME,
        "format_version": FORMAT_VERSION,
        "workflow": workflow.name,
        "source": source,
        "profile_mode": mode,
        "walltime_factor": walltime_factor,
        "walltime_margin": walltime_margin,
        "reference": workflow.reference.model_dump(mode="json"),
    }
    return {
        "nb_res": workflow.system_nodes,
        "jobs": jobs,
        "profiles": profiles,
        "datasched_data": data,
        "datasched_meta": meta,
    }


def convert_workflow(workflow: Workflow, output_path: str | Path, **kwargs: Any) -> Path:
    return write_json(workflow_to_workload(workflow, **kwargs), output_path)
