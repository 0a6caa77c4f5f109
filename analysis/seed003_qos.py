"""Seed 003 (QoS-aware data staging on InfiniBand): the paper's experiments as engine inputs
(``datasched-sim --qos-staging``, sim/src/qos/README.md), a runner, and the report.

What the paper states and we take: two MPI ranks on two client nodes (OSU latency / bandwidth,
messages up to 4 MB) while one I/O thread per node streams 1 MB writes (dd, direct I/O) to one
staging server with a PCIe SSD; I/O on SL0 (shared with MPI) or SL1 (OpenSM's Figure 4 table:
SL0 high, SL1-7 low with weights 2^sl); SL1-7 for the weights study; AWP-ODC with a 256³ grid on
64 ranks as 4 × 4 × 4, 2001 iterations; NAS CG on 64 ranks over 8 client nodes. What it does not
state is ours, chosen here and never fitted (README of the artifact lists them):

* IB QDR data rate 32 Gbit/s per direction, 1.5 µs per hop (``StagingParams``);
* the staging server gives freed buffer room to a random waiting writer (seeded): with a fixed
  order the two dd threads alternate exactly and their blocks phase-lock with the ping-pong;
* the SSD's write bandwidth (**swept**: it sets how fast the noise can go once the staging
  server's 64 MiB buffer is full) and the arbitration granularity (**swept**: the bytes a low-SL
  flow sends between checks of the high table);
* 8 ranks per node (block placement); AWP-ODC halos: 2 ghost layers of 9 single-precision fields
  per face (64² points per rank face, 4 rank faces per node face); compute per iteration
  (**swept**); CG class C (na = 150000: one 150 kB transpose message per node pair and
  iteration, 75 × 26 = 1950 iterations), 1 ms of compute per iteration.
"""

from __future__ import annotations

import csv
import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import number
from datasched.analysis.seed000_common import Verdict, claims_table, verdict_rules
from datasched.analysis.verdicts import Estimate, SweepClaim, all_of, no_effect, sweep

MIB = 2**20
STAGING = {"server": "stg-0", "port": "stg-0-san", "pfs": "pfs-0"}
CLIENTS = [f"client-{i}" for i in range(8)]

#: AWP-ODC (paper: NX = NY = NZ = 256, 64 ranks as 4 × 4 × 4, TMAX 20 → 2001 iterations) on 8
#: nodes of 8 ranks: a 2 × 2 × 2 node grid of 2 × 2 × 2 rank blocks; a rank owns 64³ points.
AWP_GRID = [2, 2, 2]
AWP_HALO = 4 * (64 * 64) * 2 * 9 * 4  # 4 rank faces × 64² points × 2 layers × 9 fields × 4 B
AWP_ITERATIONS = 2001
#: NAS CG class C on 64 ranks (8 × 8, a process row per node): one transpose message of
#: na / 8 doubles per node pair and iteration.
CG_EXCHANGE = 150000 // 8 * 8
CG_ITERATIONS = 75 * 26

#: The paper's numbers (§VI).
PAPER = {
    "latency_sl0_us": 400.0,
    "latency_sl1_us": 80.0,
    "bandwidth_sl0_mbs": -700.0,
    "bandwidth_recovered_mbs": 674.0,
    "awp_sl0_pct": 17.9,
    "awp_sl1_pct": 8.0,
    "cg_sl0_pct": 32.77,
    "cg_sl1_pct": 9.31,
}

NOISES = ("none", "0", "1")


@dataclass(frozen=True)
class Seed003Spec:
    """``artifacts.seed003_qos`` of a config (config/schema.json)."""

    ssd_write_bw: tuple[float, ...]  # B/s, swept; the first is the headline
    granularity: tuple[float, ...]  # bytes, swept; the first is the headline
    sizes: tuple[int, ...]
    latency_iterations: int
    bandwidth_iterations: int
    window: int
    weight_sls: tuple[int, ...]
    stencil_iterations: int
    stencil_compute: tuple[float, ...]  # seconds per iteration, swept
    cg_iterations: int
    cg_compute: float
    noise_jitter: float = 0.0  # each dd block waits U[0, jitter) first (dd per-call overhead)
    seed: int = 1

    def cases(self) -> list[Case]:
        out = []
        for ssd in self.ssd_write_bw:
            for g in self.granularity:
                out += [Case(b, ssd, g) for b in ("micro", "collective", "stencil", "cg")]
        out.append(Case("weights", self.ssd_write_bw[0], self.granularity[0]))
        return out


