"""Seed 001 Table 4 as a model prediction, not an identity.

The bookkeeping runs of :mod:`datasched.analysis.seed001_workflows` define every data size as
Table 4's seconds x 1 GB/s on a 1 GB/s path, so the data-unaware T_all is Table 4's own sum.
Here the same ten jobs run on the storage of the paper's stated hardware, so T_all comes out of
the engine's sharing and the scheduler's decisions:

- **central storage** is Lustre-like: one aggregate rate ``lustre_bw`` that every job's
  external I/O shares (SimGrid shares it; the paper's 750 GB Lustre 2.9 has no stated rate, so
  the rate is swept over the range of the Tables 1-3 artifact, ``analysis/seed001_pagecache``);
- **node storage** (where a data-aware step keeps its intermediate data) is the paper's own
  stand-in for SCM, a ``node tier``: the node's Intel SSD DC S3710 (datasheet 550/460 MB/s read/
  write) or the memory-mapped file system at Table 1's measured rates (10 x 1 GB written in
  3.02 s and read in 1.95 s: 3.31 and 5.13 GB/s);
- **data sizes**: the paper gives no application behind Table 4 (the jobs are "very short
  jobs" for illustration, with I/O in seconds only), so the sizes cannot be derived from it.
  Our assumption: every I/O phase moves Table 4's seconds x ``size_rate`` bytes per node, i.e.
  the seconds were measured at a per-node rate ``size_rate`` that the paper does not state;
  it is swept (0.01-1 GB/s: from a 36-way share of Table 3's Lustre to well above Table 1's
  single-client 73 MB/s);
- **background load**: seeded synthetic jobs (:func:`background_jobs`) occupying nodes, so
  that job 9's wait comes from the scheduler or does not; the intensity is swept.

Compute seconds stay Table 4's (1 Gflop/s nodes, the workflow file's ``host_speed``): the
paper states them, they are not a storage prediction. Walltimes are set far above any run
(``NO_WALLTIME``): the list scheduler does not use them, and a slow storage must not kill jobs.
"""

from __future__ import annotations

import csv
import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.claims_table import Verdict
from datasched.analysis.seed001_pagecache.spec import NIC_BW, SSD_READ_BW, SSD_WRITE_BW
from datasched.analysis.seed001_workflows.measure import measure
from datasched.analysis.seed001_workflows.platform import table4_platform
from datasched.analysis.verdicts import Estimate, Judgement, SweepClaim, VerdictError, Word, sweep
from datasched.errors import UserError

GB = 1e9
#: Table 1, memory-mapped file system, one producer and one consumer, 10 x 1 GB: the
#: producer writes in 3.02 s, the consumer reads in 1.95 s.
MEMORY_READ_BW = 10 * GB / 1.95
MEMORY_WRITE_BW = 10 * GB / 3.02
#: node tier -> (read B/s, write B/s, capacity B): the S3710 800 GB model, the node's 192 GB DDR4
NODE_TIERS: dict[str, tuple[float, float, float]] = {
    "ssd": (SSD_READ_BW, SSD_WRITE_BW, 800e9),
    "memory": (MEMORY_READ_BW, MEMORY_WRITE_BW, 192e9),
}
#: Background jobs: ids from here, nodes uniform in 1..BACKGROUND_MAX_NODES, exponential run
#: time of mean BACKGROUND_MEAN_SECONDS (compute only: they occupy nodes, they do no I/O).
BACKGROUND_FIRST_ID = 1001
BACKGROUND_MAX_NODES = 8
BACKGROUND_MEAN_SECONDS = 100.0
NO_WALLTIME = 1e9
#: a background job's storage descriptor (required by the phase profile; it does no I/O)
BACKGROUND_STORAGE = {"allocation": "san", "stg_k": 1, "mem_hit_pct": 0.0, "remote_pct": 100.0, "access": "disperse",
                      "san_k": 1}  # fmt: skip
