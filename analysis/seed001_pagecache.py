"""Seed 001 Tables 1-3: the producer-consumer I/O benchmark on one node, regenerated.

The paper (section 4) measures a producer that writes N files and a consumer that reads
them, on one dual-socket node (2 x Xeon Platinum 8160F, 192 GB DDR4, an 800 GB Intel SSD
DC S3710) against a 750 GB Lustre 2.9 file system, node memory (a memory-mapped file
system) and the SSD, without (Table 1) and with (Table 2) O/S caching, for one pair and
for 36 concurrent pairs (Table 3). Here both applications are ``datasched_phases`` jobs
on one compute node: the producer's write phase names its N files as data items, the
consumer (a dependency of the producer, started when it completes, on the same node:
``schedulers/pinned.py``) reads them. Where the files live:

* Lustre: central storage; the OSTs are the platform's I/O servers (every file striped
  over all of them), an OST's rate is its server's front-end link, the node reaches them
  through its NIC. The paper gives neither the OST count nor rates: both are swept.
* SSD: the node's NVM endpoint at the S3710 800 GB datasheet rates (below).
* Memory: the node's NVM endpoint at the node's memory bandwidth (a tmpfs: its pages are
  the page cache, so caching changes nothing there, by construction). Swept.

Caching is the engine's node page cache (sim/src/model/page_cache.hpp): capacity and dirty
ratio are DRAM-endpoint properties of the platform. Table 1 runs without it. Every time is a
job's execution time from ``out_jobs.csv``: the producer's is the write time, the consumer's
the read time, their sum the table's number. Nothing is fitted; every unstated parameter is
swept and the report names the parameter set that satisfies the most claims together.
"""

from __future__ import annotations

import csv
import itertools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.seed000_common import Verdict, claims_table, verdict_rules
from datasched.analysis.verdicts import (
    Estimate,
    Judgement,
    SweepClaim,
    Word,
    by_construction,
    sweep,
)

GB = 1e9
HARDWARE = ("lustre", "ssd", "memory")
#: Intel SSD DC S3710 Series product specification (Intel, 2015), 800 GB model: sequential
#: read 550 MB/s, sequential write 460 MB/s (128 KB transfers, queue depth 32).
SSD_READ_BW = 550e6
SSD_WRITE_BW = 460e6
#: The node's compute-node NIC to Lustre: not stated; 100 Gbit/s Omni-Path (12.5 GB/s) is our
#: assumption (it never limits: the swept OSTs are slower).
NIC_BW = 12.5e9
#: The paper's Tables 1-3 (seconds): hardware -> file configuration -> (total, write, read);
#: Table 3 gives (max total, min total) per configuration.
PAPER_T1 = {
    "lustre": {
        "10x1GB": (291.41, 137.77, 153.64), "100x100MB": (216.68, 105.34, 111.34), "1000x10MB": (196.80, 102.42, 94.38)
    },
    "ssd": {"10x1GB": (61.26, 34.39, 26.87), "100x100MB": (54.53, 29.05, 25.48), "1000x10MB": (54.44, 28.09, 26.35)},
    "memory": {"10x1GB": (4.97, 3.02, 1.95), "100x100MB": (4.47, 2.99, 1.48), "1000x10MB": (4.70, 3.16, 1.54)},
}  # fmt: skip
PAPER_T2 = {
    "lustre": {
        "10x1GB": (144.36, 138.94, 5.38), "100x100MB": (104.26, 102.09, 2.18), "1000x10MB": (103.90, 102.24, 1.64)
    },
    "ssd": {"10x1GB": (36.12, 34.37, 2.04), "100x100MB": (30.73, 29.11, 1.62), "1000x10MB": (30.08, 28.28, 1.80)},
    "memory": {"10x1GB": (4.62, 3.00, 1.62), "100x100MB": (4.66, 3.04, 1.62), "1000x10MB": (4.91, 3.25, 1.66)},
}  # fmt: skip
PAPER_T3 = {
    "lustre": {"1x1GB": (978.25, 790.15), "10x100MB": (911.58, 591.07), "100x10MB": (906.87, 829.00)},
    "ssd": {"1x1GB": (152.00, 142.99), "10x100MB": (155.63, 138.14), "100x10MB": (158.12, 150.78)},
    "memory": {"1x1GB": (0.84, 0.77), "10x100MB": (1.06, 0.79), "100x10MB": (1.03, 0.66)},
}  # fmt: skip
SINGLE_FILES = {"10x1GB": (10, 1e9), "100x100MB": (100, 1e8), "1000x10MB": (1000, 1e7)}
MULTI_FILES = {"1x1GB": (1, 1e9), "10x100MB": (10, 1e8), "100x10MB": (100, 1e7)}
PAIRS = 36


