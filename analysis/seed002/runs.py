"""Seed 002 step 2, the runs: one test of the paper as an engine input (``datasched-sim
--io-forwarding``, sim/src/forwarding/README.md), every configuration x seed of a case run, and
its rows (``runs.csv``: makespans, request sizes, server occupancy)."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.seed002.spec import CONFIGURATIONS, KIB, PAPER, Case, Seed002Spec
from datasched.scenarios import build_document


def paper_experiment(
    *,
    scheduler: str,
    pattern: str,
    operation: str,
    request_size: int,
    seed: int,
    window: float | None = 0.008,
    hdd_alpha: float = 0.1,
    hdd_seek_scale: float = 0.0,
    server_cache: dict[str, Any] | None = None,
    scale: float = 1.0,
    jitter: float = 0.001,
    stripe_size: int = 64 * KIB,
    max_in_flight: int = 16,
    aggregation_limit: int = 16,
    applications: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One test of the paper as an experiment document. ``scheduler`` is fifo, hbrr, twins,
    twins-drain (TWINS with the engine's drain option) or direct (no forwarding). ``scale`` < 1
    shrinks bytes per process (quick variants); the node, forwarder and server counts stay the
    paper's. ``applications`` overrides the one 128-process application (IFER). Built through the
    scenario's model (datasched.scenarios): a field the engine would refuse is a
    ScenarioDocumentError naming it."""
    nodes, ppn = PAPER["nodes"], PAPER["processes_per_node"]
    per_process = max(request_size, int(PAPER["bytes_per_process"] * scale) // request_size * request_size)
    apps = applications or [
        {
            "name": "A",
            "processes": nodes * ppn,
            "pattern": pattern,
            "operation": operation,
            "request_size": request_size,
            "bytes_per_process": per_process,
            "jitter": jitter,
        }
    ]
    doc: dict[str, Any] = {
        "mode": "direct" if scheduler == "direct" else "forwarded",
        "seed": seed,
        "clients": {"nodes": nodes, "processes_per_node": ppn},
        "servers": {"count": PAPER["servers"], "stripe_size": stripe_size, "hdd_alpha": hdd_alpha},
        "applications": apps,
    }
    if hdd_seek_scale > 0:
        doc["servers"]["hdd_seek_scale"] = hdd_seek_scale
    if server_cache:
        doc["servers"]["cache"] = dict(server_cache)
    if scheduler != "direct":
        doc["forwarding"] = {
            "forwarders": PAPER["forwarders"],
            "scheduler": "twins" if scheduler == "twins-drain" else scheduler,
            "max_in_flight": max_in_flight,
            "aggregation_limit": aggregation_limit,
            "mapping": "block",
        }
        if scheduler in ("twins", "twins-drain"):
            doc["forwarding"]["window"] = window if window is not None else 0.008
        if scheduler == "twins-drain":
            doc["forwarding"]["drain"] = True
    return build_document("io-forwarding", doc)


def ifer_applications(*, dt: float, operation: str, request_size: int, scale: float, jitter: float) -> list[dict]:
    """IFER: two applications of 64 processes, shared file 1D-strided; dt > 0: A starts
    first, B dt seconds later; dt < 0: B first."""
    per_process = max(request_size, int(PAPER["bytes_per_process"] * scale) // request_size * request_size)
    base = {
        "processes": 64,
        "pattern": "shared_strided",
        "operation": operation,
        "request_size": request_size,
        "bytes_per_process": per_process,
        "jitter": jitter,
    }
    return [base | {"name": "A", "start": max(0.0, -dt)}, base | {"name": "B", "start": max(0.0, dt)}]


def case_experiment(case: Case, spec: Seed002Spec, configuration: str, seed: int) -> dict[str, Any]:
    """The experiment document of ``case`` under ``configuration`` and ``seed``."""
    scheduler, window = CONFIGURATIONS[configuration]
    apps = None
    if case.kind == "ifer":
        apps = ifer_applications(
            dt=case.dt,
            operation=case.operation,
            request_size=case.request_size,
            scale=spec.scale,
            jitter=spec.jitter,
        )
    return paper_experiment(
        scheduler=scheduler,
        window=window,
        pattern=case.pattern,
        operation=case.operation,
        request_size=case.request_size,
        seed=seed,
        hdd_alpha=case.hdd_alpha,
        hdd_seek_scale=case.hdd_seek_scale,
        server_cache=spec.cache(case.cache),
        scale=spec.scale,
        jitter=spec.jitter,
        applications=apps,
    )


def run_experiment(doc: dict[str, Any], platform: Path, prefix: Path) -> dict[str, float]:
    """Runs the engine; returns each application's makespan. Raises RuntimeError with the
    engine's message on failure."""
    from datasched.engine import run_experiment_mode

    run_experiment_mode("io-forwarding", doc, platform, prefix)
    return read_makespans(Path(f"{prefix}_applications.csv"))


def read_makespans(path: Path) -> dict[str, float]:
    with open(path, newline="") as f:
        return {r["application"]: float(r["makespan"]) for r in csv.DictReader(f)}


CASE_COLUMNS = (
    "configuration",
    "seed",
    "application",
    "makespan",
    "mean_client_request_size",
    "mean_dispatch_size",
    "mean_server_request_size",
    "mean_queue_wait",
    "server_concurrency",
    "server_balance",
    "mean_arrival_gap",
)


def run_case(spec: Seed002Spec, case: Case, platform: Path, work: Path, out_csv: Path) -> int:
    """Simulates every configuration x seed of ``case``; writes one row per application and
    run (sizes and waits are means over forwarders, weighted by counts) to ``out_csv``."""
    rows = []
    for configuration in spec.configurations:
        for seed in spec.seeds:
            prefix = work / configuration / f"seed={seed}" / "out"
            makespans = run_experiment(case_experiment(case, spec, configuration, seed), platform, prefix)
            sizes = forwarder_sizes(Path(f"{prefix}_forwarders.csv")) | server_occupancy(Path(f"{prefix}_servers.csv"))
            for application, makespan in makespans.items():
                rows.append(
                    {"configuration": configuration, "seed": seed, "application": application, "makespan": makespan}
                    | sizes
                )
    write_csv(out_csv, CASE_COLUMNS, rows)
    return len(rows)


def forwarder_sizes(path: Path) -> dict[str, float]:
    """Mean request sizes leaving clients, leaving forwarders and arriving at servers, and the
    mean queue wait, over all forwarders (NaN in direct mode: no forwarder)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return dict.fromkeys(CASE_COLUMNS[4:8], math.nan)

    def weighted(value: str, count: str) -> float:
        total = sum(int(r[count]) for r in rows)
        return sum(float(r[value]) * int(r[count]) for r in rows) / total if total else math.nan

    return {
        "mean_client_request_size": weighted("mean_client_request_size", "client_requests"),
        "mean_dispatch_size": weighted("mean_dispatch_size", "dispatches"),
        "mean_server_request_size": weighted("mean_server_request_size", "server_requests"),
        "mean_queue_wait": weighted("mean_queue_wait", "client_requests"),
    }


def server_occupancy(path: Path) -> dict[str, float]:
    """``server_concurrency``: disk activities at once on a busy server (the n of the HDD
    curve), averaged over servers weighted by busy time; ``server_balance``: least busy
    server's busy time / most busy server's (1 = every server as busy); ``mean_arrival_gap``:
    the pace of server requests (:func:`arrival_gap`)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    busy = [float(r["busy_time"]) for r in rows]
    total = math.fsum(busy)
    concurrency = math.fsum(float(r["mean_concurrency"]) * b for r, b in zip(rows, busy, strict=True))
    return {
        "server_concurrency": concurrency / total if total else math.nan,
        "server_balance": min(busy) / max(busy) if max(busy) > 0 else math.nan,
        "mean_arrival_gap": arrival_gap(rows),
    }


def arrival_gap(servers: list[dict[str, str]]) -> float:
    """Seconds between consecutive server requests arriving at a server (the paper's request
    pace: 26.09 µs for reads, 50.92 µs for writes): per server and operation with at least two
    arrivals, (last − first) / (requests − 1); the mean over those (ours: the paper does not say
    how it averaged). A run has one operation, so this is its pace. NaN when no server had two."""
    gaps = [
        (float(r[f"last_{op}_arrival"]) - float(r[f"first_{op}_arrival"])) / (int(r[f"{op}_requests"]) - 1)
        for r in servers
        for op in ("read", "write")
        if int(r[f"{op}_requests"]) > 1
    ]
    return math.fsum(gaps) / len(gaps) if gaps else math.nan
