"""Figure 9's central traffic: the bytes each series pushes through the I/O servers, and the
least time the servers need for them.

Why this is in the report: the paper says the SAN "never outperforms" near-data storage, even
with 128 servers against one. Whether that can hold is decided before any simulation, by
bytes and bandwidths. Every byte between central storage and the nodes crosses one server's
front-end link (``platforms/README.md``: SAN I/O ``io-J-fe → X-eth → X-dram``, staging
``io-J-fe → X-eth → X-nvm``), striped evenly over the k servers, so a series that moves B
bytes through k servers of front-end bandwidth F cannot finish before B / (k·F). SAN moves
every device byte of every I/O phase; near-data storage moves only what it stages, which the
generator's two staging models set (``workloads/markov.py``, ``staging_bytes``): ``io_volume``
stages exactly SAN's bytes, ``dataset`` one read and one write phase's. Near-data storage with
one server therefore needs its staged bytes below 1/128 of SAN's before it *can* beat SAN with
128; the ratio below says how far each staging model is from that.

The bytes come from the same generator, parameters and seeds as the simulations' workloads
(``spec.markov_params``), so nothing here is fitted or assumed beyond what the runs use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from datasched.analysis.seed000.fig9.spec import Fig9Spec, markov_params, platform_params
from datasched.analysis.stats import mean_ci95
from datasched.workloads import markov


@dataclass(frozen=True)
class CentralTraffic:
    """One topology's central bytes per workload seed (SAN, and staged per staging model) and
    the servers' front-end bandwidth."""

    topology: str
    seeds: tuple[int, ...]
    san_bytes: tuple[float, ...]  # per seed: every device byte of every I/O phase
    staged_bytes: dict[str, tuple[float, ...]]  # staging model -> per seed: bytes staged in + out
    frontend_bw: float  # B/s, one server's front-end link

    def least_seconds(self, nbytes: float, servers: int) -> float:
        """B / (k·F): the servers' busy time for ``nbytes`` striped over ``servers``."""
        return nbytes / (servers * self.frontend_bw)

    def staged_share(self, staging: str) -> float:
        """Staged bytes over SAN's bytes, summed over the seeds."""
        return sum(self.staged_bytes[staging]) / sum(self.san_bytes)


def central_traffic(spec: Fig9Spec, topology: str) -> CentralTraffic:
    """The workloads of ``topology`` regenerated (no simulation) and their central bytes summed.
    The staged bytes do not depend on the server count (it only chooses where they are
    striped), so the smallest count's workloads stand for all."""
    servers = spec.servers[0]
    platform = platform_params(spec, topology, "unified", servers)
    nodes = platform.interconnect.topology.node_count
    staged: dict[str, list[float]] = {model: [] for model in spec.staging}
    san: list[float] = []
    for seed in spec.seeds:
        for model in spec.staging:
            params = markov.parse_params(markov_params(spec, seed, servers, nodes, model))
            apps = markov.generate_from_seed(params).applications
            staged[model].append(sum(a.storage.stage_in_bytes + a.storage.stage_out_bytes for a in apps))
            if model == spec.staging[0]:
                san.append(sum(_san_bytes(a) for a in apps))
    return CentralTraffic(
        topology,
        tuple(spec.seeds),
        tuple(san),
        {m: tuple(v) for m, v in staged.items()},
        float(platform.storage.server_frontend_bw),
    )


def _san_bytes(app: markov.Application) -> float:
    """What SAN moves through the servers for one application: ``io_volume``'s definition
    (every device byte of every read and write phase), whatever the workload's staging."""
    moved = markov.staging_bytes("io_volume", app.states, app.sizes, app.io_tasks, app.storage.mem_hit_pct)
    return moved["stage_in_bytes"] + moved["stage_out_bytes"]


def _tb(values: Sequence[float]) -> str:
    return f"{mean_ci95(values).mean / 1e12:.2f}"


def _s(seconds: float) -> str:
    return f"{seconds:,.0f}"


def equal_count_ratios(rows: Sequence[Mapping[str, Any]], series: str, staging: str) -> list[float]:
    """SAN's mean total time over ``series``' (under ``staging``) at the same server count, for
    every topology and count the table has both."""
    san = {(r["topology"], int(r["servers"])): float(r["mean_total_s"]) for r in rows if r["series"] == "SAN"}
    return [
        san[(r["topology"], int(r["servers"]))] / float(r["mean_total_s"])
        for r in rows
        if r["series"] == series and r["staging"] == staging and (r["topology"], int(r["servers"])) in san
    ]