@dataclass(frozen=True)
class PageCacheSpec:
    """The swept parameters (none of them is stated by the paper; see the config's notes)."""

    osts: tuple[tuple[int, float], ...]  # (OST count, rate of one OST in B/s) pairs
    memory_bws: tuple[float, ...]
    dirty_ratios: tuple[float, ...]
    jitters: tuple[float, ...]
    seeds: tuple[int, ...]
    cache_capacity: float = 192e9
    pairs: int = PAIRS


def parse_spec(data: Mapping[str, Any]) -> PageCacheSpec:
    return PageCacheSpec(
        osts=tuple((int(n), float(b)) for n, b in data["osts"]),
        memory_bws=tuple(float(v) for v in data["memory_bws"]),
        dirty_ratios=tuple(float(v) for v in data["dirty_ratios"]),
        jitters=tuple(float(v) for v in data["jitters"]),
        seeds=tuple(int(v) for v in data["seeds"]),
        cache_capacity=float(data.get("cache_capacity", 192e9)),
        pairs=int(data.get("pairs", PAIRS)),
    )


# --------------------------------------------------------------------------- platform


@dataclass(frozen=True)
class Hardware:
    """One storage configuration: where the files live and at which rates."""

    kind: str  # lustre | ssd | memory
    memory_bw: float
    ost_count: int = 1
    ost_bw: float = 1e9
    cache: float | None = None  # dirty ratio of the node page cache; None: no cache

    @property
    def name(self) -> str:
        parts = [self.kind, f"mem={self.memory_bw / GB:g}GBps"]
        if self.kind == "lustre":
            parts += [f"ost={self.ost_count}x{self.ost_bw / GB:g}GBps"]
        parts.append("nocache" if self.cache is None else f"dirty={self.cache:g}")
        return ",".join(parts)


def write_platform(hw: Hardware, capacity: float, path: Path) -> Path:
    """One compute node (a one-level fat-tree of 2: the second node stays idle), its DRAM at
    ``memory_bw``, its NVM endpoint the SSD (or, for ``memory``, DRAM-speed), ``ost_count``
    I/O servers whose front-end links are the OSTs, and the node page cache (platform
    parameters node.page_cache_*) unless the hardware has none."""
    from datasched.platforms import FatTreeParams, InterconnectParams, SystemParams, generate, write

    memory = hw.kind == "memory"
    cached = hw.cache is not None and not memory  # a tmpfs bypasses the page cache
    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=FatTreeParams(k=2, levels=1), link_bw=NIC_BW, link_lat=0),
        node={
            "dram_bw": hw.memory_bw,
            "dram_size": 192e9,
            "nvm_read_bw": hw.memory_bw if memory else SSD_READ_BW,
            "nvm_write_bw": hw.memory_bw if memory else SSD_WRITE_BW,
            "nvm_capacity": 800e9,
            **({"page_cache_capacity": capacity, "page_cache_dirty_ratio": hw.cache} if cached else {}),
        },
        storage={
            "io_servers": hw.ost_count,
            "node_nic_bw": NIC_BW,
            "server_frontend_bw": hw.ost_bw,
            "frontend_lat": 0,
            "backend_lat": 0,
        },
    )
    return write(generate(params), path)


