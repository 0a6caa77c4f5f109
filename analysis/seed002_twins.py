"""Seed 002 (TWINS, I/O forwarding request scheduling): the paper's experiments as engine
inputs (``datasched-sim --io-forwarding``, sim/src/forwarding/README.md) and a runner.

The set-up the paper states: 32 client nodes x 4 processes (128), 4 I/O forwarders, 4 data
servers with HDDs, 10 Gbit/s Ethernet, 32 MB per process (4 GB per test), 32 KB (small) and
256 KB (large) requests, file per process / shared file 1D-strided / shared file
contiguous, read and write. What it does not state is ours and chosen here, never fitted:

* ``stripe_size`` 64 KiB (PVFS2's default strip size);
* ``max_in_flight`` 16 dispatches per forwarder, HBRR ``aggregation_limit`` 16;
* client node -> forwarder in blocks of 8 (static, as the paper);
* the HDD: 150 MB/s (platforms' ForwardingParams), contention curve ``hdd_alpha`` swept, and
  the engine's seek-aware form of it (``hdd_seek_scale``, bytes; 0 = count-only) swept too;
* each process starts after U[0, 1 ms) (the randomness the seeds vary).
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_csv
from datasched.analysis.path_values import number
from datasched.analysis.seed000_common import Verdict, claims_table, path_fields, verdict_rules
from datasched.analysis.seed002_scheduling import SchedulingSpec, parse_scheduling_spec
from datasched.analysis.verdicts import Estimate, SweepClaim, VerdictError, Word, level, sweep

MIB = 2**20
KIB = 2**10

PAPER = {
    "nodes": 32,
    "processes_per_node": 4,
    "forwarders": 4,
    "servers": 4,
    "bytes_per_process": 32 * MIB,
}

#: The labels of the compared configurations -> (scheduler or "direct", TWINS window in s).
CONFIGURATIONS: dict[str, tuple[str, float | None]] = {
    "no-forwarding": ("direct", None),
    "fifo": ("fifo", None),
    "hbrr": ("hbrr", None),
    "twins-1ms": ("twins", 0.001),
    "twins-8ms": ("twins", 0.008),
    # TWINS with the engine's drain option (sim/src/forwarding/README.md; ours, not the paper's).
    "twins-8ms-drain": ("twins-drain", 0.008),
}


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
    paper's. ``applications`` overrides the one 128-process application (IFER)."""
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
    return doc


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


def run_experiment(doc: dict[str, Any], platform: Path, prefix: Path) -> dict[str, float]:
    """Runs the engine; returns each application's makespan. Raises RuntimeError with the
    engine's message on failure."""
    from datasched.engine import run_experiment_mode

    run_experiment_mode("--io-forwarding", doc, platform, prefix)
    return read_makespans(Path(f"{prefix}_applications.csv"))


def read_makespans(path: Path) -> dict[str, float]:
    with open(path, newline="") as f:
        return {r["application"]: float(r["makespan"]) for r in csv.DictReader(f)}


# --------------------------------------------------------------------------- the sweep


@dataclass(frozen=True)
class CacheSetting:
    """One swept server-cache setting (sim/src/forwarding/server_cache.hpp). ``write_behind`` is
    the dirty threshold at the paper's scale (bytes; a quick variant scales it with its bytes per
    process, so the same share of the data is absorbed); ``read_ahead`` is the window (bytes,
    not scaled: it is a per-request granularity)."""

    name: str
    write_behind: int = 0
    read_ahead: int = 0

    def engine(self, memory_bandwidth: float, scale: float) -> dict[str, Any]:
        return {
            "memory_bandwidth": memory_bandwidth,
            "write_behind": int(self.write_behind * scale),
            "read_ahead": self.read_ahead,
        }


#: A parameter set of the sweep: (HDD α, seek scale in bytes, server cache setting name).
ParameterSet = tuple[float, float, str]


@dataclass(frozen=True)
class Seed002Spec:
    """``artifacts.seed002_twins`` of a config (config/schema.json)."""

    scale: float  # fraction of the paper's 32 MiB per process
    patterns: tuple[str, ...]
    operations: tuple[str, ...]
    request_sizes: tuple[int, ...]
    configurations: tuple[str, ...]
    hdd_alpha: tuple[float, ...]
    seeds: tuple[int, ...]
    jitter: float = 0.001
    # seek-aware HDD curve scales (bytes) swept; 0 = the count-only curve. Only with α > 0:
    # the seek spread multiplies α, so at α = 0 every scale is the same linear disk.
    hdd_seek_scale: tuple[float, ...] = (0.0,)
    ifer_dt: tuple[float, ...] = ()  # IFER start offsets (s); empty: no IFER runs
    scheduling: SchedulingSpec | None = None  # the scheduling section (analysis/seed002_scheduling.py)
    # server cache settings swept besides none (write-behind, read-ahead), on the count-only curve
    server_caches: tuple[CacheSetting, ...] = ()
    memory_bandwidth: float = 1e10  # the servers' memory, B/s (ours: the paper gives none)

    @property
    def cache_names(self) -> tuple[str, ...]:
        return ("none", *(c.name for c in self.server_caches))

    def parameter_sets(self) -> list[ParameterSet]:
        """The swept (HDD α, seek scale, cache) sets, α first; a seek scale > 0 only with α > 0
        (it multiplies α) and only without a cache; a cache only on the count-only curve."""
        return [
            (a, s, c)
            for a in self.hdd_alpha
            for s in self.hdd_seek_scale
            for c in self.cache_names
            if (s == 0 or a > 0) and (c == "none" or s == 0)
        ]

    def cache(self, name: str) -> dict[str, Any] | None:
        """The engine's ``servers.cache`` of setting ``name`` (None: no cache)."""
        if name == "none":
            return None
        setting = next((c for c in self.server_caches if c.name == name), None)
        if setting is None:
            raise ValueError(f"server_cache: no setting named {name!r}")
        return setting.engine(self.memory_bandwidth, self.scale)

    def cases(self) -> list[Case]:
        plain = [
            Case("single", pattern, operation, size, alpha, 0.0, seek, cache)
            for alpha, seek, cache in self.parameter_sets()
            for pattern in self.patterns
            for operation in self.operations
            for size in self.request_sizes
        ]
        ifer = [
            Case("ifer", "shared_strided", "read", min(self.request_sizes), alpha, dt, seek, cache)
            for alpha, seek, cache in self.parameter_sets()
            for dt in self.ifer_dt
        ]
        return plain + ifer


