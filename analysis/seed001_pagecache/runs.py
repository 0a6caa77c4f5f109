"""Seed 001 Tables 1-3 step 2b, the runs: the producer-consumer workload, one benchmark run on
the engine, and every distinct run the parameter sets need (each once)."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_pagecache.hardware import Hardware, hardware_for, write_platform
from datasched.analysis.seed001_pagecache.spec import HARDWARE, MULTI_FILES, SINGLE_FILES, PageCacheSpec, param_sets


def workload(kind: str, pairs: int, files: int, size: float, jitter: float, seed: int) -> dict[str, Any]:
    """``pairs`` producers (job 2i) writing ``files`` files of ``size`` bytes each and their
    consumers (job 2i+1, dependency on 2i) reading them; producer i is submitted at
    U[0, jitter) s (seeded), its consumer at 0 (it waits for its producer)."""
    rng = random.Random(seed)
    to = {"to": "central"} if kind == "lustre" else {}
    jobs, profiles = [], {}
    storage = {"allocation": "internal", "stg_k": 1, "mem_hit_pct": 0, "remote_pct": 0, "access": "local", "san_k": 1}
    for i in range(pairs):
        names = [f"p{i}-f{j}" for j in range(files)]
        total = files * size
        for role, phase_kind in (("w", "write"), ("r", "read")):
            items = [{"name": n, "bytes": size, **(to if role == "w" else {})} for n in names]
            profiles[f"{role}{i}"] = {
                "type": "datasched_phases",
                "version": 1,
                "res": 1,
                "io_tasks": 1,
                "storage": storage,
                "phases": [{"kind": phase_kind, "bytes": total, "nominal_seconds": 0, "items": items}],
            }
        start = rng.uniform(0, jitter) if jitter > 0 else 0.0
        jobs.append({"id": 2 * i, "subtime": round(start, 6), "res": 1, "profile": f"w{i}"})
        jobs.append({"id": 2 * i + 1, "subtime": 0, "res": 1, "profile": f"r{i}", "dependencies": [2 * i]})
    return {"nb_res": 2, "jobs": jobs, "profiles": profiles}


def run_one(
    hw: Hardware, capacity: float, pairs: int, files: int, size: float, jitter: float, seed: int, work: Path
) -> dict[str, Any]:
    """One benchmark run: per pair (write s, read s), from out_jobs.csv."""
    from datasched.runner import run_simulation

    work.mkdir(parents=True, exist_ok=True)
    platform = write_platform(hw, capacity, work / "platform.xml")
    path = work / "workload.json"
    path.write_text(json.dumps(workload(hw.kind, pairs, files, size, jitter, seed), sort_keys=True))
    result = run_simulation(
        platform,
        path,
        "pinned",
        work / "out",
        scheduler_options={"hosts": [0]},
        engine_args=["--enable-compute-sharing"],
        in_process=True,
    )
    with open(result.jobs_csv, newline="") as handle:
        rows = {int(r["job_id"].split("!")[-1]): r for r in csv.DictReader(handle)}
    bad = [k for k, r in rows.items() if r["final_state"] != "COMPLETED_SUCCESSFULLY"]
    if bad or len(rows) != 2 * pairs:
        raise RuntimeError(f"{work}: jobs {bad} did not complete ({len(rows)} of {2 * pairs} rows)")
    times = [(float(rows[2 * i]["execution_time"]), float(rows[2 * i + 1]["execution_time"])) for i in range(pairs)]
    return {"write": [t[0] for t in times], "read": [t[1] for t in times]}


def run_all(spec: PageCacheSpec, work: Path) -> list[dict[str, Any]]:
    """Every distinct run the parameter sets need (each once), one row per run and pair
    aggregate: table, hardware, files, jitter, seed, write/read per pair."""
    rows: list[dict[str, Any]] = []
    done: set[tuple[Any, ...]] = set()
    for p in param_sets(spec):
        for kind in HARDWARE:
            for table, cache, configs, pairs in (
                ("1", False, SINGLE_FILES, 1),
                ("2", True, SINGLE_FILES, 1),
                ("3", False, MULTI_FILES, spec.pairs),
            ):
                hw = hardware_for(spec, kind, p, cache)
                if kind == "memory" and table == "2":
                    continue  # no cache in front of a memory file system: Table 1's runs (by construction)
                jitter = p.jitter if table == "3" else 0.0
                seeds = spec.seeds if jitter > 0 else spec.seeds[:1]
                for config, (files, size) in configs.items():
                    for seed in seeds:
                        key = (table, hw, config, jitter, seed)
                        if key in done:
                            continue
                        done.add(key)
                        folder = work / f"t{table}" / hw.name.replace(",", "_") / config / f"j{jitter:g}-s{seed}"
                        times = run_one(hw, spec.cache_capacity, pairs, files, size, jitter, seed, folder)
                        rows.append(
                            {"table": table, "hardware": hw.name, "kind": kind, "files": config,
                             "jitter": jitter, "seed": seed, **times}
                        )  # fmt: skip
    return rows