def equal_count_lines(rows: Sequence[Mapping[str, Any]], spec: Fig9Spec) -> list[str]:
    """The comparison at equal server counts, which the paper's sentence does not make but its
    figure allows: near-data storage against SAN with as many servers."""
    parts = []
    for staging in spec.staging:
        for series in ("Cache", "I-A"):
            ratios = equal_count_ratios(rows, series, staging)
            if ratios:
                slower = sum(r < 1 for r in ratios)
                parts.append(
                    f"{series} with `{staging}`: SAN takes ×{min(ratios):.2g}–×{max(ratios):.2g} its time"
                    + (
                        f" (SAN faster in {slower} of {len(ratios)})"
                        if slower
                        else f" (SAN slower in all {len(ratios)})"
                    )
                )
    if not parts:
        return []
    return [
        "",
        "At equal server counts (every topology and count of the figure; the paper compares only 1 against 128): "
        + "; ".join(parts)
        + ".",
    ]


def traffic_section(
    spec: Fig9Spec, traffic: Sequence[CentralTraffic], rows: Sequence[Mapping[str, Any]] = ()
) -> list[str]:
    """The report's section: per topology the mean central bytes over the seeds and the least
    server time of SAN with the most servers against near-data storage with the fewest; with the
    table's ``rows``, the measured comparison at equal server counts."""
    few, many = spec.servers[0], spec.servers[-1]
    header = (
        "| topology | SAN bytes (TB) | "
        + " | ".join(f"staged, `{m}` (TB, share of SAN's)" for m in spec.staging)
        + f" | least server time: SAN, {many} servers (s) | "
        + " | ".join(f"near-data, {few} server(s), `{m}` (s)" for m in spec.staging)
        + " |"
    )
    lines = [
        "## Why SAN with many servers beats near-data storage with few: the central bytes",
        "",
        "Every byte between central storage and the nodes crosses one server's front-end link (SAN I/O and",
        "staging alike), striped over the k servers: a series moving B bytes cannot finish before B / (k·F)",
        "(F the front-end bandwidth). The bytes below are regenerated from the runs' own workloads (means over",
        f"{'the seeds' if len(spec.seeds) > 1 else 'seed'} {', '.join(map(str, spec.seeds))};"
        " `analysis/seed000/fig9/central_traffic.py`).",
        "",
        header,
        "|" + "---|" * (3 + 2 * len(spec.staging)),
    ]
    for t in traffic:
        san = mean_ci95(t.san_bytes).mean
        staged = {m: mean_ci95(v).mean for m, v in t.staged_bytes.items()}
        lines.append(
            f"| {t.topology} | {_tb(t.san_bytes)} | "
            + " | ".join(f"{_tb(t.staged_bytes[m])} ({100 * t.staged_share(m):.1f} %)" for m in spec.staging)
            + f" | {_s(t.least_seconds(san, many))} | "
            + " | ".join(_s(t.least_seconds(staged[m], few)) for m in spec.staging)
            + " |"
        )
    ratio = many / few
    line = 1 / ratio
    verdicts = []
    for m in spec.staging:
        shares = [t.staged_share(m) for t in traffic]
        side = "above" if min(shares) > line else "below" if max(shares) < line else "on both sides of"
        verdicts.append(
            f"`{m}` stages {_range_pct(shares)} of SAN's bytes, {side} that line ({_times(min(shares) / line)} it)"
        )
    lines += [
        "",
        f"Near-data storage with {few} server(s) can beat SAN with {many} only if it stages less than "
        f"{100 * line:.2g} % of SAN's bytes (1/{ratio:g}), or stages off the applications' critical path.",
        "The paper loads an application's data from central storage when the application starts (its section",
        "4.1), as ours does, but does not say how much. Ours: " + "; ".join(verdicts) + ".",
        "The least times are a floor for the servers' busy time, not a prediction of the mean total time",
        "(queueing and the other phases come on top).",
        *equal_count_lines(rows, spec),
    ]
    return lines


def _times(factor: float) -> str:
    return f"{factor:,.0f}×" if factor >= 10 else f"{factor:.1f}×"


def _range_pct(shares: Sequence[float]) -> str:
    lo, hi = min(shares), max(shares)
    return f"{100 * lo:.1f} %" if f"{lo:.3f}" == f"{hi:.3f}" else f"{100 * lo:.1f}–{100 * hi:.1f} %"