@dataclass(frozen=True)
class Case:
    """Every configuration x seed of one test: what one Snakemake job simulates."""

    kind: str  # single | ifer
    pattern: str
    operation: str
    request_size: int
    hdd_alpha: float
    dt: float
    hdd_seek_scale: float = 0.0
    cache: str = "none"

    @property
    def path(self) -> str:
        base = f"kind={self.kind}/pattern={self.pattern}/op={self.operation}/size={self.request_size}"
        seek = f"/seek={number(self.hdd_seek_scale)}" if self.hdd_seek_scale > 0 else ""
        cache = f"/cache={self.cache}" if self.cache != "none" else ""
        return f"{base}/alpha={number(self.hdd_alpha)}{seek}{cache}/dt={number(self.dt)}"

    @classmethod
    def from_path(cls, path: str) -> Case:
        f = path_fields(path)
        return cls(
            f["kind"],
            f["pattern"],
            f["op"],
            int(f["size"]),
            float(f["alpha"]),
            float(f["dt"]),
            float(f.get("seek", 0.0)),
            f.get("cache", "none"),
        )

    def experiment(self, spec: Seed002Spec, configuration: str, seed: int) -> dict[str, Any]:
        scheduler, window = CONFIGURATIONS[configuration]
        apps = None
        if self.kind == "ifer":
            apps = ifer_applications(
                dt=self.dt,
                operation=self.operation,
                request_size=self.request_size,
                scale=spec.scale,
                jitter=spec.jitter,
            )
        return paper_experiment(
            scheduler=scheduler,
            window=window,
            pattern=self.pattern,
            operation=self.operation,
            request_size=self.request_size,
            seed=seed,
            hdd_alpha=self.hdd_alpha,
            hdd_seek_scale=self.hdd_seek_scale,
            server_cache=spec.cache(self.cache),
            scale=spec.scale,
            jitter=spec.jitter,
            applications=apps,
        )


def parse_spec(data: Mapping[str, Any]) -> Seed002Spec:
    configurations = tuple(str(c) for c in data["configurations"])
    unknown = [c for c in configurations if c not in CONFIGURATIONS]
    if unknown:
        raise ValueError(f"configurations: unknown {unknown} (known: {', '.join(CONFIGURATIONS)})")
    return Seed002Spec(
        scale=float(data["scale"]),
        patterns=tuple(str(p) for p in data["patterns"]),
        operations=tuple(str(o) for o in data["operations"]),
        request_sizes=tuple(int(s) for s in data["request_sizes"]),
        configurations=configurations,
        hdd_alpha=tuple(float(a) for a in data["hdd_alpha"]),
        hdd_seek_scale=tuple(float(s) for s in data.get("hdd_seek_scale", (0.0,))),
        seeds=tuple(int(s) for s in data["seeds"]),
        jitter=float(data.get("jitter", 0.001)),
        ifer_dt=tuple(float(d) for d in data.get("ifer_dt", ())),
        scheduling=parse_scheduling_spec(data.get("scheduling")),
        **_parse_caches(data.get("server_cache")),
    )


def _parse_caches(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """``server_cache`` of the config: ``memory_bandwidth`` and the named ``settings``."""
    if not data:
        return {}
    settings = tuple(
        CacheSetting(str(c["name"]), int(c.get("write_behind", 0)), int(c.get("read_ahead", 0)))
        for c in data.get("settings", ())
    )
    names = [c.name for c in settings]
    if "none" in names or len(set(names)) != len(names):
        raise ValueError(f"server_cache.settings: names must be unique and not 'none', got {names}")
    return {"server_caches": settings, "memory_bandwidth": float(data.get("memory_bandwidth", 1e10))}


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
)


def run_case(spec: Seed002Spec, case: Case, platform: Path, work: Path, out_csv: Path) -> int:
    """Simulates every configuration x seed of ``case``; writes one row per application and
    run (sizes and waits are means over forwarders, weighted by counts) to ``out_csv``."""
    rows = []
    for configuration in spec.configurations:
        for seed in spec.seeds:
            prefix = work / configuration / f"seed={seed}" / "out"
            makespans = run_experiment(case.experiment(spec, configuration, seed), platform, prefix)
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
    server's busy time / most busy server's (1 = every server as busy)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    busy = [float(r["busy_time"]) for r in rows]
    total = math.fsum(busy)
    concurrency = math.fsum(float(r["mean_concurrency"]) * b for r, b in zip(rows, busy, strict=True))
    return {
        "server_concurrency": concurrency / total if total else math.nan,
        "server_balance": min(busy) / max(busy) if max(busy) > 0 else math.nan,
    }


# --------------------------------------------------------------------------- statistics


@functools.cache  # the report asks for the same few quantiles thousands of times
def t_quantile(p: float, df: int) -> float:
    """Student t quantile (two-sided level from ``p`` = 1 - α/2), by bisection on the CDF
    integrated numerically (Simpson); no SciPy. t(0.9985, 7) = 4.44 (the paper's 99.7 % with 8 seeds)."""

    def pdf(x: float) -> float:
        c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
        return c * (1 + x * x / df) ** (-(df + 1) / 2)

    def cdf(x: float) -> float:
        n = 2000
        h = x / n
        s = pdf(0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n))
        return 0.5 + s * h / 3

    low, high = 0.0, 1000.0
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