#: The paper's numbers (section 4.1): T_all 490 s unaware, 280 s aware, job 9 waits 20 s.
PAPER = {"unaware-490": 490.0, "aware-280": 280.0, "aware-reduction": (490.0 - 280.0) / 490.0, "job9-wait": 20.0}
CLAIMS = (
    SweepClaim("unaware-490", PAPER["unaware-490"]),
    SweepClaim("aware-280", PAPER["aware-280"]),
    SweepClaim("aware-reduction", PAPER["aware-reduction"]),
    SweepClaim("job9-wait", PAPER["job9-wait"]),
)
STYLES = ("single-script", "chain", "dependency")
KEYS = {"size_rates", "lustre_bws", "node_tiers", "styles", "load_intensities", "load_seeds", "load_horizon"}


@dataclass(frozen=True)
class ModelSpec:
    """The swept assumptions (``artifacts.seed001_workflows.model`` of a config)."""

    size_rates: tuple[float, ...]
    lustre_bws: tuple[float, ...]
    node_tiers: tuple[str, ...]
    styles: tuple[str, ...]
    load_intensities: tuple[float, ...]
    load_seeds: tuple[int, ...]
    load_horizon: float = 2000.0


@dataclass(frozen=True)
class ParamSet:
    size_rate: float
    lustre_bw: float
    tier: str
    style: str
    load: float

    @property
    def name(self) -> str:
        return (
            f"r={self.size_rate / GB:g}GB/s,L={self.lustre_bw / GB:g}GB/s,{self.tier},{self.style},load={self.load:g}"
        )


def _positive_list(data: Mapping[str, Any], key: str, where: str) -> tuple[float, ...]:
    values = data.get(key)
    if not isinstance(values, list) or not values:
        raise UserError(f"{where}.{key}: expected a non-empty list")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
            raise UserError(f"{where}.{key}[{i}]: expected a finite number > 0, got {v!r}")
        out.append(float(v))
    return tuple(out)


def parse_model_spec(data: Mapping[str, Any], where: str = "artifacts.seed001_workflows.model") -> ModelSpec:
    """A validated :class:`ModelSpec`; every error names the key (``where.key[i]``)."""
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r} (expected one of {sorted(KEYS)})")
    tiers = tuple(str(t) for t in data.get("node_tiers", []))
    for i, t in enumerate(tiers):
        if t not in NODE_TIERS:
            raise UserError(f"{where}.node_tiers[{i}]: unknown tier {t!r} (expected one of {sorted(NODE_TIERS)})")
    styles = tuple(str(s) for s in data.get("styles", []))
    for i, s in enumerate(styles):
        if s not in STYLES:
            raise UserError(f"{where}.styles[{i}]: unknown style {s!r} (expected one of {list(STYLES)})")
    if not tiers or not styles:
        raise UserError(f"{where}: node_tiers and styles must be non-empty lists")
    loads = data.get("load_intensities")
    if (
        not isinstance(loads, list)
        or not loads
        or any(not isinstance(v, (int, float)) or not 0 <= v < 1 for v in loads)
    ):
        raise UserError(f"{where}.load_intensities: expected a non-empty list of numbers in [0, 1), got {loads!r}")
    seeds = data.get("load_seeds")
    if not isinstance(seeds, list) or not seeds or any(isinstance(s, bool) or not isinstance(s, int) for s in seeds):
        raise UserError(f"{where}.load_seeds: expected a non-empty list of integers, got {seeds!r}")
    horizon = data.get("load_horizon", 2000.0)
    if isinstance(horizon, bool) or not isinstance(horizon, (int, float)) or not 0 < horizon < math.inf:
        raise UserError(f"{where}.load_horizon: expected a finite number > 0, got {horizon!r}")
    return ModelSpec(
        size_rates=_positive_list(data, "size_rates", where),
        lustre_bws=_positive_list(data, "lustre_bws", where),
        node_tiers=tiers,
        styles=styles,
        load_intensities=tuple(float(v) for v in loads),
        load_seeds=tuple(int(s) for s in seeds),
        load_horizon=float(horizon),
    )


