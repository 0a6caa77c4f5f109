"""Seed 001 Table 4 model, the runs: the Table 4 jobs at a data size rate in a submission style
plus seeded background jobs, on a platform whose node storage is the tier and whose central
storage is Lustre's aggregate rate; one row per (parameter set, seed) of T_all, T_I/O, T_queue
and job 9's wait, data-unaware and data-aware (:mod:`.model_spec` says what is swept and why)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_pagecache.spec import NIC_BW
from datasched.analysis.seed001_workflows.measure import measure
from datasched.analysis.seed001_workflows.model_spec import NODE_TIERS, ModelSpec, ParamSet, param_sets, seeds_of
from datasched.analysis.seed001_workflows.platform import table4_platform

#: Background jobs: ids from here, nodes uniform in 1..BACKGROUND_MAX_NODES, exponential run
#: time of mean BACKGROUND_MEAN_SECONDS (compute only: they occupy nodes, they do no I/O).
BACKGROUND_FIRST_ID = 1001
BACKGROUND_MAX_NODES = 8
BACKGROUND_MEAN_SECONDS = 100.0
NO_WALLTIME = 1e9
#: a background job's storage descriptor (required by the phase profile; it does no I/O)
BACKGROUND_STORAGE = {"allocation": "san", "stg_k": 1, "mem_hit_pct": 0.0, "remote_pct": 100.0, "access": "disperse",
                      "san_k": 1}  # fmt: skip


def background_jobs(
    intensity: float, seed: int, horizon: float, nodes: int, host_speed: float
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Seeded synthetic jobs occupying nodes: Poisson arrivals on [0, horizon) at the rate
    lambda = intensity x nodes / (E[size] x E[run]), so that the offered load is ``intensity``
    of the machine's node-seconds over the horizon; size uniform in 1..BACKGROUND_MAX_NODES
    (E = (1 + max) / 2), run time exponential (mean BACKGROUND_MEAN_SECONDS), compute only."""
    if intensity <= 0:
        return [], {}
    rng = random.Random(seed)
    mean_nodes = (1 + BACKGROUND_MAX_NODES) / 2
    rate = intensity * nodes / (mean_nodes * BACKGROUND_MEAN_SECONDS)
    jobs, profiles = [], {}
    t = rng.expovariate(rate)
    job_id = BACKGROUND_FIRST_ID
    while t < horizon:
        size = rng.randint(1, BACKGROUND_MAX_NODES)
        seconds = round(max(1e-3, rng.expovariate(1 / BACKGROUND_MEAN_SECONDS)), 6)
        name = f"bg{job_id}"
        profiles[name] = {
            "type": "datasched_phases",
            "version": 1,
            "res": size,
            "io_tasks": size,
            "storage": BACKGROUND_STORAGE,
            "phases": [{"kind": "compute", "flops": seconds * host_speed, "nominal_seconds": seconds}],
        }
        jobs.append({"id": job_id, "subtime": round(t, 6), "res": size, "profile": name, "walltime": NO_WALLTIME})
        job_id += 1
        t += rng.expovariate(rate)
    return jobs, profiles


def workload(workflow: Any, p: ParamSet, seed: int, horizon: float) -> dict[str, Any]:
    """The Table 4 jobs at data size rate ``p.size_rate`` in ``p.style``, plus the background."""
    from datasched.workflows.convert import workflow_to_workload
    from datasched.workflows.submission import apply_style

    ref = workflow.reference
    scale = p.size_rate / ref.io_bandwidth
    scaled = workflow.model_copy(
        update={
            "reference": ref.model_copy(update={"io_bandwidth": p.size_rate}),
            "data": tuple(d.model_copy(update={"bytes": d.bytes * scale}) for d in workflow.data),
        }
    )
    doc = workflow_to_workload(apply_style(scaled, p.style), mode="phases")
    for job in doc["jobs"]:
        job["walltime"] = NO_WALLTIME
    jobs, profiles = background_jobs(p.load, seed, horizon, workflow.system_nodes, ref.host_speed)
    doc["jobs"] = sorted(doc["jobs"] + jobs, key=lambda j: (j["subtime"], j["id"]))
    doc["profiles"].update(profiles)
    return doc