def mean_ci(values: Sequence[float], level: float = 0.997) -> tuple[float, float]:
    """(mean, half-width of the Student t interval at ``level``); 0 with one value."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t_quantile(1 - (1 - level) / 2, n - 1) * sd / math.sqrt(n)


SUMMARY_COLUMNS = (
    "kind",
    "pattern",
    "operation",
    "request_size",
    "hdd_alpha",
    "hdd_seek_scale",
    "server_cache",
    "dt",
    "configuration",
    "runs",
    "makespan_mean",
    "makespan_ci997",
    "mean_client_request_size",
    "mean_dispatch_size",
    "mean_server_request_size",
    "mean_queue_wait",
    "server_concurrency",
    "server_balance",
)


def summarise(spec: Seed002Spec, case_csvs: Mapping[Case, Path]) -> list[dict[str, Any]]:
    """One row per case and configuration: makespan mean and 99.7 % CI over seeds (IFER: the
    makespan of a run is the later of the two applications' ends), mean sizes."""
    rows = []
    for case, path in case_csvs.items():
        with open(path, newline="") as f:
            runs = list(csv.DictReader(f))
        for configuration in spec.configurations:
            mine = [r for r in runs if r["configuration"] == configuration]
            by_seed: dict[str, list[dict[str, str]]] = {}
            for r in mine:
                by_seed.setdefault(r["seed"], []).append(r)
            makespans = [max(float(r["makespan"]) for r in rs) for rs in by_seed.values()]
            mean, half = mean_ci(makespans)
            row: dict[str, Any] = {
                "kind": case.kind,
                "pattern": case.pattern,
                "operation": case.operation,
                "request_size": case.request_size,
                "hdd_alpha": case.hdd_alpha,
                "hdd_seek_scale": case.hdd_seek_scale,
                "server_cache": case.cache,
                "dt": case.dt,
                "configuration": configuration,
                "runs": len(makespans),
                "makespan_mean": mean,
                "makespan_ci997": half,
            }
            for column in CASE_COLUMNS[4:]:
                row[column] = math.fsum(float(r[column]) for r in mine) / len(mine)
            rows.append(row)
    return rows


def write_summary(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_csv(path, SUMMARY_COLUMNS, rows)


# --------------------------------------------------------------------------- claims and report


def _row(rows, **key) -> Mapping[str, Any] | None:
    for r in rows:
        if all(r[k] == v for k, v in key.items()):
            return r
    return None


def gain(rows, better: str, worse: str, **key) -> tuple[float, float] | None:
    """Makespan reduction of ``better`` against ``worse`` in % (100 (T_worse − T_better) / T_worse),
    and its uncertainty from the two 99.7 % half-widths (propagated to first order)."""
    a, b = _row(rows, configuration=better, **key), _row(rows, configuration=worse, **key)
    if a is None or b is None:
        return None
    ta, tb = a["makespan_mean"], b["makespan_mean"]
    pct = 100 * (tb - ta) / tb
    err = 100 * math.hypot(a["makespan_ci997"] / tb, ta * b["makespan_ci997"] / tb**2)
    return pct, err


def _gain_estimate(rows, better: str, worse: str, **key) -> Estimate | None:
    """:func:`gain` as an estimate with the 95 % interval the shared verdict rules use (our tables
    keep the paper's 99.7 % intervals; the 95 % half-width is that times t(0.975)/t(0.9985))."""
    g = gain(rows, better, worse, **key)
    if g is None:
        return None
    pct, err997 = g
    n = min(int(r["runs"]) for r in rows if r["configuration"] in (better, worse))
    err = err997 * t_quantile(0.975, n - 1) / t_quantile(0.9985, n - 1) if n > 1 else 0.0
    return Estimate(pct, pct - err, pct + err, n)


@dataclass(frozen=True)
class ClaimValue:
    """One claim of the paper at one HDD α: how it is judged, and our value."""

    key: str
    claim: SweepClaim
    label: str
    paper: str
    ours: Estimate
    text: str

    @classmethod
    def gain(cls, key: str, paper: float, label: str, ours: Estimate) -> ClaimValue:
        """A "faster by paper %" claim, judged as a sweep claim, ours printed as a signed %."""
        return cls(key, SweepClaim(key, float(paper)), label, f"{paper} %", ours, ours.text("{:+.1f}", " %"))


def in_set(row: Mapping[str, Any], alpha: float, seek: float, cache: str = "none") -> bool:
    """Whether ``row`` was simulated at HDD contention ``alpha``, seek scale ``seek`` and server
    cache ``cache`` (rows without those columns: the count-only curve, no cache)."""
    return (
        row["hdd_alpha"] == alpha
        and float(row.get("hdd_seek_scale", 0.0)) == seek
        and (row.get("server_cache") or "none") == cache
    )


def set_name(alpha: float, seek: float = 0.0, cache: str = "none") -> str:
    """A parameter set as the report names it: ``α = 0.1``, ``α = 0.1, seek scale 1 MiB`` or
    ``α = 0.1, cache wb``."""
    name = f"α = {alpha:g}"
    if seek > 0:
        name += f", seek scale {seek / MIB:g} MiB"
    if cache != "none":
        name += f", cache {cache}"
    return name


def claim_values(
    rows: Sequence[Mapping[str, Any]], alpha: float, small: int, seek: float = 0.0, cache: str = "none"
) -> list[ClaimValue]:
    """Our value of each of the paper's difference claims at one parameter set."""
    where = set_name(alpha, seek, cache)
    single = [r for r in rows if r["kind"] == "single" and in_set(r, alpha, seek, cache) and r["request_size"] == small]
    out: list[ClaimValue] = []
    for pattern, label, cfg, vs_no, vs_fifo in (
        ("shared_strided", "1D-strided", "twins-8ms", 50, 28),
        ("shared_contiguous", "contiguous", "twins-1ms", 44, 20),
    ):
        if not any(r["pattern"] == pattern and r["operation"] == "read" for r in single):
            continue  # not in this variant's sweep: the scoreboard lists the claim as missing
        key = {"pattern": pattern, "operation": "read"}
        for other, paper in (("no-forwarding", vs_no), ("fifo", vs_fifo)):
            est = _gain_estimate(single, cfg, other, **key)
            if est is None:
                raise VerdictError(f"seed 002: no {cfg} or {other} case for {pattern} reads at {where}")
            name = f"twins.{pattern.removeprefix('shared_')}-vs-{other}"
            out.append(ClaimValue.gain(name, paper, f"shared {label} small reads: {cfg} faster than {other}", est))
    writes = {
        f"{pattern} {cfg}": est
        for pattern in sorted({r["pattern"] for r in single})
        for cfg in ("twins-1ms", "twins-8ms")
        if (est := _gain_estimate(single, cfg, "fifo", pattern=pattern, operation="write")) is not None
    }
    if writes:
        worst = max(writes, key=lambda k: abs(writes[k].mean))
        # the worst case stands for all: within 5 % only if every one is
        span = Estimate(
            writes[worst].mean,
            min(e.low for e in writes.values()),
            max(e.high for e in writes.values()),
            min(e.n for e in writes.values()),
        )
        out.append(
            ClaimValue(
                "twins.writes-no-difference",
                SweepClaim("twins.writes-no-difference", 0.0, "no_effect", tolerance=5.0),
                "writes: TWINS no different from FIFO (read as within ±5 %)",
                "no difference",
                span,
                f"largest gap {writes[worst].text('{:+.1f}', ' %')} ({worst}); every interval within "
                f"[{span.low:+.1f}, {span.high:+.1f}] %",
            )
        )
    hbrr = {
        f"{pattern} {operation}": est
        for pattern in sorted({r["pattern"] for r in single})
        for operation in sorted({r["operation"] for r in single})
        if (est := _gain_estimate(single, "hbrr", "fifo", pattern=pattern, operation=operation)) is not None
    }
    if hbrr:
        best = max(hbrr, key=lambda k: hbrr[k].high)
        out.append(
            ClaimValue(
                "hbrr.no-gain",
                SweepClaim("hbrr.no-gain", 0.0, "at_most", tolerance=5.0),
                "HBRR does not outperform FIFO (read as a gain of at most 5 %)",
                "no gain",
                hbrr[best],
                f"largest HBRR gain {hbrr[best].text('{:+.1f}', ' %')} ({best})",
            )
        )
    ifer = [r for r in rows if r["kind"] == "ifer" and in_set(r, alpha, seek, cache)]
    for other, paper in (("no-forwarding", 45), ("fifo", 16), ("hbrr", 16)) if ifer else ():
        for window in ("twins-1ms", "twins-8ms"):
            per_dt = [_gain_estimate(ifer, window, other, dt=dt) for dt in sorted({r["dt"] for r in ifer})]
            if any(e is None for e in per_dt):
                raise VerdictError(f"seed 002: an IFER case of {window} or {other} is missing at {where}")
            got = [e for e in per_dt if e is not None]
            mean = math.fsum(e.mean for e in got) / len(got)
            est = Estimate(
                mean,
                min(mean, math.fsum(e.low for e in got) / len(got)),
                max(mean, math.fsum(e.high for e in got) / len(got)),
                min(e.n for e in got),
            )
            name = f"ifer.{window}-vs-{other}"
            label = f"IFER (2 × 64 processes, 1D-strided reads; mean over dt): {window} faster than {other}"
            out.append(ClaimValue.gain(name, paper, label, est))
    return out


def size_verdicts(
    rows: Sequence[Mapping[str, Any]], alpha: float, small: int, seek: float = 0.0, cache: str = "none"
) -> list[Verdict]:
    """The paper's request sizes after HBRR's aggregation: levels (no sign, no difference)."""
    hb = [
        r
        for r in rows
        if r["kind"] == "single"
        and in_set(r, alpha, seek, cache)
        and r["request_size"] == small
        and r["configuration"] == "hbrr"
        and r["pattern"] != "file_per_process"
    ]
    if not hb:
        return []
    leaving = [float(r["mean_dispatch_size"]) / 1000 for r in hb]
    arriving = [float(r["mean_server_request_size"]) / 1000 for r in hb]
    return [
        Verdict(
            "hbrr.size-leaving-forwarders",
            "HBRR: request size leaving the I/O nodes (shared patterns × operations, smallest of ours)",
            "58 KB",
            ", ".join(f"{v:.0f}" for v in leaving) + " kB",
            level(58.0, min(leaving)),
        ),
        Verdict(
            "hbrr.size-arriving-servers",
            "HBRR: request size arriving at the data servers (smallest of ours)",
            "43–50 KB (read as 46.5)",
            ", ".join(f"{v:.0f}" for v in arriving) + " kB",
            level(46.5, min(arriving)),
        ),
    ]


def verdicts(
    rows: Sequence[Mapping[str, Any]], alpha: float, small: int, seek: float = 0.0, cache: str = "none"
) -> list[Verdict]:
    """Every claim at one parameter set, each judged alone (the per-set tables of the report)."""
    tag = f"@α={alpha:g}" + (f",seek={seek / MIB:g}MiB" if seek > 0 else "") + (f",{cache}" if cache != "none" else "")
    return [
        Verdict(f"{c.key}{tag}", c.label, c.paper, c.text, c.claim.judge(c.ours))
        for c in claim_values(rows, alpha, small, seek, cache)
    ] + [dataclasses.replace(v, key=f"{v.key}{tag}") for v in size_verdicts(rows, alpha, small, seek, cache)]


def _parameter_sets(
    alphas: Sequence[float], seeks: Sequence[float], caches: Sequence[str] = ("none",)
) -> list[ParameterSet]:
    """As :meth:`Seed002Spec.parameter_sets`."""
    return [(a, s, c) for a in alphas for s in seeks for c in caches if (s == 0 or a > 0) and (c == "none" or s == 0)]


def sweep_verdicts(
    rows: Sequence[Mapping[str, Any]],
    alphas: Sequence[float],
    small: int,
    seeks: Sequence[float] = (0.0,),
    caches: Sequence[str] = ("none",),
) -> list[Verdict]:
    """The claims over the sweep of HDD α, seek scale and server cache (none is the paper's: it
    gives no value): *reproduced* only where one parameter set satisfies every claim together,
    else *consistent for some parameter*."""
    per_alpha = {
        set_name(a, s, c): claim_values(rows, a, small, s, c) for a, s, c in _parameter_sets(alphas, seeks, caches)
    }
    first = next(iter(per_alpha.values()))
    judged = sweep([c.claim for c in first], {p: {c.key: c.ours for c in cs} for p, cs in per_alpha.items()})
    return [
        Verdict(
            c.key,
            c.label,
            c.paper,
            "; ".join(f"{p}: {next(x for x in cs if x.key == c.key).text}" for p, cs in per_alpha.items()),
            judged[c.key],
        )
        for c in first
    ]


def best_set(
    rows: Sequence[Mapping[str, Any]],
    alphas: Sequence[float],
    small: int,
    seeks: Sequence[float] = (0.0,),
    caches: Sequence[str] = ("none",),
) -> tuple[str, list[str], list[str]]:
    """The single parameter set at which the most claims are *reproduced* together (the first
    in sweep order on a tie): its name, the claims it reproduces and the claims it fails."""
    best: tuple[str, list[str], list[str]] | None = None
    for a, s, c in _parameter_sets(alphas, seeks, caches):
        judged = verdicts(rows, a, small, s, c)
        held = [v.key.split("@", 1)[0] for v in judged if v.judgement.word is Word.REPRODUCED]
        failed = [v.key.split("@", 1)[0] for v in judged if v.judgement.word is not Word.REPRODUCED]
        if best is None or len(held) > len(best[1]):
            best = (set_name(a, s, c), held, failed)
    if best is None:
        raise VerdictError("seed 002: no parameter set in the sweep")
    return best


def seek_movement_table(
    rows: Sequence[Mapping[str, Any]], alphas: Sequence[float], small: int, seeks: Sequence[float]
) -> list[str]:
    """Markdown: the TWINS-vs-FIFO gains (strided, contiguous, IFER 8 ms) per α (rows) and seek
    scale (columns), so the reader sees how they move with the seek-aware curve."""
    keys = ("twins.strided-vs-fifo", "twins.contiguous-vs-fifo", "ifer.twins-8ms-vs-fifo")
    out = [
        "| α | claim | " + " | ".join("count-only" if s == 0 else f"seek scale {s / MIB:g} MiB" for s in seeks) + " |",
        "|---|---|" + "---|" * len(seeks),
    ]
    for a in alphas:
        values = {s: {c.key: c for c in claim_values(rows, a, small, s)} for s in seeks if s == 0 or a > 0}
        for key in keys:
            cells = [values[s][key].text if s in values and key in values[s] else "–" for s in seeks]
            if all(c == "–" for c in cells):
                continue
            out.append(f"| {a:g} | {key} | " + " | ".join(cells) + " |")
    return out


def cache_movement_table(
    rows: Sequence[Mapping[str, Any]], alphas: Sequence[float], small: int, caches: Sequence[str]
) -> list[str]:
    """Markdown: the write claim and the TWINS-vs-FIFO read gains per α (rows) and server cache
    setting (columns, on the count-only curve)."""
    keys = ("twins.writes-no-difference", "twins.strided-vs-fifo", "twins.contiguous-vs-fifo")
    out = ["| α | claim | " + " | ".join(caches) + " |", "|---|---|" + "---|" * len(caches)]
    for a in alphas:
        values = {c: {v.key: v for v in claim_values(rows, a, small, 0.0, c)} for c in caches}
        for key in keys:
            cells = [values[c][key].text if key in values[c] else "–" for c in caches]
            out.append(f"| {a:g} | {key} | " + " | ".join(cells) + " |")
    return out


def mechanism_table(
    rows: Sequence[Mapping[str, Any]], small: int, alpha: float, seek: float = 0.0, cache: str = "none"
) -> list[str]:
    """Markdown: per access pattern (small single-application reads) and configuration, the
    makespan, the servers' concurrency and balance, at one parameter set."""
    single = [
        r
        for r in rows
        if r["kind"] == "single"
        and r["request_size"] == small
        and r["operation"] == "read"
        and in_set(r, alpha, seek, cache)
    ]
    if not single:
        return []
    configurations = list(dict.fromkeys(r["configuration"] for r in single))
    out = [
        "| pattern | " + " | ".join(configurations) + " |",
        "|---|" + "---|" * len(configurations),
    ]
    for pattern in dict.fromkeys(r["pattern"] for r in single):
        cells = []
        for cfg in configurations:
            r = _row(single, pattern=pattern, configuration=cfg)
            cells.append(
                f"{r['makespan_mean']:.2f} s, n = {r['server_concurrency']:.0f}, balance {r['server_balance']:.2f}"
                if r
                else "–"
            )
        out.append(f"| {pattern} | " + " | ".join(cells) + " |")
    return out


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """Makespan per configuration (bars, 99.7 % CI) for each single-application test.

    A run with one request size and one parameter set gets one panel. A run with several gets
    one panel per (α, seek scale, request size) — a row per α, a column per seek scale and size,
    no panel for a seek scale at α = 0 (not simulated) — each with its own y scale: makespans
    differ by two orders of magnitude between α = 0 and α = 0.5, and on a shared axis the short
    tests would be invisible."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import figure_style, save

    single = [r for r in rows if r["kind"] == "single"]
    tests = list(
        dict.fromkeys(
            (
                r["pattern"],
                r["operation"],
                r["request_size"],
                r["hdd_alpha"],
                float(r.get("hdd_seek_scale", 0.0)),
                r.get("server_cache") or "none",
            )
            for r in single
        )
    )
    configurations = list(dict.fromkeys(r["configuration"] for r in single))
    alphas = list(dict.fromkeys(t[3] for t in tests))
    variants = list(dict.fromkeys((t[4], t[5]) for t in tests))
    sizes = list(dict.fromkeys(t[2] for t in tests))
    columns = [(variant, size) for variant in variants for size in sizes]
    with figure_style():
        if len(alphas) * len(columns) == 1:
            fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(tests)), 4))
            _plot_panel(ax, single, tests, configurations, label_alpha=True)
            ax.set_title(title)
            ax.legend(fontsize=7)
            fig.tight_layout()
        else:
            per_panel = max(len([t for t in tests if t[2] == s and t[3] == a]) for a in alphas for s in sizes)
            fig, axes = plt.subplots(
                len(alphas),
                len(columns),
                figsize=(max(6.0, 1.1 * per_panel) * len(columns), 3.0 * len(alphas)),
                squeeze=False,
            )
            for i, alpha in enumerate(alphas):
                for j, ((seek, cache), size) in enumerate(columns):
                    ax = axes[i][j]
                    mine = [t for t in tests if t[2] == size and t[3] == alpha and (t[4], t[5]) == (seek, cache)]
                    if not mine:  # a seek scale at α = 0: not simulated (it would be the linear disk)
                        fig.delaxes(ax)
                        continue
                    _plot_panel(ax, single, mine, configurations, label_alpha=False)
                    ax.set_title(f"{size // KIB} KiB, {_variant_title(alpha, seek, cache)}", fontsize=9)
            handles, labels = fig.axes[0].get_legend_handles_labels()
            fig.legend(handles, labels, loc="lower center", ncol=len(configurations), fontsize=8)
            fig.suptitle(title)
            fig.tight_layout(rect=(0, 0.04, 1, 1))
        save(fig, png)
    return png


def plot_ifer(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """The paper's IFER figure: makespan (the later application's, mean and 99.7 % interval over
    seeds) against the start offset dt (x axis; dt > 0: A starts first), one line per
    configuration; one panel per parameter set (a row per α, a column per seek scale / cache)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import PALETTE, figure_style, save

    ifer = [r for r in rows if r["kind"] == "ifer"]
    alphas = list(dict.fromkeys(r["hdd_alpha"] for r in ifer))
    seeks = list(dict.fromkeys((float(r.get("hdd_seek_scale", 0.0)), r.get("server_cache") or "none") for r in ifer))
    configurations = list(dict.fromkeys(r["configuration"] for r in ifer))
    with figure_style():
        fig, axes = plt.subplots(
            max(1, len(alphas)),
            max(1, len(seeks)),
            figsize=(max(6.0, 4.2 * len(seeks)), 3.0 * max(1, len(alphas)) + 0.6),
            squeeze=False,
        )
        for i, alpha in enumerate(alphas):
            for j, (seek, cache) in enumerate(seeks):
                ax = axes[i][j]
                mine = [r for r in ifer if in_set(r, alpha, seek, cache)]
                if not mine:  # a seek scale at α = 0: not simulated
                    fig.delaxes(ax)
                    continue
                for k, cfg in enumerate(configurations):
                    line = sorted((r for r in mine if r["configuration"] == cfg), key=lambda r: r["dt"])
                    ax.errorbar(
                        [r["dt"] for r in line],
                        [r["makespan_mean"] for r in line],
                        yerr=[r["makespan_ci997"] for r in line],
                        label=cfg,
                        color=PALETTE[k % len(PALETTE)],
                        marker="os^vD<>"[k % 7],
                        markersize=4,
                        capsize=3,
                        linewidth=1.2,
                    )
                ax.set_ylim(bottom=0)
                ax.set_xticks(sorted({r["dt"] for r in mine}))
                ax.set_xlabel("dt (s; > 0: A starts first)")
                ax.set_ylabel("makespan (s)")
                ax.set_title(_variant_title(alpha, seek, cache), fontsize=8)
        if fig.axes:
            handles, labels = fig.axes[0].get_legend_handles_labels()
            ncol = min(len(configurations), 3 * max(1, len(seeks)))
            fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=8)
        fig.suptitle(title)
        legend_rows = math.ceil(len(configurations) / min(len(configurations), 3 * max(1, len(seeks))))
        # leave the legend's rows (about 0.3 inch each) free at the bottom
        fig.tight_layout(rect=(0, (0.15 + 0.3 * legend_rows) / fig.get_figheight(), 1, 1))
        save(fig, png)
    return png