@dataclass(frozen=True)
class Case:
    """One Snakemake job: a benchmark family on one platform (SSD) and granularity, every noise."""

    bench: str  # micro | collective | weights | stencil | cg
    ssd: float
    granularity: float

    @property
    def path(self) -> str:
        return f"bench={self.bench}/ssd={number(self.ssd)}/g={number(self.granularity)}"

    @classmethod
    def from_path(cls, path: str) -> Case:
        f = dict(part.split("=", 1) for part in path.split("/"))
        return cls(f["bench"], float(f["ssd"]), float(f["g"]))


def parse_spec(data: Mapping[str, Any]) -> Seed003Spec:
    return Seed003Spec(
        ssd_write_bw=tuple(float(x) for x in data["ssd_write_bw"]),
        granularity=tuple(float(x) for x in data["granularity"]),
        sizes=tuple(int(x) for x in data["sizes"]),
        latency_iterations=int(data["latency_iterations"]),
        bandwidth_iterations=int(data["bandwidth_iterations"]),
        window=int(data.get("window", 64)),
        weight_sls=tuple(int(x) for x in data.get("weight_sls", range(1, 8))),
        stencil_iterations=int(data["stencil_iterations"]),
        stencil_compute=tuple(float(x) for x in data["stencil_compute"]),
        cg_iterations=int(data["cg_iterations"]),
        cg_compute=float(data.get("cg_compute", 0.001)),
        noise_jitter=float(data.get("noise_jitter", 0.0)),
        seed=int(data.get("seed", 1)),
    )


# --------------------------------------------------------------------------- experiments


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
    unbounded high_limit), bench/seed003_arbitration the others."""
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
    return doc


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

    run_experiment_mode("--qos-staging", doc, platform, prefix)
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


def run_case(
    spec: Seed003Spec, case: Case, work: Path, out_csv: Path, arbitration: Mapping[str, Any] | None = None
) -> int:
    """Simulates ``case`` under every noise; one row per benchmark row."""
    from datasched.platforms import StagingParams, generate, write

    platform = write(generate(StagingParams(**platform_params(case.ssd))), work / "platform.xml")
    runs: list[tuple[str, float, dict[str, Any]]] = []
    if case.bench in ("micro", "collective"):
        kinds = POINT_TO_POINT if case.bench == "micro" else COLLECTIVES
        runs = [(n, 0.0, micro_benchmark(k, spec)) for k in kinds for n in NOISES]
    elif case.bench == "weights":  # Figs. 8 and 9: the largest message of each benchmark
        runs = []
        for kind in POINT_TO_POINT + COLLECTIVES:
            bench = micro_benchmark(kind, spec)
            runs += [(str(sl), 0.0, bench | {"sizes": [max(bench["sizes"])]}) for sl in spec.weight_sls]
    elif case.bench == "stencil":
        runs = [(n, c, stencil_benchmark(spec, c)) for c in spec.stencil_compute for n in NOISES]
    else:
        runs = [(n, spec.cg_compute, cg_benchmark(spec)) for n in NOISES]
    rows = []
    for i, (noise, compute, bench) in enumerate(runs):
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
    _write_csv(out_csv, CASE_COLUMNS, rows)
    return len(rows)


def _num(text: str) -> float | str:
    return float(text) if text else ""


def _write_csv(path: Path, columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: (f"{row[c]:.9g}" if isinstance(row[c], float) else row[c]) for c in columns})
    tmp.replace(path)
    return path


# --------------------------------------------------------------------------- summary


def read_rows(case_csvs: Sequence[Path]) -> list[dict[str, Any]]:
    """Every case's rows, typed (numbers as floats, sizes as ints)."""
    out = []
    for path in case_csvs:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                row: dict[str, Any] = dict(r)
                for key in ("ssd", "granularity", "compute", "latency", "bandwidth", "runtime", "comm"):
                    row[key] = float(r[key]) if r[key] != "" else math.nan
                row["size"] = int(r["size"]) if r["size"] else 0
                row["max_flows"] = int(r["max_flows"])
                out.append(row)
    return out