# --------------------------------------------------------------------------- workload


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


# --------------------------------------------------------------------------- runs


@dataclass(frozen=True)
class ParamSet:
    ost_count: int
    ost_bw: float
    memory_bw: float
    dirty_ratio: float
    jitter: float

    @property
    def name(self) -> str:
        return (
            f"OST {self.ost_count}x{self.ost_bw / GB:g} GB/s, mem {self.memory_bw / GB:g} GB/s, "
            f"dirty {self.dirty_ratio:g}, jitter {self.jitter:g} s"
        )


def param_sets(spec: PageCacheSpec) -> list[ParamSet]:
    return [
        ParamSet(n, b, m, d, j)
        for (n, b), m, d, j in itertools.product(spec.osts, spec.memory_bws, spec.dirty_ratios, spec.jitters)
    ]


def _hardware(spec: PageCacheSpec, kind: str, p: ParamSet, cache: bool) -> Hardware:
    """The hardware of one run. Without a cache, the SSD's flows never cross the DRAM link
    and Lustre's cross it only as the read's last hop, which cannot limit them when the
    smallest memory rate exceeds the largest OST aggregate: those runs take the first memory
    rate only (one run instead of one per rate; the sweep's values are the same)."""
    never_limits = min(spec.memory_bws) >= max(n * b for n, b in spec.osts)
    shared = kind == "ssd" or (kind == "lustre" and never_limits)
    memory_bw = spec.memory_bws[0] if shared and not cache else p.memory_bw
    lustre = kind == "lustre"
    return Hardware(
        kind,
        memory_bw,
        p.ost_count if lustre else 1,
        p.ost_bw if lustre else 1e9,  # no item goes to central storage: unused
        p.dirty_ratio if cache and kind != "memory" else None,
    )


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
                hw = _hardware(spec, kind, p, cache)
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


def _lookup(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[Any, ...], list[Mapping[str, Any]]]:
    out: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for r in rows:
        out.setdefault((r["table"], r["hardware"], r["files"], r["jitter"]), []).append(r)
    return out


@dataclass(frozen=True)
class Tables:
    """Our Tables 1-3 at one parameter set: per seed, hardware -> files -> numbers."""

    t1: dict[str, dict[str, tuple[float, float, float]]]  # total, write, read (one pair)
    t2: dict[str, dict[str, tuple[float, float, float]]]
    t3: list[dict[str, dict[str, tuple[float, float]]]]  # per seed: (max total, min total)


def tables(spec: PageCacheSpec, p: ParamSet, rows: Sequence[Mapping[str, Any]]) -> Tables:
    index = _lookup(rows)

    def single(table: str, cache: bool) -> dict[str, dict[str, tuple[float, float, float]]]:
        out: dict[str, dict[str, tuple[float, float, float]]] = {}
        for kind in HARDWARE:
            hw = _hardware(spec, kind, p, cache)
            out[kind] = {}
            for config in SINGLE_FILES:
                (r,) = index[("1" if hw.cache is None else table, hw.name, config, 0.0)]
                w, rd = r["write"][0], r["read"][0]
                out[kind][config] = (w + rd, w, rd)
        return out

    t3: list[dict[str, dict[str, tuple[float, float]]]] = []
    seeds = spec.seeds if p.jitter > 0 else spec.seeds[:1]
    for seed in seeds:
        per: dict[str, dict[str, tuple[float, float]]] = {}
        for kind in HARDWARE:
            hw = _hardware(spec, kind, p, False)
            per[kind] = {}
            for config in MULTI_FILES:
                (r,) = [x for x in index[("3", hw.name, config, p.jitter)] if x["seed"] == seed]
                per[kind][config] = (max(r["write"]) + max(r["read"]), min(r["write"]) + min(r["read"]))
        t3.append(per)
    return Tables(single("1", False), single("2", True), t3)


