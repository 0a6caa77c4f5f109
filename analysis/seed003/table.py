"""Seed 003 step 3, the table: the rows read back, and the paper's quantities at one SSD
bandwidth and granularity (differences against no I/O; the SL weights' spread)."""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.seed003.runs import CASE_COLUMNS
from datasched.analysis.seed003.spec import NOISES


def read_rows(case_csvs: Sequence[Path]) -> list[dict[str, Any]]:
    """Every case's rows, typed (numbers as floats, sizes as ints)."""
    out = []
    for path in case_csvs:
        with open(path, newline="") as f:
            out += [typed_row(r) for r in csv.DictReader(f)]
    return out


def typed_row(r: Mapping[str, str]) -> dict[str, Any]:
    """One CSV row typed as :func:`read_rows` types it (``noise`` stays text: none, 0, 1)."""
    row: dict[str, Any] = dict(r)
    for key in ("ssd", "granularity", "compute", "latency", "bandwidth", "runtime", "comm"):
        row[key] = float(r[key]) if r[key] != "" else math.nan
    row["size"] = int(r["size"]) if r["size"] else 0
    row["max_flows"] = int(r["max_flows"])
    return row


def write_plotted(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_csv(path, CASE_COLUMNS, rows)


def pick(rows, **key) -> list[Mapping[str, Any]]:
    return [r for r in rows if all(r[k] == v for k, v in key.items())]


def _one(rows, value: str, **key) -> float:
    found = pick(rows, **key)
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