def write_plotted(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return _write_csv(path, CASE_COLUMNS, rows)


def _pick(rows, **key) -> list[Mapping[str, Any]]:
    return [r for r in rows if all(r[k] == v for k, v in key.items())]


def _one(rows, value: str, **key) -> float:
    found = _pick(rows, **key)
    return found[0][value] if found else math.nan


@dataclass(frozen=True)
class Effects:
    """The paper's quantities at one SSD bandwidth and granularity (NaN where not simulated)."""

    ssd: float
    granularity: float
    latency_sl0_us: float
    latency_sl1_us: float
    bandwidth_sl0_mbs: float
    bandwidth_recovered_mbs: float
    alltoall_sl0_us: float  # the largest collective message (1 MiB)
    alltoall_sl1_us: float
    cg_sl0_pct: float
    cg_sl1_pct: float
    awp: tuple[tuple[float, float, float, float], ...]  # (compute, comm share alone, SL0 %, SL1 %)


def effects(rows: Sequence[Mapping[str, Any]], ssd: float, g: float) -> Effects:
    big = max((r["size"] for r in rows if r["bench"] == "latency"), default=0)
    lat = {n: _one(rows, "latency", bench="latency", ssd=ssd, granularity=g, noise=n, size=big) for n in NOISES}
    bw = {n: _one(rows, "bandwidth", bench="bandwidth", ssd=ssd, granularity=g, noise=n, size=big) for n in NOISES}
    big_collective = max((r["size"] for r in rows if r["bench"] == "alltoall"), default=0)
    a2a = {
        n: _one(rows, "latency", bench="alltoall", ssd=ssd, granularity=g, noise=n, size=big_collective) for n in NOISES
    }
    cg = {n: _one(rows, "comm", bench="cg", ssd=ssd, granularity=g, noise=n) for n in NOISES}
    awp = []
    for compute in sorted({r["compute"] for r in rows if r["bench"] == "stencil"}):
        t = {
            n: _one(rows, "runtime", bench="stencil", ssd=ssd, granularity=g, noise=n, compute=compute) for n in NOISES
        }
        comm = _one(rows, "comm", bench="stencil", ssd=ssd, granularity=g, noise="none", compute=compute)
        awp.append((compute, comm / t["none"], _pct(t["0"], t["none"]), _pct(t["1"], t["none"])))
    return Effects(
        ssd=ssd,
        granularity=g,
        latency_sl0_us=(lat["0"] - lat["none"]) * 1e6,
        latency_sl1_us=(lat["1"] - lat["none"]) * 1e6,
        bandwidth_sl0_mbs=(bw["0"] - bw["none"]) / 1e6,
        bandwidth_recovered_mbs=(bw["1"] - bw["0"]) / 1e6,
        alltoall_sl0_us=(a2a["0"] - a2a["none"]) * 1e6,
        alltoall_sl1_us=(a2a["1"] - a2a["none"]) * 1e6,
        cg_sl0_pct=_pct(cg["0"], cg["none"]),
        cg_sl1_pct=_pct(cg["1"], cg["none"]),
        awp=tuple(awp),
    )


def _pct(value: float, base: float) -> float:
    return 100 * (value - base) / base if base else math.nan


#: Figs. 8 and 9: what each weights benchmark reports, its unit and scale.
WEIGHT_PARTS = {
    "latency": ("latency", " µs", 1e6),
    "bandwidth": ("bandwidth", " MB/s", 1e-6),
    "bibw": ("bandwidth", " MB/s", 1e-6),
    "alltoall": ("latency", " µs", 1e6),
    "allreduce": ("latency", " µs", 1e6),
}


def weights_spread(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Benchmark -> (max − min) over SL1-7 of its largest message's result (µs or MB/s);
    NaN where the benchmark was not run."""
    out = {}
    for kind, (value, _, scale) in WEIGHT_PARTS.items():
        got = [r[value] * scale for r in rows if r["bench"] == f"weights-{kind}"]
        out[kind] = max(got) - min(got) if got else math.nan
    return out


# --------------------------------------------------------------------------- verdicts


#: Why seed 003's values carry no interval: every case is one run with no random input.
ONE_RUN = "one run; the benchmarks have no random input"

#: The paper's claims on Figs. 5-8 (key, what, paper's value as printed, value, unit).
CLAIMS = (
    ("qos.latency-sl0", "4 MB latency under I/O noise on SL0", "+400 µs", 400.0, " µs"),
    ("qos.latency-sl1", "4 MB latency with I/O on SL1 (isolated)", "+80 µs", 80.0, " µs"),
    ("qos.bandwidth-sl0", "4 MB bandwidth under I/O noise on SL0", "−700 MB/s", -700.0, " MB/s"),
    ("qos.bandwidth-recovered", "bandwidth recovered by SL1", "+674 MB/s", 674.0, " MB/s"),
    ("qos.alltoall-sl0", "1 MB MPI_Alltoall latency under I/O noise on SL0", "+250 µs", 250.0, " µs"),
    ("qos.alltoall-sl1", "1 MB MPI_Alltoall latency with I/O on SL1", "+15 µs", 15.0, " µs"),
    ("qos.awp-sl0", "AWP-ODC runtime, noise on SL0", "+17.9 %", 17.9, " %"),
    ("qos.awp-sl1", "AWP-ODC runtime, noise on SL1", "+8 %", 8.0, " %"),
    (
        "qos.cg-sl1-gain",
        "CG communication time, SL1 instead of SL0",
        "−23.46 points (+32.77 % → +9.31 %)",
        -23.46,
        " points",
    ),
)


def _values(e: Effects, awp: tuple[float, float, float, float]) -> dict[str, float]:
    return {
        "qos.latency-sl0": e.latency_sl0_us,
        "qos.latency-sl1": e.latency_sl1_us,
        "qos.bandwidth-sl0": e.bandwidth_sl0_mbs,
        "qos.bandwidth-recovered": e.bandwidth_recovered_mbs,
        "qos.alltoall-sl0": e.alltoall_sl0_us,
        "qos.alltoall-sl1": e.alltoall_sl1_us,
        "qos.awp-sl0": awp[2],
        "qos.awp-sl1": awp[3],
        "qos.cg-sl1-gain": e.cg_sl1_pct - e.cg_sl0_pct,
    }


def sweep_values(all_effects: Sequence[Effects]) -> dict[str, dict[str, float]]:
    """Parameter set (SSD bandwidth, granularity, stencil compute: none is the paper's) -> claim -> ours."""
    return {
        f"SSD {e.ssd / 1e9:g} GB/s, g {e.granularity / 1024:g} KiB, compute {awp[0] * 1000:g} ms": _values(e, awp)
        for e in all_effects
        for awp in e.awp
    }


def _range(values: Sequence[float], unit: str, fmt: str = "{:+.0f}") -> str:
    lo, hi = min(values), max(values)
    return fmt.format(lo) + unit if math.isclose(lo, hi, abs_tol=1e-9) else f"{fmt.format(lo)} … {fmt.format(hi)}{unit}"


def verdicts(all_effects: Sequence[Effects], spread: Mapping[str, float]) -> list[Verdict]:
    """Every claim over the sweep (analysis/verdicts.py): *reproduced* only at one parameter set
    that satisfies all of them together (Figs. 5, 6 and 10 together: one platform, one SSD and one
    arbitration granularity, serves every figure of the paper); the paper's value inside our range is
    *consistent for some parameter*, which names the set. A NaN (a case not simulated) is an error."""
    values = sweep_values(all_effects)
    ours = {p: {k: Estimate.deterministic(v, ONE_RUN) for k, v in vs.items()} for p, vs in values.items()}
    judged = sweep([SweepClaim(key, paper) for key, _, _, paper, _ in CLAIMS], ours)
    out = [
        Verdict(
            key,
            label,
            paper_text,
            _range([vs[key] for vs in values.values()], unit, "{:+.1f}" if unit in (" %", " points") else "{:+.0f}"),
            judged[key],
        )
        for key, label, paper_text, _, unit in CLAIMS
    ]
    out.append(
        Verdict(
            "qos.weights-no-difference",
            "I/O on SL1 … SL7 (weights 2 … 128): no difference in osu_latency, osu_bw, osu_bibw, "
            "MPI_Alltoall, MPI_Allreduce",
            "insignificant (read as < 1 µs and < 1 MB/s)",
            "spread " + ", ".join(f"{kind} {v:.2f}{WEIGHT_PARTS[kind][1]}" for kind, v in spread.items()),
            all_of({kind: no_effect(Estimate(v, 0.0, v, 1, ONE_RUN), 1.0) for kind, v in spread.items()}),
        )
    )
    return out


# --------------------------------------------------------------------------- figure


def plot(rows: Sequence[Mapping[str, Any]], spec: Seed003Spec, png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    from datasched.analysis.style import PALETTE, figure_style, save

    ssd, g = spec.ssd_write_bw[0], spec.granularity[0]
    labels = {"none": "no I/O", "0": "I/O on SL0", "1": "I/O on SL1"}
    all_effects = [effects(rows, s, gg) for s in spec.ssd_write_bw for gg in spec.granularity]
    with figure_style():
        fig, axes = plt.subplots(3, 3, figsize=(13, 11))
        for ax, kind, value, scale, unit, panel in (
            (axes[0][0], "latency", "latency", 1e6, "latency (µs)", "osu_latency (Fig. 5)"),
            (axes[0][1], "bandwidth", "bandwidth", 1e-6, "bandwidth (MB/s)", "osu_bw (Fig. 6)"),
            (axes[0][2], "bibw", "bandwidth", 1e-6, "bandwidth (MB/s)", "osu_bibw (Fig. 8)"),
            (axes[1][0], "alltoall", "latency", 1e6, "latency (µs)", "MPI_Alltoall, 2 ranks (Fig. 7)"),
            (axes[1][1], "allreduce", "latency", 1e6, "latency (µs)", "MPI_Allreduce, 2 ranks (Fig. 9)"),
        ):
            for i, noise in enumerate(NOISES):
                pts = sorted(
                    (r["size"], r[value] * scale) for r in _pick(rows, bench=kind, ssd=ssd, granularity=g, noise=noise)
                )
                ax.plot(*zip(*pts, strict=True), marker="o", ms=3, label=labels[noise], color=PALETTE[i])
            ax.set_xscale("log", base=2)
            ax.set_yscale("log" if value == "latency" else "linear")
            ax.set_xlabel("message size (bytes)")
            ax.set_ylabel(unit)
            ax.set_title(f"{panel}, SSD {ssd / 1e9:g} GB/s, g {g / 1024:g} KiB", fontsize=9)
            ax.legend(fontsize=7)
        ax = axes[1][2]
        for j, gg in enumerate(spec.granularity):
            es = [e for e in all_effects if e.granularity == gg]
            xs = [e.ssd / 1e9 for e in es]
            ax.plot(
                xs, [e.latency_sl1_us for e in es], marker="s", color=PALETTE[2 + j], label=f"SL1, g {gg / 1024:g} KiB"
            )
        es = [e for e in all_effects if e.granularity == g]
        ax.plot([e.ssd / 1e9 for e in es], [e.latency_sl0_us for e in es], marker="o", color=PALETTE[1], label="SL0")
        ax.axhline(PAPER["latency_sl0_us"], color=PALETTE[1], ls="--", lw=0.8, label="paper SL0")
        ax.axhline(PAPER["latency_sl1_us"], color=PALETTE[2], ls="--", lw=0.8, label="paper SL1")
        ax.set_xlabel("SSD write bandwidth (GB/s)")
        ax.set_ylabel("4 MB latency − no I/O (µs)")
        ax.set_title("latency added by the noise")
        ax.legend(fontsize=7)
        ax = axes[2][0]
        for i, (kind, (value, _, _)) in enumerate(WEIGHT_PARTS.items()):
            got = sorted((int(r["noise"]), r[value]) for r in rows if r["bench"] == f"weights-{kind}")
            if got:
                base = got[0][1]
                ax.plot(
                    [sl for sl, _ in got],
                    [100 * (v - base) / base for _, v in got],
                    marker="osD^v"[i % 5],
                    ms=11 - 2 * i,  # shrinking markers: identical curves stay visible one inside another
                    ls="-" if i == 0 else "none",
                    mfc="none" if i < 4 else None,
                    color=PALETTE[i % len(PALETTE)],
                    label=kind,
                )
        ax.set_ylim(-1, 1)
        ax.set_xlabel("SL of the I/O (weight 2^SL in the low table)")
        ax.set_ylabel(f"largest message vs I/O on SL{min(spec.weight_sls)} (%)")
        ax.set_title(f"SL weights (Figs. 8-9), SSD {ssd / 1e9:g} GB/s", fontsize=9)
        ax.legend(fontsize=7, ncol=2)
        ax = axes[2][1]
        e0 = sorted((e for e in all_effects if e.granularity == g), key=lambda e: e.ssd)
        # one colour per SSD bandwidth (SL0 solid with circles, SL1 dashed with squares): shades of
        # one colour could not be told apart once the lines cross
        for k, e in enumerate(e0):
            xs = [a[1] * 100 for a in e.awp]
            colour = PALETTE[k % len(PALETTE)]
            ax.plot(xs, [a[2] for a in e.awp], "-", marker="o", color=colour, label=f"SSD {e.ssd / 1e9:g} GB/s")
            ax.plot(xs, [a[3] for a in e.awp], "--", marker="s", markersize=4, color=colour)
        ax.plot([], [], "k-", marker="o", label="I/O on SL0")
        ax.plot([], [], "k--", marker="s", markersize=4, label="I/O on SL1")
        ax.axhline(PAPER["awp_sl0_pct"], color="grey", ls="-", lw=0.8)
        ax.axhline(PAPER["awp_sl1_pct"], color="grey", ls="--", lw=0.8)
        ax.set_xscale("log")
        shares = [a[1] * 100 for e in e0 for a in e.awp]
        if shares:  # a few round ticks: log-scale minor labels overlap
            ax.set_xticks([t for t in (1, 2, 5, 10, 20, 50, 100) if min(shares) <= t <= max(shares)])
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("communication share of the run without I/O (%)")
        ax.set_ylabel("runtime − no I/O (%)")
        ax.set_title("AWP-ODC-like stencil (8 nodes)")
        for key, label in (("awp_sl0_pct", " paper SL0"), ("awp_sl1_pct", " paper SL1")):
            ax.text(ax.get_xlim()[0], PAPER[key], label, va="bottom", fontsize=7, color="grey")
        ax.legend(fontsize=7)
        ax = axes[2][2]
        width = 0.35
        positions = list(range(len(e0)))
        ax.bar([x - width / 2 for x in positions], [e.cg_sl0_pct for e in e0], width, color=PALETTE[1], label="SL0")
        ax.bar([x + width / 2 for x in positions], [e.cg_sl1_pct for e in e0], width, color=PALETTE[2], label="SL1")
        ax.axhline(PAPER["cg_sl0_pct"], color=PALETTE[1], ls="--", lw=0.8, label="paper SL0")
        ax.axhline(PAPER["cg_sl1_pct"], color=PALETTE[2], ls="--", lw=0.8, label="paper SL1")
        ax.set_xticks(positions)
        ax.set_xticklabels([f"{e.ssd / 1e9:g}" for e in e0])
        ax.set_xlabel("SSD write bandwidth (GB/s)")
        ax.set_ylabel("communication time − no I/O (%)")
        ax.set_title("NAS CG-like transpose (8 nodes)")
        ax.legend(fontsize=7)
        fig.suptitle(title)
        fig.tight_layout()
        save(fig, png)
    return png


# --------------------------------------------------------------------------- report


def _solvers(rows: Sequence[Mapping[str, Any]]) -> str:
    names = sorted({r["solver"] for r in rows})
    return f"every run used SimGrid's {names[0]} solver" if len(names) == 1 else f"solvers {', '.join(names)}"


def format_report(rows: Sequence[Mapping[str, Any]], spec: Seed003Spec, variant: str, figure_name: str) -> str:
    all_effects = [effects(rows, s, g) for s in spec.ssd_write_bw for g in spec.granularity]
    spread = weights_spread(rows)
    lines = [
        f"# Seed 003 (QoS-aware data staging on InfiniBand) on datasched — {variant} variant",
        "",
        f"![results]({figure_name})",
        "",
        *textwrap.wrap(
            "Set-up (sim/src/qos/README.md for the model): 8 client nodes, one staging server with an SSD "
            "behind a 64 MiB receive buffer, one back-end PFS server on a separate 10 Gbit/s storage network "
            "(platforms' `StagingParams`, `pfs_servers=1`); IB QDR links of 4 GB/s per direction, 1.5 µs per "
            "hop; OpenSM's arbitration table of the paper's Figure 4. Noise: one dd thread per benchmark node "
            "writing 1 MiB blocks to the staging server back to back. Micro-benchmarks between client-0 and "
            f"client-1 (sizes up to {max(spec.sizes) / MIB:g} MiB; latency {spec.latency_iterations} round "
            f"trips, bandwidth and bidirectional bandwidth {spec.bandwidth_iterations} windows of {spec.window}); "
            f"MPI_Alltoall and MPI_Allreduce on the same two ranks (sizes up to {COLLECTIVE_MAX / MIB:g} MiB, "
            f"{spec.latency_iterations} iterations; allreduce by MPICH's rule: recursive doubling up to 2 KiB, "
            "Rabenseifner's reduce-scatter + allgather above, as MVAPICH2 inherits it; the paper does not say); "
            "AWP-ODC-like stencil on "
            f"2 × 2 × 2 nodes, {spec.stencil_iterations} iterations (paper: {AWP_ITERATIONS}), "
            f"{AWP_HALO / MIB:.3g} MiB per node face; CG-like transpose on 8 nodes, {spec.cg_iterations} "
            f"iterations (class C: {CG_ITERATIONS}), {CG_EXCHANGE / 1000:g} kB per node pair. Swept (the paper "
            f"is silent): SSD write bandwidth {', '.join(f'{s / 1e9:g}' for s in spec.ssd_write_bw)} GB/s; "
            f"arbitration granularity {', '.join(f'{g / 1024:g}' for g in spec.granularity)} KiB; stencil "
            f"compute per iteration {', '.join(f'{c * 1000:g}' for c in spec.stencil_compute)} ms.",
            width=100,
        ),
        "",
        "## Claims",
        "",
        *claims_table(verdicts(all_effects, spread)),
        "",
        "Ranges are over the sweep (SSD bandwidth × granularity; for AWP-ODC also compute per iteration).",
        *verdict_rules(),
        "",
        "SSD bandwidth, granularity and compute per iteration are not the paper's: a match says which values",
        "are consistent with it, not that we predicted it. SL weights: read as SL1 … SL7 differing by less than",
        "1 µs and 1 MB/s.",
        "",
        "## Per configuration",
        "",
        "| SSD (GB/s) | g (KiB) | 4 MB lat. SL0 (µs) | SL1 (µs) | 4 MB bw SL0 (MB/s) | recovered (MB/s) "
        "| 1 MB alltoall SL0 (µs) | SL1 (µs) | CG comm SL0 | SL1 |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *(
            f"| {e.ssd / 1e9:g} | {e.granularity / 1024:g} | {e.latency_sl0_us:+.1f} | {e.latency_sl1_us:+.1f} | "
            f"{e.bandwidth_sl0_mbs:+.0f} | {e.bandwidth_recovered_mbs:+.0f} | "
            f"{e.alltoall_sl0_us:+.1f} | {e.alltoall_sl1_us:+.1f} | "
            f"{e.cg_sl0_pct:+.1f} % | {e.cg_sl1_pct:+.1f} % |"
            for e in all_effects
        ),
        "",
        "AWP-ODC-like runtime added by the noise (communication share of the run without I/O in brackets):",
        "",
        "| SSD (GB/s) | g (KiB) | compute / iteration | SL0 | SL1 |",
        "|---|---|---|---|---|",
        *(
            f"| {e.ssd / 1e9:g} | {e.granularity / 1024:g} | {c * 1000:g} ms ({share * 100:.1f} % comm) | "
            f"{s0:+.1f} % | {s1:+.1f} % |"
            for e in all_effects
            for c, share, s0, s1 in e.awp
        ),
        "",
        "## What drives our numbers",
        "",
        "- **The noise is as fast as the staging server lets it be.** Each dd thread waits for room in the",
        "  server's 64 MiB buffer, which the SSD empties at its write bandwidth: once the buffer is full the two",
        "  writers together move what the SSD writes. A slow SSD (1 GB/s: 0.5 GB/s per client) leaves the MPI",
        "  flow alone most of the time; an SSD as fast as the link makes the noise a second full-rate flow on",
        "  the client's link, and equal sharing on SL0 then doubles a large message's time. The paper's +400 µs",
        "  and −700 MB/s sit between these: the SSD bandwidth (not stated) decides the size of every SL0 claim.",
        "- **SL1 is strict priority at a granularity.** MPI on SL0 is served first; the I/O moves only in the",
        "  gaps, in pieces of g bytes, and a piece already on the wire when a message starts delays it by at",
        "  most g / L (16 µs for 64 KiB). That is all the interference left, far below the paper's +80 µs: the",
        "  paper's qos_ca_high_limit is 255, which the InfiniBand specification defines as unbounded (the",
        "  engine's bounded `high_limit` option, swept by bench/seed003_arbitration, is not the paper's",
        "  configuration), and the flow model has no head-of-line blocking or credit stalls in the switch, no",
        "  HCA/PCIe contention between the two streams, no MPI rendezvous handshake that waits behind I/O",
        "  packets. Those are what the paper's residual 80 µs and 8 % measure.",
        "- **Collectives on two ranks are two messages at once.** MPI_Alltoall between two ranks is an",
        "  exchange: each rank's message uses its own UP link and the other's DOWN link, where its own dd",
        "  thread's I/O also goes; on SL0 the message shares the link with the noise as a point-to-point",
        "  message does. On SL1 one piece of I/O is on the wire at the start of every alltoall: both messages",
        "  of an iteration end in the same instant, the link then has no SL0 flow for that instant, and a",
        "  waiting piece starts beside the next iteration's messages. The residue is therefore exactly g / L",
        "  (16.4 µs at g = 64 KiB, 1.0 µs at 4 KiB: checked by hand on both SSDs); the granularity is ours, not",
        "  the paper's, so the closeness of 16.4 µs to the paper's +15 µs says which g is consistent, not that",
        "  the model predicts it. MPI_Allreduce of 1 MiB (Rabenseifner: two half-size exchanges) pays that",
        "  twice per operation.",
        "- **SL weights 1–7 cannot matter here** (as the paper says): only one low SL carries I/O at a time and",
        "  SL0 is strictly above all of them, so a low weight never meets another low flow. Our results for all",
        "  five benchmarks of Figs. 8 and 9 are identical to the last digit: the weights enter only when two low",
        "  SLs share a link",
        "  (tests/integration/qos: shares w1/(w1+w2)).",
        "- **Applications**: the noise only costs an application its communication phases, so the effect grows",
        "  with the communication share (swept through the compute per iteration). Iterations are",
        "  bulk-synchronous, so the node whose link carries a noise block sets the pace: a slow SSD, whose",
        "  noise comes one block at a time at full link speed to one node, hurts the stencil *more* than a fast",
        "  SSD spreading a steady trickle over all nodes. CG's transpose sends 7 messages from each node at",
        "  once, so a node's I/O block competes with 7 MPI flows and gets 1/8 of its link: the SL0 penalty on",
        "  CG is smaller than on a single large message. SL1 removes nearly all of both.",
        "- **The lazy drain never runs during these benchmarks** (the dd threads never leave the server idle",
        "  for τ), and when it runs it uses the storage network: it cannot disturb MPI in this model, as the paper",
        "  designs. tests/integration/qos checks write-then-drain and the idle rule in closed form.",
        "",
        "## Why ours differ",
        "",
        "- Unknowns we chose (swept where they matter): SSD write bandwidth, receive buffer (64 MiB),",
        "  arbitration granularity, compute per iteration, halo composition (9 fields, 2 layers, single precision),",
        "  CG class (C), 8 ranks per node with block placement, link latency 1.5 µs per hop, QDR data rate 4 GB/s.",
        "- Not modelled: the IB link-level mechanisms above (VL buffers and credits, HOL blocking, MTU",
        "  packets), MPI protocol overheads (eager/rendezvous), CPU and memory-bus contention between the I/O",
        "  thread and the ranks (the paper pins them to different cores), OSU's overlapping of back-to-back sends",
        "  (each of our messages pays the route latency: small-message bandwidth is low).",
        "- Each message is its own single-flow activity, so no SimGrid solver limit is reached: "
        f"{_solvers(rows)}, at most {max(r['max_flows'] for r in rows)} flows at once (one weight per table is",
        "  in use, so no flow is given a priority; see sim/src/qos/flows.hpp).",
        "",
        "Numbers: `seed003_qos_plotted.csv` beside this report (one row per benchmark result).",
    ]
    return "\n".join(lines) + "\n"