# --------------------------------------------------------------------------- claims


def _paper_values() -> dict[str, float]:
    t1, t2, t3 = PAPER_T1, PAPER_T2, PAPER_T3
    var = {k: [mx / mn - 1 for mx, mn in t3[k].values()] for k in ("lustre", "ssd")}
    return {
        "t1.lustre-over-ssd": max(t1["lustre"][c][0] / t1["ssd"][c][0] for c in SINGLE_FILES),
        "t1.ssd-over-memory": max(t1["ssd"][c][0] / t1["memory"][c][0] for c in SINGLE_FILES),
        "t1.lustre-over-memory": max(t1["lustre"][c][0] / t1["memory"][c][0] for c in SINGLE_FILES),
        "t1.lustre-file-count": t1["lustre"]["10x1GB"][0] / t1["lustre"]["1000x10MB"][0] - 1,
        "t2.lustre-cache-gain": t1["lustre"]["10x1GB"][0] / t2["lustre"]["10x1GB"][0],
        "t2.ssd-cache-gain": t1["ssd"]["10x1GB"][0] / t2["ssd"]["10x1GB"][0],
        "t2.write-unchanged": 0.05,  # tolerance: |write with / write without - 1| <= 5 % (paper: +0.8 %, -0.1 %)
        "t2.cached-read-ssd": t2["ssd"]["10x1GB"][2],
        "t3.ssd-max-1GB": t3["ssd"]["1x1GB"][0],
        "t3.lustre-over-ssd": max(t3["lustre"][c][0] / t3["ssd"][c][0] for c in MULTI_FILES),
        "t3.differential": (t3["lustre"]["1x1GB"][0] / t3["ssd"]["1x1GB"][0])
        / (t1["lustre"]["10x1GB"][0] / t1["ssd"]["10x1GB"][0])
        - 1,
        "t3.variability-gap": sum(var["lustre"]) / 3 - sum(var["ssd"]) / 3,
        "t3.memory-36-faster": t1["memory"]["10x1GB"][0] / t3["memory"]["1x1GB"][0] - 1,
    }


PAPER = _paper_values()
CLAIMS = (
    SweepClaim("t1.lustre-over-ssd", PAPER["t1.lustre-over-ssd"]),
    SweepClaim("t1.ssd-over-memory", PAPER["t1.ssd-over-memory"]),
    SweepClaim("t1.lustre-over-memory", PAPER["t1.lustre-over-memory"]),
    SweepClaim("t1.lustre-file-count", PAPER["t1.lustre-file-count"]),
    SweepClaim("t2.lustre-cache-gain", PAPER["t2.lustre-cache-gain"]),
    SweepClaim("t2.ssd-cache-gain", PAPER["t2.ssd-cache-gain"]),
    SweepClaim("t2.write-unchanged", 0.0, kind="no_effect", tolerance=PAPER["t2.write-unchanged"]),
    SweepClaim("t2.cached-read-ssd", PAPER["t2.cached-read-ssd"]),
    SweepClaim("t3.ssd-max-1GB", PAPER["t3.ssd-max-1GB"]),
    SweepClaim("t3.lustre-over-ssd", PAPER["t3.lustre-over-ssd"]),
    SweepClaim("t3.differential", PAPER["t3.differential"], kind="direction"),
    SweepClaim("t3.variability-gap", PAPER["t3.variability-gap"], kind="direction"),
    SweepClaim("t3.memory-36-faster", PAPER["t3.memory-36-faster"], kind="direction"),
)
CLAIM_TEXT = {
    "t1.lustre-over-ssd": ("SSD up to ~5× faster than Lustre, one pair, no caching (max over file sets)", "4.76×"),
    "t1.ssd-over-memory": ("memory ~12× faster than SSD at best, one pair, no caching", "12.3×"),
    "t1.lustre-over-memory": ("memory ~58× faster than Lustre, one pair, no caching", "58.6×"),
    "t1.lustre-file-count": ("Lustre: 10×1 GB slower than 1000×10 MB (291.41 vs 196.80 s)", "+48 %"),
    "t2.lustre-cache-gain": ("caching: Lustre 10×1 GB 291.41 → 144.36 s", "2.02×"),
    "t2.ssd-cache-gain": ("caching: SSD 10×1 GB 61.26 → 36.12 s", "1.70×"),
    "t2.write-unchanged": ("producer (write) time unchanged by caching", "+0.8 % (Lustre), −0.1 % (SSD)"),
    "t2.cached-read-ssd": ("consumer reads cached data: SSD 10×1 GB read 2.04 s", "2.04 s"),
    "t3.ssd-max-1GB": ("36 pairs, SSD 1×1 GB: max time 152.00 s", "152.00 s"),
    "t3.lustre-over-ssd": ("36 pairs: Lustre/SSD 5.7–6.4×", "6.44×"),
    "t3.differential": ("Lustre/SSD larger for 36 pairs than for one (6.4× vs 4.8×, 1 GB files)", "+35 %"),
    "t3.variability-gap": ("variability (max/min − 1): Lustre 9–54 % > SSD 5–12 %", "+21 points"),
    "t3.memory-36-faster": ("memory: 36 pairs faster than one pair (0.84 vs 4.97 s)", "5.9× faster"),
}


