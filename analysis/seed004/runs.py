"""Seed 004 step 2, running: one run's engine input (``datasched-sim --interference``,
sim/src/interference/README.md), the engine call and a case's rows (``runs.csv``)."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.seed004.spec import (
    CORE_SPEED,
    CORES,
    HPL_TABLE,
    IOR_PROCESSES,
    NB,
    NODE_MODELS,
    PFS_SERVERS,
    SYNC_BYTES,
    TRANSFER,
    Case,
    Run,
    Seed004Spec,
    memory_setting,
    node_model,
)
from datasched.scenarios import build_document
from datasched.schedulers.services_placement import Allocation, place_services


def node_name(i: int, total: int = 288) -> str:
    """Host names of platforms/catalog/seed004-ondemand.xml (node-000...)."""
    return f"node-{i:0{len(str(total - 1))}d}"


def allocation(configuration: str, n: int, dedicated: int) -> Allocation:
    """The paper's Figure 4 layout, lowest node first: k spare nodes (the no-metadata
    configuration's separate task beside the metadata server), n HPL nodes, m IOR nodes,
    then the nodes added for the ``dedicated`` placement."""
    k = 1 if configuration == "matching-nometa" else 0
    m = {"hpl-only": 0, "single": 1}.get(configuration, n)
    names = [node_name(i) for i in range(k + n + m + dedicated)]
    return Allocation(
        spare=tuple(names[:k]),
        compute=tuple(names[k : k + n]),
        io=tuple(names[k + n : k + n + m]),
        dedicated=tuple(names[k + n + m :]),
    )


def hpl_job(n: int, iterations: int, cores: int) -> dict[str, Any]:
    """Table II's problem on n nodes: 2/3 N^3 flops over N / NB iterations, per node; on a
    one-core ``pinned`` node, one rank's share (1/56 of it)."""
    size, p, _ = HPL_TABLE[n]
    total_iterations = math.ceil(size / NB)
    per_node = 2 / 3 * size**3 / n / total_iterations
    return {
        "iterations": min(iterations, total_iterations),
        "flops_per_iteration": per_node * cores / CORES,
        "bytes_per_iteration": 8.0 * size * NB * CORES / p,
    }


def experiment(run: Run, spec: Seed004Spec) -> dict[str, Any]:
    """``run``'s experiment document, built through the scenario's model
    (datasched.scenarios): a field the engine would refuse is a ScenarioDocumentError naming it."""
    case = run.case
    cores = NODE_MODELS[node_model(case.model)]
    dedicated = spec.dedicated_nodes if run.placement == "dedicated" else 0
    alloc = allocation(case.configuration, case.size, dedicated)
    if case.configuration == "lustre":
        storage = tuple(f"pfs-{i}" for i in range(PFS_SERVERS))
        metadata = storage[:1]
    else:
        placed = place_services(run.placement, alloc)
        storage, metadata = placed.storage, placed.metadata
    flops = run.request_cost_us * 1e-6 * CORE_SPEED
    doc: dict[str, Any] = {
        "seed": run.seed,
        "simgrid_model": spec.simgrid_model,
        "hpl": {"hosts": list(alloc.compute)} | hpl_job(case.size, spec.iterations, cores),
        "services": {"storage": list(storage), "metadata": list(metadata)},
        "daemon_costs": {
            "flops_per_request": flops,
            "flops_per_metadata_op": flops,
            "idle_flops_per_second": run.idle_fraction * CORE_SPEED,
            "idle_period": run.idle_period,
        },
    }
    setting = memory_setting(case.model)
    if setting and spec.memory:
        bandwidth_gbps, bytes_per_flop = setting
        doc["memory"] = {
            "bandwidth": bandwidth_gbps * 1e9,
            "hpl_bytes_per_flop": bytes_per_flop,
            "io_copies": spec.memory.io_copies,
        }
    if alloc.io:
        doc["ior"] = {
            "hosts": list(alloc.io),
            "processes_per_node": IOR_PROCESSES,
            "transfer_size": TRANSFER,
            "requests_per_batch": spec.requests_per_batch,
            "sync_bytes": SYNC_BYTES,
        }
    return build_document("interference", doc)


def platform_for(model: str, directory: Path) -> Path:
    """The seed-004 machine (platforms' OnDemandParams defaults) with the model's cores (the
    ``memory`` models run on ``spread``'s: the engine adds their memory resources)."""
    from datasched.platforms import OnDemandParams, generate, write

    model = "spread" if node_model(model) == "memory" else model
    path = directory / f"seed004-ondemand-{model}.xml"
    if not path.exists():
        write(generate(OnDemandParams(name=f"seed004-ondemand-{model}", cores=NODE_MODELS[model])), path)
    return path


def run_experiment(doc: dict[str, Any], platform: Path, prefix: Path) -> dict[str, float]:
    """Runs the engine; returns the HPL makespan, the IOR job's writes per second and the
    largest CPU any service took on an HPL node, in cores (flops / (makespan x core speed)).
    RuntimeError with the engine's
    message on failure."""
    from datasched.engine import run_experiment_mode

    run_experiment_mode("interference", doc, platform, prefix)
    hpl = read_rows(Path(f"{prefix}_hpl.csv"))[0]
    makespan = float(hpl["makespan"])
    ior = read_rows(Path(f"{prefix}_ior.csv"))[0]
    hpl_hosts = set(doc["hpl"]["hosts"])
    busy = [
        (float(r["request_flops"]) + float(r["idle_flops"])) / (makespan * CORE_SPEED)
        for r in read_rows(Path(f"{prefix}_services.csv"))
        if r["host"] in hpl_hosts
    ]
    return {
        "makespan": makespan,
        "ior_writes_per_s": int(ior["requests"]) / makespan,
        "max_service_cores": max(busy, default=0.0),
    }


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


RUN_COLUMNS = (
    "model",
    "size",
    "configuration",
    "placement",
    "request_cost_us",
    "idle_fraction",
    "idle_period",
    "seed",
    "makespan",
    "ior_writes_per_s",
    "max_service_cores",
)


def run_case(spec: Seed004Spec, case: Case, work: Path, out_csv: Path) -> int:
    """Simulates every run of ``case``; one row per run in ``out_csv``."""
    platform = platform_for(case.model, work)
    rows = []
    for run in case.runs(spec):
        result = run_experiment(experiment(run, spec), platform, work / run.path / "out")
        rows.append(
            {
                "model": case.model,
                "size": case.size,
                "configuration": case.configuration,
                "placement": run.placement,
                "request_cost_us": run.request_cost_us,
                "idle_fraction": run.idle_fraction,
                "idle_period": run.idle_period,
                "seed": run.seed,
            }
            | result
        )
    write_csv(out_csv, RUN_COLUMNS, rows)
    return len(rows)
