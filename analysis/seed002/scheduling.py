"""Seed 002, scheduling section: the I/O forwarding layer serving the jobs of a scheduling run.

The paper (seed 002) measures single benchmarks, not schedules; this section has **no paper
claim** to compare with. It asks what the forwarder's request scheduler changes for a batch
of jobs: EASY backfilling schedules a Markov-chain phase workload (seed 000's generator,
``workloads/markov.py``) on the seed-002 platform (32 clients, 4 forwarders, 4 HDD servers),
and every read/write phase goes client → forwarder → data servers through the engine's
forwarding layer (``datasched-sim --forwarding-layer``; sim/src/forwarding/README.md, "Phase
jobs through the forwarding layer"), with FIFO, HBRR or TWINS at the forwarders.

Choices (ours, not the paper's; never tuned to any number):

* every application keeps its data on central storage (``allocations: [san]``, ``san_k`` drawn
  from 1, 2, 4: the platform's 4 servers) and reads/writes it all there: the generator's drawn
  ``mem_hit_pct`` is set to 0 (the forwarding platform has no node DRAM tier);
* the walltime estimate (nominal × 10) uses 150 MB/s per data server (the platform's HDD), so a
  job whose I/O contends with others' may still reach its walltime: those are counted;
* requests of ``request_size`` (256 KiB: the paper's large requests), file per I/O task,
  64 KiB stripes, 16 dispatches in flight per forwarder, HDD curve ``hdd_alpha``.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv

#: Label -> forwarding-layer fields (scheduler and TWINS window/drain).
CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "fifo": {"scheduler": "fifo"},
    "hbrr": {"scheduler": "hbrr"},
    "twins-1ms": {"scheduler": "twins", "window": 0.001},
    "twins-8ms": {"scheduler": "twins", "window": 0.008},
    "twins-8ms-drain": {"scheduler": "twins", "window": 0.008, "drain": True},
}

RUN_COLUMNS = (
    "configuration",
    "seed",
    "jobs",
    "completed",
    "walltime_reached",
    "makespan",
    "mean_waiting_time",
    "mean_turnaround_time",
    "mean_slowdown",
    "mean_san_seconds",
    "san_bytes",
)


@dataclass(frozen=True)
class SchedulingSpec:
    """``artifacts.seed002_twins.scheduling`` of a config (config/schema.json)."""

    configurations: tuple[str, ...]
    seeds: tuple[int, ...]
    n_apps: int
    n_phases: int
    io_bytes: float
    mean_interarrival: float
    request_size: int = 262144
    hdd_alpha: float = 0.1
    policy: str = "easy"

    def runs(self) -> list[tuple[str, int]]:
        return [(c, s) for c in self.configurations for s in self.seeds]


def parse_scheduling_spec(data: Mapping[str, Any] | None) -> SchedulingSpec | None:
    if not data:
        return None
    configurations = tuple(str(c) for c in data["configurations"])
    unknown = [c for c in configurations if c not in CONFIGURATIONS]
    if unknown:
        raise ValueError(f"scheduling.configurations: unknown {unknown} (known: {', '.join(CONFIGURATIONS)})")
    return SchedulingSpec(
        configurations=configurations,
        seeds=tuple(int(s) for s in data["seeds"]),
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        io_bytes=float(data["io_bytes"]),
        mean_interarrival=float(data["mean_interarrival"]),
        request_size=int(data.get("request_size", 262144)),
        hdd_alpha=float(data.get("hdd_alpha", 0.1)),
    )


def workload_model(spec: SchedulingSpec, seed: int):
    """The Markov multi-application workload of ``seed`` (choices in the module docstring)."""
    from datasched.workloads import markov
    from datasched.workloads.phases import ReferenceRates

    params = markov.MultiApplicationParams(
        seed=seed,
        n_apps=spec.n_apps,
        max_tasks=32,
        allocations=("san",),
        san_k_choices=(1, 2, 4),
        mean_interarrival=spec.mean_interarrival,
        sizes=markov.PhaseSizes(n_phases=spec.n_phases, io_bytes=spec.io_bytes, compute_flops=1e9, comm_bytes=1e7),
        rates=ReferenceRates(san_server_bandwidth=150e6),
        walltime_factor=10.0,
    )
    model = markov.generate_from_seed(params)
    model.applications = [
        dataclasses.replace(app, storage=app.storage.model_copy(update={"mem_hit_pct": 0.0}))
        for app in model.applications
    ]
    return model


def layer_document(spec: SchedulingSpec, configuration: str) -> dict[str, Any]:
    return {
        "request_size": spec.request_size,
        "pattern": "file_per_process",
        "stripe_size": 65536,
        "max_in_flight": 16,
        "hdd_alpha": spec.hdd_alpha,
    } | CONFIGURATIONS[configuration]


def run_one(spec: SchedulingSpec, configuration: str, seed: int, platform: Path, work: Path) -> dict[str, Any]:
    """Simulates one configuration and seed under ``work``; returns its row (RUN_COLUMNS)."""
    from datasched.runner import run_simulation
    from datasched.workloads import markov

    work.mkdir(parents=True, exist_ok=True)
    workload = markov.write(workload_model(spec, seed), work / "workload.json", profile_mode="phases")
    layer = work / "forwarding_layer.json"
    layer.write_text(json.dumps(layer_document(spec, configuration), indent=1, sort_keys=True))
    result = run_simulation(
        platform, workload, spec.policy, work / "out", engine_args=["--forwarding-layer", str(layer.resolve())]
    )
    return summarise_run(configuration, seed, result.jobs_csv, result.jobs_csv.parent / "out_io.csv")


def summarise_run(configuration: str, seed: int, jobs_csv: Path, io_csv: Path) -> dict[str, Any]:
    with open(jobs_csv, newline="") as f:
        jobs = list(csv.DictReader(f))
    with open(io_csv, newline="") as f:
        io = list(csv.DictReader(f))
    return {
        "configuration": configuration,
        "seed": seed,
        "jobs": len(jobs),
        "completed": sum(j["final_state"] == "COMPLETED_SUCCESSFULLY" for j in jobs),
        "walltime_reached": sum(j["final_state"] == "COMPLETED_WALLTIME_REACHED" for j in jobs),
        "makespan": max(float(j["finish_time"]) for j in jobs),
        "mean_waiting_time": statistics.fmean(float(j["waiting_time"]) for j in jobs),
        "mean_turnaround_time": statistics.fmean(float(j["turnaround_time"]) for j in jobs),
        "mean_slowdown": statistics.fmean(float(j["stretch"]) for j in jobs),
        "mean_san_seconds": statistics.fmean(float(r["san_seconds"]) for r in io),
        "san_bytes": math.fsum(float(r["san_bytes"]) for r in io),
    }


def write_rows(path: Path, rows: Sequence[Mapping[str, Any]]) -> Path:
    return write_csv(path, RUN_COLUMNS, rows)


def read_rows(paths: Sequence[Path]) -> list[dict[str, Any]]:
    rows: list[Mapping[str, str]] = []
    for path in paths:
        with open(path, newline="") as f:
            rows += csv.DictReader(f)
    return parse_rows(rows)


def parse_rows(rows: Sequence[Mapping[str, str]]) -> list[dict[str, Any]]:
    """Run rows as written (strings; a ``runs.csv`` or a committed summary) with their numbers parsed."""
    return [{k: (v if k == "configuration" else float(v)) for k, v in r.items()} for r in rows]


def report_section(spec: SchedulingSpec | None, rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Markdown: per configuration, means over seeds (99.7 % Student t half-widths) of the
    schedule's figures, and the paired difference of each configuration's mean waiting time
    against the first configuration's (same workloads)."""
    from datasched.analysis.seed002.intervals import mean_ci

    lines = ["## Scheduling sweep through the forwarding layer (no paper claim)", ""]
    if spec is None or not rows:
        return lines + ["Not configured in this variant.", ""]
    lines += [
        f"{spec.policy.upper()} backfilling schedules {spec.n_apps} Markov-chain applications (seed 000's generator,",
        f"{spec.n_phases} operations each, {spec.io_bytes / 1e6:g} MB per I/O task and I/O phase, Poisson arrivals",
        f"every {spec.mean_interarrival:g} s on average, data on the SAN: `san_k` from 1, 2, 4) on the seed-002",
        "platform; every read/write phase goes client → forwarder → HDD servers through the forwarding layer",
        f"(`--forwarding-layer`: {spec.request_size // 1024} KiB requests, file per I/O task, 64 KiB stripes, 16 in",
        f"flight per forwarder, HDD α = {spec.hdd_alpha:g}). The paper measures single benchmarks, not schedules:",
        "**there is no paper claim to compare with**; this is what the model predicts, with the choices listed",
        f"in analysis/seed002/scheduling.py. Means over seeds {list(spec.seeds)} with 99.7 % Student t half-widths:",
        "",
        "| configuration | makespan (s) | mean wait (s) | mean turnaround (s) | mean slowdown "
        "| mean SAN time per job (s) | walltime reached |",
        "|---|---|---|---|---|---|---|",
    ]
    first = spec.configurations[0]
    for configuration in spec.configurations:
        mine = [r for r in rows if r["configuration"] == configuration]
        if not mine:
            continue
        cells = []
        for column in ("makespan", "mean_waiting_time", "mean_turnaround_time", "mean_slowdown", "mean_san_seconds"):
            mean, half = mean_ci([r[column] for r in mine])
            cells.append(f"{mean:.2f} ± {half:.2f}")
        cut = sum(int(r["walltime_reached"]) for r in mine)
        total = sum(int(r["jobs"]) for r in mine)
        lines.append(f"| {configuration} | " + " | ".join(cells) + f" | {cut} of {total} |")
    lines += ["", f"Paired differences of the mean waiting time against {first} (same workload per seed):", ""]
    base = {r["seed"]: r for r in rows if r["configuration"] == first}
    for configuration in spec.configurations[1:]:
        diffs = [
            r["mean_waiting_time"] - base[r["seed"]]["mean_waiting_time"]
            for r in rows
            if r["configuration"] == configuration and r["seed"] in base
        ]
        if diffs:
            mean, half = mean_ci(diffs)
            lines.append(f"- {configuration} − {first}: {mean:+.2f} s ± {half:.2f}")
    lines += [
        "",
        "Numbers: `seed002_twins_scheduling.csv` beside this report (one row per configuration and seed).",
        "",
    ]
    return lines