def _estimate(values: Sequence[float], why: str) -> Estimate:
    if len(values) == 1 or all(v == values[0] for v in values):
        return Estimate.deterministic(values[0], why)
    return Estimate.over_seeds(values)


def our_values(spec: PageCacheSpec, p: ParamSet, rows: Sequence[Mapping[str, Any]]) -> dict[str, Estimate]:
    t = tables(spec, p, rows)
    one = "one deterministic run (no randomness in a single pair)"
    multi = "every seed gives the same run (no start jitter)" if p.jitter == 0 else "over seeds"

    def t3(f: Any) -> Estimate:
        return _estimate([f(s) for s in t.t3], multi)

    def var(s: Mapping[str, Mapping[str, tuple[float, float]]], kind: str) -> float:
        return sum(mx / mn - 1 for mx, mn in s[kind].values()) / len(s[kind])

    t1, t2 = t.t1, t.t2

    def most(a: str, b: str) -> Estimate:  # the largest ratio a / b over the file sets, one pair
        return Estimate.deterministic(max(t1[a][c][0] / t1[b][c][0] for c in SINGLE_FILES), one)

    return {
        "t1.lustre-over-ssd": most("lustre", "ssd"),
        "t1.ssd-over-memory": most("ssd", "memory"),
        "t1.lustre-over-memory": most("lustre", "memory"),
        "t1.lustre-file-count": Estimate.deterministic(
            t1["lustre"]["10x1GB"][0] / t1["lustre"]["1000x10MB"][0] - 1, one
        ),
        "t2.lustre-cache-gain": Estimate.deterministic(t1["lustre"]["10x1GB"][0] / t2["lustre"]["10x1GB"][0], one),
        "t2.ssd-cache-gain": Estimate.deterministic(t1["ssd"]["10x1GB"][0] / t2["ssd"]["10x1GB"][0], one),
        "t2.write-unchanged": Estimate.deterministic(
            max(abs(t2[k]["10x1GB"][1] / t1[k]["10x1GB"][1] - 1) for k in ("lustre", "ssd")), one
        ),
        "t2.cached-read-ssd": Estimate.deterministic(t2["ssd"]["10x1GB"][2], one),
        "t3.ssd-max-1GB": t3(lambda s: s["ssd"]["1x1GB"][0]),
        "t3.lustre-over-ssd": t3(lambda s: max(s["lustre"][c][0] / s["ssd"][c][0] for c in MULTI_FILES)),
        "t3.differential": t3(
            lambda s: (s["lustre"]["1x1GB"][0] / s["ssd"]["1x1GB"][0])
            / (t1["lustre"]["10x1GB"][0] / t1["ssd"]["10x1GB"][0])
            - 1
        ),
        "t3.variability-gap": t3(lambda s: var(s, "lustre") - var(s, "ssd")),
        "t3.memory-36-faster": t3(lambda s: t1["memory"]["10x1GB"][0] / s["memory"]["1x1GB"][0] - 1),
    }  # fmt: skip