def param_sets(spec: ModelSpec) -> list[ParamSet]:
    return [
        ParamSet(r, lb, t, s, ld)
        for r, lb, t, s, ld in itertools.product(
            spec.size_rates, spec.lustre_bws, spec.node_tiers, spec.styles, spec.load_intensities
        )
    ]


def seeds_of(spec: ModelSpec, load: float) -> tuple[int, ...]:
    """Without background load nothing is random: one run (seed 0)."""
    return spec.load_seeds if load > 0 else (0,)


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


def claim_values(row: Mapping[str, Any]) -> dict[str, float]:
    u, a = float(row["t_all_unaware"]), float(row["t_all_aware"])
    return {"unaware-490": u, "aware-280": a, "aware-reduction": (u - a) / u, "job9-wait": float(row["wait9_unaware"])}


def estimates(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Estimate]]:
    """Per parameter set: each claim's value over the load seeds (deterministic without load)."""
    by_set: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        by_set.setdefault(str(r["set"]), []).append(r)
    out: dict[str, dict[str, Estimate]] = {}
    for name, mine in by_set.items():
        values = [claim_values(r) for r in mine]
        if mine[0]["load"] > 0:
            out[name] = {c.name: Estimate.over_seeds([v[c.name] for v in values]) for c in CLAIMS}
        else:
            why = "no background load: the run has no random input"
            out[name] = {c.name: Estimate.deterministic(values[0][c.name], why) for c in CLAIMS}
    return out


def judgements(rows: Sequence[Mapping[str, Any]]) -> dict[str, Judgement]:
    if not rows:
        raise VerdictError("seed 001 Table 4 model: no runs")
    return sweep(CLAIMS, estimates(rows))


def best_set(rows: Sequence[Mapping[str, Any]]) -> tuple[str, list[str]]:
    """The parameter set at which most claims are reproduced together (first in sweep order
    on ties), and the claims it fails."""
    ests = estimates(rows)
    scored = []
    for name, per in ests.items():
        failed = [c.name for c in CLAIMS if c.judge(per[c.name]).word is not Word.REPRODUCED]
        scored.append((len(failed), name, failed))
    _, name, failed = min(scored, key=lambda s: s[0])
    return name, failed


def best_parameter_set(rows: Sequence[Mapping[str, Any]]) -> ParamSet:
    """:func:`best_set` as a :class:`ParamSet` (to find its runs)."""
    name, _ = best_set(rows)
    r = next(r for r in rows if r["set"] == name)
    return ParamSet(float(r["size_rate"]), float(r["lustre_bw"]), str(r["tier"]), str(r["style"]), float(r["load"]))


CLAIM_TEXT = {
    "unaware-490": ("table4.unaware-490", "T_all of workflow 1 → 7 → 9, data-unaware", "490 s", "{:.0f} s"),
    "aware-280": ("table4.aware-280", "T_all of workflow 1 → 7 → 9, data-aware", "280 s", "{:.0f} s"),
    "aware-reduction": ("table4.aware-reduction", "T_all reduction, data-aware", "43 % (490 → 280 s)", "{:.0%}"),
    "job9-wait": ("table4.job9-wait", "job 9 waits in the queue (data-unaware)", "20 s", "{:.0f} s"),
}


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """The four Table 4 claims judged over the sweep (model predictions)."""
    judged = judgements(rows)
    ests = estimates(rows)
    out = []
    for c in CLAIMS:
        key, claim, paper, fmt = CLAIM_TEXT[c.name]
        means = [e[c.name].mean for e in ests.values()]
        ours = f"{fmt.format(min(means))} … {fmt.format(max(means))} over {len(means)} sets"
        out.append(Verdict(key, claim, paper, ours, judged[c.name]))
    return out


COLUMNS = ("set", "size_rate", "lustre_bw", "tier", "style", "load", "seed", "t_all_unaware", "t_all_aware",
           "t_io_unaware", "t_io_aware", "t_queue_unaware", "t_queue_aware", "wait9_unaware",
           "wait9_aware")  # fmt: skip


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([f"{r[c]:.6g}" if isinstance(r[c], float) else r[c] for c in COLUMNS])
