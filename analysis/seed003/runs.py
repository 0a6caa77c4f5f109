"""Seed 003 step 2, running: one case's engine inputs (``datasched-sim --qos-staging``,
sim/src/qos/README.md) under every noise, and its rows (``runs.csv``)."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.seed003.spec import (
    AWP_GRID,
    AWP_HALO,
    CG_EXCHANGE,
    CLIENTS,
    MIB,
    NOISES,
    STAGING,
    Case,
    Seed003Spec,
)
from datasched.scenarios import build_document


def platform_params(ssd: float) -> dict[str, Any]:
    """8 client nodes, one staging server (SSD writing at ``ssd`` B/s), one PFS server."""
    return {"clients": 8, "staging_servers": 1, "pfs_servers": 1, "ssd_write_bw": ssd, "ssd_read_bw": max(1.4e9, ssd)}


def experiment(
    benchmark: dict[str, Any],
    noise: str,
    granularity: float,
    spec: Seed003Spec,
    arbitration: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``noise``: "none", or the SL of one dd writer per benchmark node. ``arbitration``:
    further fields of the experiment's arbitration (sim/src/qos/README.md), e.g.
    ``across_tables`` or ``high_limit``; the artifact uses the defaults (pieces, the paper's
    unbounded high_limit), bench/seed003_arbitration the others. Built through the scenario's
    model (datasched.scenarios): a field the engine would refuse is a ScenarioDocumentError
    naming it."""
    doc: dict[str, Any] = {
        "seed": spec.seed,
        "arbitration": {"granularity": granularity} | dict(arbitration or {}),
        "staging": STAGING,
        "benchmark": benchmark,
    }
    if noise != "none":
        doc["noise"] = {
            "writers": list(benchmark["hosts"]),
            "sl": int(noise),
            "block_size": MIB,
            "jitter": spec.noise_jitter,
        }
    return build_document("qos-staging", doc)


#: The collectives' largest message: OSU's default maximum for collectives (1 MiB), the size
#: of the paper's Fig. 7 claim.
COLLECTIVE_MAX = MIB


def micro_benchmark(kind: str, spec: Seed003Spec) -> dict[str, Any]:
    """An OSU benchmark between client-0 and client-1 (two ranks, as every micro-benchmark of
    the paper) on SL0; starts after 10 ms of noise. osu_latency / osu_bw / osu_bibw over every
    size; osu_alltoall / osu_allreduce (collectives) over the sizes up to ``COLLECTIVE_MAX``,
    allreduce by MPICH's algorithm rule (sim/src/qos/README.md: MVAPICH2's is not stated)."""
    bench: dict[str, Any] = {"kind": kind, "hosts": CLIENTS[:2], "sizes": list(spec.sizes), "sl": 0, "start": 0.01}
    if kind in ("latency", "alltoall", "allreduce"):
        bench |= {"iterations": spec.latency_iterations, "warmup": max(1, spec.latency_iterations // 10)}
    else:
        bench |= {"iterations": spec.bandwidth_iterations, "warmup": 1, "window": spec.window}
    if kind in COLLECTIVES:
        bench["sizes"] = [size for size in spec.sizes if size <= COLLECTIVE_MAX]
    return bench


POINT_TO_POINT = ("latency", "bandwidth", "bibw")


COLLECTIVES = ("alltoall", "allreduce")


def stencil_benchmark(spec: Seed003Spec, compute: float) -> dict[str, Any]:
    return {
        "kind": "stencil",
        "hosts": CLIENTS,
        "grid": AWP_GRID,
        "iterations": spec.stencil_iterations,
        "compute_seconds": compute,
        "halo_bytes": AWP_HALO,
        "start": 0.01,
    }


def cg_benchmark(spec: Seed003Spec) -> dict[str, Any]:
    return {
        "kind": "cg",
        "hosts": CLIENTS,
        "iterations": spec.cg_iterations,
        "compute_seconds": spec.cg_compute,
        "exchange_bytes": CG_EXCHANGE,
        "start": 0.01,
    }


def run_engine(doc: dict[str, Any], platform: Path, prefix: Path) -> tuple[list[dict[str, str]], dict[str, str]]:
    """Runs one experiment; returns its benchmark rows and its summary row (solver, flows at
    once). RuntimeError with the engine's message."""
    from datasched.engine import run_experiment_mode

    run_experiment_mode("qos-staging", doc, platform, prefix)
    with open(f"{prefix}_benchmark.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(f"{prefix}_summary.csv", newline="") as f:
        return rows, next(csv.DictReader(f))


CASE_COLUMNS = (
    "bench",
    "ssd",
    "granularity",
    "noise",
    "compute",
    "size",
    "latency",
    "bandwidth",
    "runtime",
    "comm",
    "solver",
    "max_flows",
)


def case_runs(spec: Seed003Spec, case: Case) -> list[tuple[str, float, dict[str, Any]]]:
    """The runs of ``case``, in order: (noise, compute seconds, benchmark)."""
    if case.bench in ("micro", "collective"):
        kinds = POINT_TO_POINT if case.bench == "micro" else COLLECTIVES
        return [(n, 0.0, micro_benchmark(k, spec)) for k in kinds for n in NOISES]
    if case.bench == "weights":  # Figs. 8 and 9: the largest message of each benchmark
        runs = []
        for kind in POINT_TO_POINT + COLLECTIVES:
            bench = micro_benchmark(kind, spec)
            runs += [(str(sl), 0.0, bench | {"sizes": [max(bench["sizes"])]}) for sl in spec.weight_sls]
        return runs
    if case.bench == "stencil":
        return [(n, c, stencil_benchmark(spec, c)) for c in spec.stencil_compute for n in NOISES]
    return [(n, spec.cg_compute, cg_benchmark(spec)) for n in NOISES]


def run_case(
    spec: Seed003Spec, case: Case, work: Path, out_csv: Path, arbitration: Mapping[str, Any] | None = None
) -> int:
    """Simulates ``case`` under every noise; one row per benchmark row."""
    from datasched.platforms import StagingParams, generate, write

    platform = write(generate(StagingParams(**platform_params(case.ssd))), work / "platform.xml")
    rows = []
    for i, (noise, compute, bench) in enumerate(case_runs(spec, case)):
        results, summary = run_engine(
            experiment(bench, noise, case.granularity, spec, arbitration), platform, work / f"run{i}" / "out"
        )
        for r in results:
            rows.append(
                {
                    "bench": ("weights-" if case.bench == "weights" else "") + r["benchmark"],
                    "ssd": case.ssd,
                    "granularity": case.granularity,
                    "noise": noise,
                    "compute": compute,
                    "size": int(r["size"]) if r["size"] else "",
                    "latency": _num(r["latency"]),
                    "bandwidth": _num(r["bandwidth"]),
                    "runtime": _num(r["runtime"]),
                    "comm": _num(r["communication_time"]),
                    "solver": summary["solver"],
                    "max_flows": int(summary["max_concurrent_activities"]),
                }
            )
    write_csv(out_csv, CASE_COLUMNS, rows)
    return len(rows)


def _num(text: str) -> float | str:
    return float(text) if text else ""