def judge(
    spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, Judgement], dict[str, dict[str, Estimate]], str, list[str]]:
    """Verdicts over the sweep, our values per set, the set satisfying the most claims
    together (first in sweep order on ties) and the claims it fails."""
    ours = {p.name: our_values(spec, p, rows) for p in param_sets(spec)}
    verdicts = sweep(CLAIMS, ours)
    score = {
        name: [c.name for c in CLAIMS if c.judge(values[c.name]).word is not Word.REPRODUCED]
        for name, values in ours.items()
    }
    best = min(score, key=lambda n: len(score[n]))
    return verdicts, ours, best, score[best]


def verdict_rows(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]]) -> tuple[list[Verdict], str, list[str]]:
    verdicts, ours, best, fails = judge(spec, rows)
    out = []
    for c in CLAIMS:
        values = [v[c.name].mean for v in ours.values()]
        text, paper = CLAIM_TEXT[c.name]
        at_best = ours[best][c.name].mean
        out.append(
            Verdict(
                c.name,
                text,
                paper,
                f"{_fmt(at_best)} at the best set (sweep {_fmt(min(values))}–{_fmt(max(values))})",
                verdicts[c.name],
            )
        )
    out.append(
        Verdict(
            "t2.memory-unaffected",
            "caching does not change the memory file system's times",
            "4.97 → 4.62 s (10×1 GB)",
            "identical",
            by_construction(
                "the memory configuration is a tmpfs-like device with no page cache in front (its pages are the cache)"
            ),
        )
    )
    return out, best, fails


def _fmt(v: float) -> str:
    return f"{v:.3g}"


# --------------------------------------------------------------------------- outputs


def write_table(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], best: str, path: Path) -> None:
    """Tables 1-3 at the best parameter set, the paper's beside ours (the plotted numbers)."""
    (p,) = [q for q in param_sets(spec) if q.name == best]
    t = tables(spec, p, rows)
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle, lineterminator="\n")
        w.writerow(
            [
                "table",
                "hardware",
                "files",
                "paper_total",
                "paper_write_or_min",
                "paper_read",
                "ours_total",
                "ours_write_or_min",
                "ours_read",
            ]
        )
        for table, paper, ours in (("1", PAPER_T1, t.t1), ("2", PAPER_T2, t.t2)):
            for kind in HARDWARE:
                for config in SINGLE_FILES:
                    pp, oo = paper[kind][config], ours[kind][config]
                    w.writerow([table, kind, config, *pp, *(f"{v:.4f}" for v in oo)])
        for kind in HARDWARE:
            for config in MULTI_FILES:
                mx = max(s[kind][config][0] for s in t.t3)
                mn = min(s[kind][config][1] for s in t.t3)
                w.writerow(["3", kind, config, *PAPER_T3[kind][config], "", f"{mx:.4f}", f"{mn:.4f}", ""])