def write_platform(tier: str, lustre_bw: float, host_speed: float, path: Path) -> Path:
    """20 nodes (5x2x2 torus, 10 GB/s links), node NVM = the tier, one I/O server whose front-end
    rate is Lustre's aggregate (every file striped over every OST: only the aggregate enters)."""
    read_bw, write_bw, capacity = NODE_TIERS[tier]
    node = {"speed": host_speed, "nvm_read_bw": read_bw, "nvm_write_bw": write_bw, "nvm_capacity": capacity}
    return table4_platform(f"seed001-table4-model-{tier}", node, NIC_BW, path, server_frontend_bw=lustre_bw)


def _run(platform: Path, doc: Mapping[str, Any], aware: bool, out: Path) -> dict[str, Any]:
    from datasched.runner import run_simulation
    from datasched.workloads.jsonio import write_json

    out.mkdir(parents=True, exist_ok=True)
    path = out / "workload.json"
    write_json(dict(doc), path)
    result = run_simulation(
        platform, path, "workflow", out / "sim", scheduler_options={"data_aware": aware}, in_process=True
    )
    row = measure(result.jobs_csv.parent, doc, "model", "model", "aware" if aware else "unaware")
    wait9 = next((t["queue"] for t in row["steps"] if t["job"] == "9"), 0.0)
    return {"t_all": row["t_all"], "t_io": row["t_io"], "t_queue": row["t_queue"], "wait9": wait9}


def run_all(spec: ModelSpec, workflow_path: Path, work: Path) -> list[dict[str, Any]]:
    """One row per (parameter set, seed): T_all, T_I/O, T_queue and job 9's wait of the
    data-unaware and data-aware runs. The data-unaware run does not touch node storage, so it
    is run once per (size rate, Lustre rate, style, load, seed) and shared by the tiers."""
    from datasched.workflows.model import load_workflow

    workflow = load_workflow(workflow_path)
    host = workflow.reference.host_speed
    unaware: dict[tuple[Any, ...], dict[str, Any]] = {}
    rows = []
    for p in param_sets(spec):
        for seed in seeds_of(spec, p.load):
            doc = workload(workflow, p, seed, spec.load_horizon)
            tag = f"r={p.size_rate:g}/L={p.lustre_bw:g}/style={p.style}/load={p.load:g}/seed={seed}"
            key = (p.size_rate, p.lustre_bw, p.style, p.load, seed)
            if key not in unaware:
                platform = write_platform(p.tier, p.lustre_bw, host, work / f"platform-{p.tier}-{p.lustre_bw:g}.xml")
                unaware[key] = _run(platform, doc, False, work / "model" / tag / "unaware")
            platform = write_platform(p.tier, p.lustre_bw, host, work / f"platform-{p.tier}-{p.lustre_bw:g}.xml")
            aware = _run(platform, doc, True, work / "model" / tag / f"aware-{p.tier}")
            rows.append({"set": p.name, "size_rate": p.size_rate, "lustre_bw": p.lustre_bw, "tier": p.tier,
                         "style": p.style, "load": p.load, "seed": seed,
                         **{f"{k}_unaware": v for k, v in unaware[key].items()},
                         **{f"{k}_aware": v for k, v in aware.items()}})  # fmt: skip
    return rows


def run_dir(work: Path, p: ParamSet, seed: int, aware: bool) -> Path:
    """Where :func:`run_all` left one run's engine outputs (for the timelines)."""
    tag = f"r={p.size_rate:g}/L={p.lustre_bw:g}/style={p.style}/load={p.load:g}/seed={seed}"
    return work / "model" / tag / (f"aware-{p.tier}" if aware else "unaware")