#: The paper's aggregation table (HBRR): sizes in KB leaving clients, leaving the I/O nodes and
#: arriving at the servers, per (pattern, operation).
PAPER_SIZES_KB: dict[tuple[str, str], tuple[float, float, float]] = {
    ("shared_contiguous", "read"): (32, 58, 43),
    ("shared_contiguous", "write"): (32, 58, 44),
    ("shared_strided", "read"): (32, 58, 50),
    ("shared_strided", "write"): (32, 58, 49),
}


def plot_sizes(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """The paper's aggregation table as a figure: mean request size (kB) leaving the clients,
    leaving the forwarders and arriving at the servers, for the shared patterns' small requests;
    one bar per forwarding configuration (mean over every parameter set, the bar's range the
    lowest to highest set), the paper's HBRR values as black marks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import PALETTE, figure_style, save

    small = min((r["request_size"] for r in rows), default=0)
    single = [
        r
        for r in rows
        if r["kind"] == "single"
        and r["request_size"] == small
        and r["pattern"] != "file_per_process"
        and r["configuration"] != "no-forwarding"
    ]
    tests = [t for t in PAPER_SIZES_KB if any((r["pattern"], r["operation"]) == t for r in single)]
    configurations = list(dict.fromkeys(r["configuration"] for r in single))
    metrics = (
        ("mean_client_request_size", "leaving clients"),
        ("mean_dispatch_size", "leaving I/O nodes"),
        ("mean_server_request_size", "arriving at servers"),
    )
    with figure_style():
        fig, axes = plt.subplots(1, len(metrics), figsize=(4.0 * len(metrics), 3.4), squeeze=False, sharey=True)
        width = 0.8 / max(1, len(configurations))
        for m, (column, name) in enumerate(metrics):
            ax = axes[0][m]
            for i, cfg in enumerate(configurations):
                xs, ys, lows, highs = [], [], [], []
                for j, test in enumerate(tests):
                    values = [
                        float(r[column]) / 1000
                        for r in single
                        if (r["pattern"], r["operation"]) == test and r["configuration"] == cfg
                    ]
                    if values:
                        mean = math.fsum(values) / len(values)
                        xs.append(j + (i - (len(configurations) - 1) / 2) * width)
                        ys.append(mean)
                        lows.append(mean - min(values))
                        highs.append(max(values) - mean)
                ax.bar(xs, ys, width, yerr=[lows, highs], label=cfg, color=PALETTE[i % len(PALETTE)])
            ax.scatter(
                range(len(tests)),
                [PAPER_SIZES_KB[t][m] for t in tests],
                marker="_",
                s=400,
                color="black",
                zorder=5,
                label="paper (HBRR)",
            )
            ax.set_xticks(range(len(tests)))
            ax.set_xticklabels([f"{p.removeprefix('shared_')}\n{o}" for p, o in tests], fontsize=7)
            ax.set_title(name, fontsize=9)
            if m == 0:
                ax.set_ylabel(f"mean request size (kB; {small // KIB} KiB requests)")
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
        fig.suptitle(title)
        fig.tight_layout(rect=(0, 0.08, 1, 1))
        save(fig, png)
    return png


def _variant_title(alpha: float, seek: float, cache: str) -> str:
    curve = "count-only" if seek == 0 else f"seek scale {seek / MIB:g} MiB"
    return f"HDD α = {alpha:g}, {curve}" + (f", cache {cache}" if cache != "none" else "")


def _matches(row: Mapping[str, Any], test: tuple, configuration: str) -> bool:
    pattern, operation, size, alpha, seek, cache = test
    return (
        row["pattern"] == pattern
        and row["operation"] == operation
        and row["request_size"] == size
        and in_set(row, alpha, seek, cache)
        and row["configuration"] == configuration
    )


def _plot_panel(ax, single, tests, configurations, *, label_alpha: bool) -> None:
    """Bars of one panel: x = the tests, one bar per configuration with its 99.7 % interval."""
    from datasched.analysis.style import PALETTE

    width = 0.8 / max(1, len(configurations))
    for i, cfg in enumerate(configurations):
        xs, ys, es = [], [], []
        for j, test in enumerate(tests):
            r = next((x for x in single if _matches(x, test, cfg)), None)
            if r:
                xs.append(j + (i - (len(configurations) - 1) / 2) * width)
                ys.append(r["makespan_mean"])
                es.append(r["makespan_ci997"])
        ax.bar(xs, ys, width, yerr=es, label=cfg, color=PALETTE[i % len(PALETTE)])
    ax.set_xticks(range(len(tests)))

    def label(p: str, o: str, s: int, a: float, _seek: float, _cache: str) -> str:
        short = p.replace("shared_", "").replace("file_per_process", "fpp")
        return f"{short}\n{o} {s // KIB}K α={a:g}" if label_alpha else f"{short}\n{o}"

    ax.set_xticklabels([label(*t) for t in tests], fontsize=7)
    # log scale: no-forwarding's contiguous and fpp makespans are 10x the strided ones, which a
    # linear axis squashes to a few pixels
    ax.set_yscale("log")
    from matplotlib.ticker import FormatStrFormatter, NullFormatter

    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    low, high = ax.get_ylim()
    if high / low < 10:  # within a decade: label the minor ticks too, else they crowd
        ax.yaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.tick_params(axis="y", which="minor", labelsize=6)
    else:
        ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylabel("makespan (s, log scale)")


def format_report(
    rows: Sequence[Mapping[str, Any]],
    spec: Seed002Spec,
    variant: str,
    figure_name: str,
    scheduling: Sequence[str] = (),
) -> str:
    """The report; ``scheduling``: the scheduling section's lines (analysis/seed002_scheduling.py).
    The IFER and request-size figures are ``figure_name`` with ``_ifer`` / ``_sizes`` before
    the suffix (the artifact rule writes them so)."""
    small = min(spec.request_sizes)
    stem = figure_name.removesuffix(".png")
    seeks = spec.hdd_seek_scale
    caches = spec.cache_names
    best_name, best_held, best_failed = best_set(rows, spec.hdd_alpha, small, seeks, caches)
    lines = [
        f"# Seed 002 (TWINS, I/O forwarding request scheduling) on datasched — {variant} variant",
        "",
        f"![makespans]({figure_name})",
        "",
        *([f"![IFER: makespan against dt]({stem}_ifer.png)", ""] if spec.ifer_dt else []),
        f"![request sizes leaving clients, leaving forwarders, arriving at servers]({stem}_sizes.png)",
        "",
        "Set-up: 32 client nodes × 4 processes, 4 I/O forwarders (client nodes in blocks of 8), 4 HDD data",
        "servers, 10 Gbit/s Ethernet (platforms/catalog/seed002-forwarding.xml), "
        f"{spec.scale * 32:g} MiB per process (paper: 32 MB; scale {spec.scale:g}), request sizes "
        f"{', '.join(f'{s // KIB} KiB' for s in spec.request_sizes)}, seeds {list(spec.seeds)} "
        f"(each process starts after U[0, {spec.jitter * 1000:g} ms)); makespans are means with 99.7 % "
        "Student t intervals over seeds, as in the paper. Gains are makespan reductions, "
        "100 (T_other − T_TWINS) / T_other. The model and its limits: sim/src/forwarding/README.md.",
        "",
    ]
    lines += [
        "## Over the HDD contention and seek sweep",
        "",
        "HDD contention α, the seek scale of the seek-aware curve and the servers' cache are ours (the",
        "paper gives none of them): a claim is *reproduced* only where one parameter set satisfies every",
        "claim below together; otherwise it is at best *consistent for some parameter*. Parameter sets: "
        + "; ".join(set_name(a, sk, c) for a, sk, c in spec.parameter_sets())
        + " (a seek scale only with α > 0: it multiplies α; a cache only on the count-only curve).",
        "",
        *claims_table(
            sweep_verdicts(rows, spec.hdd_alpha, small, seeks, caches) + size_verdicts(rows, spec.hdd_alpha[0], small)
        ),
        "",
        f"**The single parameter set that satisfies the most claims together: {best_name}** "
        f"({len(best_held)} of {len(best_held) + len(best_failed)} reproduced: "
        f"{', '.join(best_held) or 'none'}). It fails: {', '.join(best_failed) or 'none'}.",
        "",
        *verdict_rules(),
        "",
    ]
    if any(sk > 0 for sk in seeks):
        lines += [
            "## How the TWINS-vs-FIFO claims move with the seek-aware curve",
            "",
            "The seek-aware curve (sim/src/forwarding/README.md) weighs α by the seek spread σ = min(1, mean gap",
            "between the positions of the requests on a disk / seek scale): the larger the scale, the less",
            "interleaved requests close together on the disk cost. Gains of TWINS over FIFO (%, 95 % interval):",
            "",
            *seek_movement_table(rows, spec.hdd_alpha, small, seeks),
            "",
        ]
    if spec.server_caches:
        described = "; ".join(
            f"*{c.name}*: write-behind {c.write_behind / MIB:g} MiB × scale "
            f"({int(c.write_behind * spec.scale) / MIB:g} MiB here), read-ahead {c.read_ahead / KIB:g} KiB"
            for c in spec.server_caches
        )
        lines += [
            "## How the claims move with the servers' cache",
            "",
            "Each server caches in memory (sim/src/forwarding/README.md, *Server cache*; memory "
            f"{spec.memory_bandwidth / 1e9:g} GB/s, ours): {described}. The paper's servers run PVFS on Linux, "
            "whose page cache absorbs writes and reads ahead; its sizes are not stated, so they are swept. "
            "Write claim and TWINS-vs-FIFO read gains (%, 95 % interval), count-only curve:",
            "",
            *cache_movement_table(rows, spec.hdd_alpha, small, caches),
            "",
        ]
    for alpha, seek, cache in spec.parameter_sets():
        lines += [
            f"## HDD contention {set_name(alpha, seek, cache)}",
            "",
            *claims_table(verdicts(rows, alpha, small, seek, cache)),
            "",
            "Small reads; *n* = disk requests at once on a busy server (the n of the HDD curve, mean over",
            "the runs), *balance* = least busy server's busy time / most busy server's (1: all equally busy):",
            "",
            *mechanism_table(rows, small, alpha, seek, cache),
            "",
        ]
    lines += [
        "## What drives our numbers",
        "",
        "In this model a data server delivers less in total the more requests it serves at once, so what",
        "matters is how many requests each server holds and whether every server has work. Without",
        "forwarding all 128 processes' requests reach the servers; through forwarders at most 4 × 16 are in",
        "flight. Under FIFO each forwarder sends its requests wherever they point; a server that receives",
        "more serves each more slowly, so it keeps the in-flight slots longer and collects more (a convoy):",
        "see the balance column. TWINS gives each server one forwarder at a time, which bounds n and keeps",
        "all servers busy, as long as a request completes within a window: with 1 ms windows (shorter than",
        "a small request's service time under contention) requests of earlier windows are still running",
        "when the next forwarder arrives, so servers hold several forwarders' requests. With a shared",
        "contiguous file each process's block starts on the same server (block sizes are multiples of the",
        "4 stripes of a round), so all processes walk the servers in near lockstep and TWINS makes the",
        "forwarders wait for the window of the one server everyone needs. Reads and writes cost the same",
        "here (no server cache, no write-behind), so writes gain whatever reads gain.",
        "",
        "Verdicts use 95 % intervals (the tables' 99.7 % half-widths × t(0.975)/t(0.9985)), propagated to the",
        "gains to first order; an IFER gain is the mean over the start offsets dt, per TWINS window (the",
        "IFER figure shows each dt).",
        "",
        "## Why ours may differ",
        "",
        "- **What we model** (sim/src/forwarding/README.md): static client → forwarder mapping; FIFO, HBRR "
        "(per-handle queues, round-robin, aggregation of contiguous same-file same-operation requests up to "
        "16) and TWINS (one queue per server, globally aligned windows, forwarder f serves server (f + k) mod 4 "
        "in window k); a bounded number of dispatches in flight per forwarder (16, our choice); files striped "
        "in 64 KiB units (PVFS2's default; not stated); HDDs whose total bandwidth falls as "
        "B / (1 + α (n − 1)) with n concurrent requests (α swept, never fitted; B = 150 MB/s assumed).",
        "- **Seeks**: the seek-aware curve (`servers.hdd_seek_scale`, swept here) is a linear proxy for "
        "the physical cause of HDD contention: it weighs α by how far apart the interleaved requests "
        "are, not a disk-head model (no rotational latency, no head position carried over).",
        "- **What this artifact does not model**: PVFS's server-side request processing, caches and "
        "write-behind (the "
        "paper finds no gain for writes, likely because servers absorb writes in their cache: our writes go "
        "to the disk and behave like reads); the arrival-rate difference of reads and writes the paper "
        "measured (26 µs vs 51 µs between requests); forwarder CPU cost.",
        "- **Sizes**: the paper's table shows aggregation leaving I/O nodes (58 KB); ours follows from our "
        "aggregation limit and how many contiguous requests meet in a queue, which depends on the in-flight "
        "bound; arriving sizes follow from our striping.",
        "- **Sensitivity**: processes that move in near lockstep (shared contiguous above all) amplify tiny "
        "timing differences — a different seed, or SimGrid's solver precision (relative 1e-5) — into large "
        "makespan differences; the wide intervals of those tests are that, not noise to average away.",
        f"- **Scale**: this variant moves {spec.scale * 32:g} MiB per process; makespans scale about "
        "linearly, but window effects (1 ms, 8 ms) weigh more in short runs.",
        "",
        "Numbers: `seed002_twins_plotted.csv` beside this report (one row per test and configuration).",
        "",
        "## What changed against the previous report (issue 34)",
        "",
        "- The seek-aware HDD curve is swept (it existed in the engine, unused here): the claims are now",
        "  judged over (α, seek scale, cache) sets, and the set satisfying the most claims is named.",
        "- Servers may cache (write-behind, read-ahead; new in the engine): the paper's 'no difference for",
        "  writes' was out of reach while every write went to the HDD; the cache sets test whether",
        "  absorbing writes in memory brings TWINS and FIFO together.",
        "- IFER is plotted against dt (the paper's figure), and the request sizes as a figure beside the",
        "  paper's table; the IFER claims are still judged on the mean over dt.",
        "- Strided requests were already aggregated by HBRR across processes before this change (the",
        "  issue's 32 → 32 KB predates it); the aggregation is now proven by closed-form tests",
        "  (tests/integration/forwarding/test_server_cache.py).",
    ]
    if scheduling:
        lines += ["", *scheduling]
        while lines[-1] == "":
            lines.pop()
    return "\n".join(lines) + "\n"