def plot(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], best: str, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    (p,) = [q for q in param_sets(spec) if q.name == best]
    t = tables(spec, p, rows)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    colours = {"lustre": "tab:red", "ssd": "tab:blue", "memory": "tab:green"}
    Numbers = Mapping[str, Mapping[str, tuple[float, ...]]]
    panels: list[tuple[str, Numbers, Numbers | None, Mapping[str, tuple[int, float]]]] = [
        ("Table 1 (no caching, 1 pair)", PAPER_T1, t.t1, SINGLE_FILES),
        ("Table 2 (caching, 1 pair)", PAPER_T2, t.t2, SINGLE_FILES),
        ("Table 3 (no caching, 36 pairs, max)", PAPER_T3, None, MULTI_FILES),
    ]
    for ax, (label, paper, ours, configs) in zip(axes, panels, strict=True):
        x = 0.0
        ticks, names = [], []
        for kind in HARDWARE:
            for config in configs:
                pv = paper[kind][config][0]
                ov = ours[kind][config][0] if ours is not None else max(s[kind][config][0] for s in t.t3)
                ax.bar(x - 0.2, pv, 0.4, color=colours[kind], alpha=0.45, hatch="//", edgecolor="black")
                ax.bar(x + 0.2, ov, 0.4, color=colours[kind], edgecolor="black")
                ticks.append(x)
                names.append(config)
                x += 1
            x += 0.5
        ax.set_yscale("log")
        ax.set_xticks(ticks, names, fontsize=7, rotation=35, ha="right")
        ax.set_title(label, fontsize=10)
        ax.set_ylabel("time (s), log scale")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(
        handles=[
            matplotlib.patches.Patch(facecolor="grey", alpha=0.45, hatch="//", edgecolor="black", label="paper"),
            matplotlib.patches.Patch(facecolor="grey", edgecolor="black", label="ours"),
            *(matplotlib.patches.Patch(facecolor=c, label=k) for k, c in colours.items()),
        ],
        fontsize=8,
        loc="upper right",
    )
    fig.suptitle(f"{title}\nours at {best}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def format_report(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], variant: str, figure: str) -> str:
    verdicts, best, fails = verdict_rows(spec, rows)
    (p,) = [q for q in param_sets(spec) if q.name == best]
    t = tables(spec, p, rows)
    lines = [
        f"# Seed 001 Tables 1–3: producer–consumer I/O on one node ({variant})",
        "",
        f"![Tables 1-3]({figure})",
        "",
        "Regenerated by `analysis/seed001_pagecache.py` (rule `seed001_pagecache_artifact`): a producer job",
        "writes N files (named data items) and a consumer job on the same node reads them",
        "(`schedulers/pinned.py`, engine compute sharing), through Lustre-like central storage (the OSTs are",
        "I/O servers, every file striped over all of them), the node SSD, or node memory; Table 2 adds the",
        "engine's node page cache (`sim/src/model/page_cache.hpp`, `docs/storage.md`). Times are the jobs'",
        "execution times. Table 3 runs 36 pairs at once on the node.",
        "",
        "**Parameters.** SSD: Intel SSD DC S3710 800 GB datasheet, 550 MB/s read, 460 MB/s write (stated",
        "hardware, not fitted). Page cache capacity 192 GB (the node's DDR4; an upper bound). NIC 12.5 GB/s",
        "(assumption, never the bottleneck). Swept, because the paper does not give them: Lustre (OST count,",
        f"OST rate) {[f'{n}x{b / GB:g} GB/s' for n, b in spec.osts]}; memory bandwidth",
        f"{[f'{b / GB:g} GB/s' for b in spec.memory_bws]} (21.3 GB/s: one DDR4-2666 channel, about what one",
        "copying core reaches; 255.9 GB/s: the node's 2 × 6 channels); dirty ratio",
        f"{list(spec.dirty_ratios)} (0: write-through, as when the producer's close/fsync waits for the device;",
        f"0.2: Linux's default); start jitter of the 36 producers {list(spec.jitters)} s (U[0, jitter), seeds",
        f"{list(spec.seeds)}). No per-file (metadata) cost is modelled.",
        "",
        f"**Best parameter set** (most claims reproduced together): {best}. It fails: "
        + (", ".join(f"`{f}`" for f in fails) if fails else "none")
        + ".",
        "",
        "## Claims",
        "",
        *claims_table(verdicts),
        "",
        *verdict_rules(),
        "",
        "**Model predictions vs bookkeeping.** Every row above except `t2.memory-unaffected` is a model",
        "prediction: the times come from SimGrid sharing the stated device rates among the flows of the",
        "jobs and of the page cache (hits on the DRAM link, flushes on the device). `t2.memory-unaffected`",
        "is by construction (no cache in front of a memory file system). The model is bandwidth-bound, so the",
        "file count changes nothing (no per-file metadata or client cost: `t1.lustre-file-count` is exactly 0),",
        "and with the 36 producers started together the Lustre/SSD ratio is the single pair's (the",
        "differential is exactly 0); a differential and a variability gap appear only with a start jitter, a",
        "parameter we chose (early consumers read while late producers write, and how much that overlaps",
        "differs between the SSD's separate read and write links and the OSTs): these are model outcomes",
        "of an assumption, not of a mechanism the paper names (Lustre lock and RPC contention, CPU-cache",
        "effects for the small memory runs are not in the model). `t3.memory-36-faster` holds at",
        "some sets for a reason that is not the paper's: each of the 36 pairs moves 1 GB against the single",
        "pair's 10 GB, and with a start jitter the short memory runs hardly overlap. Our memory times are far",
        "below the paper's because the model has no per-process copy limit (one stream gets the whole DRAM",
        "link), and our cached reads are DRAM-rate copies where the paper's cost 1.6–5.4 s.",
        "",
        f"## Tables at the best set ({best})",
        "",
        "| table | hardware | files | paper total (write/read) | ours total (write/read) |",
        "|---|---|---|---|---|",
    ]
    for table, paper, ours in (("1", PAPER_T1, t.t1), ("2", PAPER_T2, t.t2)):
        for kind in HARDWARE:
            for config in SINGLE_FILES:
                pp, oo = paper[kind][config], ours[kind][config]
                lines.append(
                    f"| {table} | {kind} | {config} | {pp[0]:.2f} ({pp[1]:.2f}/{pp[2]:.2f}) | "
                    f"{oo[0]:.2f} ({oo[1]:.2f}/{oo[2]:.2f}) |"
                )
    for kind in HARDWARE:
        for config in MULTI_FILES:
            mx = max(s[kind][config][0] for s in t.t3)
            mn = min(s[kind][config][1] for s in t.t3)
            pp3 = PAPER_T3[kind][config]
            lines.append(f"| 3 (max (min)) | {kind} | {config} | {pp3[0]:.2f} ({pp3[1]:.2f}) | {mx:.2f} ({mn:.2f}) |")
    lines += [
        "",
        f"{len(rows)} simulations; every parameter set's values: `{variant}` results folder, `values.json`.",
        "",
    ]
    return "\n".join(lines)


def write_values(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    ours = {p.name: {k: e.mean for k, e in our_values(spec, p, rows).items()} for p in param_sets(spec)}
    path.write_text(json.dumps({"runs": list(rows), "values": ours}, indent=1, sort_keys=True) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Rebuilds a report from a run's ``values.json`` (its ``runs``) and the config, without
    running anything: ``python -m datasched.analysis.seed001_pagecache VALUES CONFIG VARIANT OUT``."""
    import sys

    import yaml

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 4:
        print("usage: python -m datasched.analysis.seed001_pagecache VALUES.json CONFIG.yaml VARIANT REPORT.md")
        return 2
    values, config, variant, out = args
    spec = parse_spec(yaml.safe_load(Path(config).read_text())["artifacts"]["seed001_pagecache"])
    rows = json.loads(Path(values).read_text())["runs"]
    Path(out).write_text(format_report(spec, rows, variant, "seed001_tables1-3.png"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
