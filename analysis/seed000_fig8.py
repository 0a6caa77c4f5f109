"""Seed 000, Figure 8: many applications sharing the machine, per storage assignment.

Workloads of ``n_apps`` Markov applications drawn from Table 1's multi-application column
(every application drawn as Internal, so each has an STG-k ~ U{1..Tasks}; Tasks ~
U{1..system size}) run on each topology under each storage-assignment policy (Cache,
Internal and External, each with Disperse / Affinity / Local access): the storage
*policy* (schedulers/storage_*.py, the queue policy's ``storage`` option) overrides the
drawn allocation and access, so every variant of a seed runs the same applications. The
metric is the paper's: the average total time (waiting + running) of the applications,
averaged over workload seeds with a 95 % t interval.

The paper states its results in sentences; :func:`verdicts` checks each one against
our table with an explicit rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.seed000_common import (
    SUMMARY_COLUMNS,
    Verdict,
    claims_table,
    multi_application_params,
    path_fields,
    run_settings,
    seed_summary,
    verdict_rules,
    write_rows,
)
from datasched.analysis.stats import mean_ci95
from datasched.analysis.style import save
from datasched.analysis.verdicts import Estimate, all_of, difference, direction, no_effect

#: Figure 8's bars: Cache, then Internal and External with each access type.
STRATEGIES = ("cache", "internal", "external")
ACCESS = {"D": "disperse", "A": "affinity", "L": "local"}


@dataclass(frozen=True)
class Fig8Spec:
    platforms: Mapping[str, Path]  # topology label -> unified platform XML
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    san_k: int = 4  # I/O servers staging each application's data (the platform's)
    staging: str = "io_volume"
    scheduler: str = "fcfs"
    allocation: str = "sequential"
    traffic_policy: str = "np"
    ipc_fanout: int = 0  # 0: exact all-to-all; D: the engine's calibrated approximation (--ipc-fanout)

    def variants(self) -> list[tuple[str, str]]:
        """(strategy, access letter): Cache once (every access is local), the others x D/A/L."""
        return [("cache", "L")] + [(s, a) for s in STRATEGIES[1:] for a in ACCESS]

    def runs(self) -> list[Fig8Run]:
        return [
            Fig8Run(topology, strategy, access, seed)
            for topology in self.platforms
            for strategy, access in self.variants()
            for seed in self.seeds
        ]


@dataclass(frozen=True)
class Fig8Run:
    topology: str
    strategy: str
    access: str  # D, A or L
    seed: int

    @property
    def workload_path(self) -> str:
        return f"topology={self.topology}/seed={self.seed}"

    @property
    def path(self) -> str:
        return f"topology={self.topology}/storage={self.strategy}-{self.access}/seed={self.seed}"

    @classmethod
    def from_path(cls, path: str) -> Fig8Run:
        fields = path_fields(path)
        strategy, access = fields["storage"].rsplit("-", 1)
        return cls(fields["topology"], strategy, access, int(fields["seed"]))

    def scheduler_options(self, spec: Fig8Spec) -> dict[str, Any]:
        storage: dict[str, Any] = {"name": self.strategy}
        if self.strategy != "cache":
            storage["access"] = ACCESS[self.access]
        return {"allocation": spec.allocation, "storage": storage}


def markov_params(spec: Fig8Spec, seed: int, nb_nodes: int) -> dict[str, Any]:
    """The multi-application workload of one topology and seed (Exp = the system size)."""
    return multi_application_params(seed, spec.n_apps, spec.n_phases, nb_nodes, san_k=spec.san_k, staging=spec.staging)


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Fig8Spec:
    def resolve(path: str) -> Path:
        p = Path(path)
        return p if p.is_absolute() else repo_root / p

    return Fig8Spec(
        platforms={str(k): resolve(v) for k, v in data["platforms"].items()},
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        san_k=int(data.get("san_k", 4)),
        staging=str(data.get("staging", "io_volume")),
        **run_settings(data),
    )


# --------------------------------------------------------------------------- table

COLUMNS = (
    "topology",
    "storage",
    "access",
    *SUMMARY_COLUMNS,
    "vs_cache",
    "vs_cache_ci95_low",
    "vs_cache_ci95_high",
)


def table_rows(spec: Fig8Spec, results: Mapping[Fig8Run, tuple[float, float]]) -> list[dict[str, Any]]:
    """Per topology and variant: the mean total time over seeds, and the paired ratio to
    Cache (each seed's workload against itself under Cache, so the spread between
    workloads, large with a few seeds, does not hide the difference between policies)."""
    rows = []
    for topology in spec.platforms:
        cache = {s: results[Fig8Run(topology, "cache", "L", s)][0] for s in spec.seeds}
        for strategy, access in spec.variants():
            values = [results[Fig8Run(topology, strategy, access, s)] for s in spec.seeds]
            ratio = mean_ci95([v[0] / cache[s] for v, s in zip(values, spec.seeds, strict=True)])
            rows.append(
                {
                    "topology": topology,
                    "storage": strategy,
                    "access": access,
                    **seed_summary(values),
                    "vs_cache": ratio.mean,
                    "vs_cache_ci95_low": ratio.low,
                    "vs_cache_ci95_high": ratio.high,
                }
            )
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)


def _lookup(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], Mapping[str, Any]]:
    return {(r["topology"], r["storage"], r["access"]): r for r in rows}


# --------------------------------------------------------------------------- figure


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    fig, axes = plt.subplots(2, len(topologies), figsize=(4.5 * len(topologies), 7.5), squeeze=False, sharex="col")
    colours = {"cache": "#4c72b0", "internal": "#dd8452", "external": "#55a868"}
    for column, topology in enumerate(topologies):
        mine = [r for r in rows if r["topology"] == topology]
        labels = [f"{r['storage'].capitalize()}-{r['access']}" if r["storage"] != "cache" else "Cache" for r in mine]
        colour = [colours[r["storage"]] for r in mine]
        top, bottom = axes[0][column], axes[1][column]
        top.bar(range(len(mine)), [r["mean_total_s"] for r in mine], color=colour)
        top.set_title(topology, fontsize=10)
        top.set_ylabel("average total time per application (s)")
        ratios = [r["vs_cache"] for r in mine]
        errors = [
            [r["vs_cache"] - r["vs_cache_ci95_low"] for r in mine],
            [r["vs_cache_ci95_high"] - r["vs_cache"] for r in mine],
        ]
        bottom.bar(range(len(mine)), ratios, yerr=errors, capsize=3, color=colour)
        bottom.axhline(1.44, color="black", linestyle=":", linewidth=1, label="paper: Internal/External +44 %")
        bottom.set_ylabel("relative to Cache (same workload)")
        bottom.set_xticks(range(len(mine)), labels, rotation=45, ha="right", fontsize=8)
        bottom.legend(fontsize=7, loc="lower right")
        for ax in (top, bottom):
            ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png


# --------------------------------------------------------------------------- verdicts


def _vs_cache_pct(row: Mapping[str, Any]) -> Estimate:
    """A policy's excess over Cache, in %, with the 95 % interval of the paired ratios."""
    return Estimate(
        100 * (float(row["vs_cache"]) - 1),
        100 * (float(row["vs_cache_ci95_low"]) - 1),
        100 * (float(row["vs_cache_ci95_high"]) - 1),
        int(row["n_seeds"]),
    )


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """Each sentence of the paper on Fig. 8 judged by :mod:`datasched.analysis.verdicts`, over
    the paired per-seed ratios to Cache (so an ordering with intervals including 0 is
    *inconclusive*, whatever the means say)."""
    t = _lookup(rows)
    topologies = list(dict.fromkeys(r["topology"] for r in rows))

    def total(topology: str, strategy: str, access: str) -> float:
        return float(t[(topology, strategy, "L" if strategy == "cache" else access)]["mean_total_s"])

    others = [(s, a) for s in STRATEGIES[1:] for a in ("D", "A")]
    out: list[Verdict] = []
    best = [
        tp
        for tp in topologies
        if all(total(tp, "cache", "L") <= float(r["mean_total_s"]) + 1e-9 for r in rows if r["topology"] == tp)
    ]
    cache_first = {
        tp: all_of({f"{s}-{a}": direction(1, _vs_cache_pct(t[(tp, s, a)])) for s, a in others}) for tp in topologies
    }
    out.append(
        Verdict(
            "fig8.cache-best",
            "Cache is the best storage allocation",
            "Cache fastest (all accesses local), which also shortens waiting",
            f"Cache fastest (or tied) in the mean on {len(best)}/{len(topologies)} topologies",
            all_of(cache_first),
        )
    )

    dragonfly = next((tp for tp in topologies if "dragonfly" in tp), None)
    if dragonfly is not None:
        excess = {f"{s.capitalize()}-{a}": _vs_cache_pct(t[(dragonfly, s, a)]) for s, a in others}
        out.append(
            Verdict(
                "fig8.internal-external-44",
                f"Internal/External against Cache on the dragonfly ({dragonfly})",
                "around 44 % slower, not exceedingly higher",
                ", ".join(f"{k} {v.text('{:+.0f}', ' %')}" for k, v in excess.items()),
                all_of({k: difference(44.0, v) for k, v in excess.items()}),
            )
        )

    def order(tp: str) -> list[str]:
        return [k for k, _ in sorted(((s, total(tp, s, "D")) for s in STRATEGIES), key=lambda kv: kv[1])]

    orders = {tp: order(tp) for tp in topologies}
    out.append(
        Verdict(
            "fig8.consistent-topologies",
            "The results are consistent across the three topologies",
            "same picture on dragonfly, fat-tree and torus",
            "; ".join(f"{tp}: {' < '.join(o)}" for tp, o in orders.items()) + " (Disperse, means)",
            all_of(cache_first),
        )
    )

    changes: dict[str, Estimate] = {}
    for tp in topologies:
        for s in STRATEGIES[1:]:
            a, d = t[(tp, s, "A")], t[(tp, s, "D")]
            base = float(d["mean_total_s"])
            # unpaired (the plotted numbers keep no per-seed A/D pairs): the widest difference
            changes[f"{tp} {s}"] = Estimate(
                100 * (float(a["mean_total_s"]) - base) / base,
                100 * (float(a["ci95_low_s"]) - float(d["ci95_high_s"])) / base,
                100 * (float(a["ci95_high_s"]) - float(d["ci95_low_s"])) / base,
                int(a["n_seeds"]),
            )
    ratios = [total(tp, s, "A") / total(tp, s, "D") for tp in topologies for s in STRATEGIES[1:]]
    out.append(
        Verdict(
            "fig8.affinity-no-impact",
            "Disperse and Affinity have no great impact on performance",
            "no great impact (read as within ±10 %)",
            f"Affinity/Disperse between {min(ratios):.2f} and {max(ratios):.2f} (means)",
            all_of({k: no_effect(v, 10.0) for k, v in changes.items()}),
        )
    )
    return out


def dragonfly_routing_note(platforms: Iterable[Path]) -> str:
    """What the dragonfly platforms of a run route with (each file says: platforms/README.md);
    a path that is not a file (a unit test's placeholder) says nothing."""
    from datasched.analysis.seed000_fig6 import platform_routing

    routings = sorted({platform_routing(Path(p)) for p in platforms if Path(p).is_file()} - {"DOR", "static"})
    if not routings:
        return "Routing on the dragonfly: see platforms/README.md (Valiant in the paper)."
    if routings == ["valiant"]:
        return (
            "The dragonfly routes with Valiant as in the paper, with one seeded intermediate group per pair of "
            "routers rather than per flow (docs/design.md, \"Routing as seed 000 has it\")."
        )
    return f"Routing on the dragonfly is {', '.join(routings)} here, Valiant in the paper."


def format_report(rows: Sequence[Mapping[str, Any]], spec: Fig8Spec, variant: str, figure_name: str) -> str:
    table = verdicts(rows)
    nodes = ", ".join(f"`{p.name}`" for p in spec.platforms.values())
    lines = [
        "# Seed 000, Figure 8: storage allocation with many applications",
        "",
        f"![Figure 8]({figure_name})",
        "",
        "Plotted numbers: `seed000_fig8_plotted.csv`: the mean total time over workload seeds (top) and, per",
        "seed, each policy against Cache on the same workload (bottom: mean and 95 % t interval of the paired",
        "ratios; the paper's +44 % dotted). The paper states these results in sentences: each row puts its claim",
        "beside ours, with the rule of the verdict (Internal/External against Cache uses the paired ratios).",
        "",
        *claims_table(table),
        "",
        *verdict_rules(),
        "",
        "## Set-up",
        "",
        f"- variant `{variant}`; platforms {nodes} (unified: node NVM on the interconnect, "
        f"{spec.san_k} SAN I/O servers for staging);",
        f"- per topology and seed ({', '.join(map(str, spec.seeds))}): {spec.n_apps} applications of Table 1's "
        f"multi-application column, {spec.n_phases} phases each, Tasks ~ U{{1..system size}}, all submitted at "
        "t = 0 (the paper does not give arrivals), no walltime;",
        f"- data staged in from / out to central storage: `{spec.staging}` (workloads/README.md: every device "
        "byte of the read phases in, of the write phases out; the paper loads data when an application starts "
        "but gives no amount);",
        f"- queue policy `{spec.scheduler}`, allocation `{spec.allocation}`, storage policy per bar "
        "(Cache; Internal / External with Disperse, Affinity, Local; k = the application's drawn STG-k; "
        f"External picks the least-loaded NVMs outside the partition), traffic policy `{spec.traffic_policy}`; "
        + (
            f"communicate phases as the engine's calibrated approximate all-to-all (`--ipc-fanout {spec.ipc_fanout}`)."
            if spec.ipc_fanout
            else "exact all-to-all communicate phases."
        ),
        "",
        "## Why ours may differ",
        "",
        "- **Sizes, speeds, arrivals and the queue policy are ours** (the paper gives none): the same as",
        "  Figure 6's (1e10 flops, 1e8 bytes sent per task per phase, 1e9 bytes per I/O task per I/O phase;",
        "  10 Gbit/s links), FCFS with sequential allocation, all applications at t = 0. With every",
        "  application queued at once, waiting dominates the total time, as in the paper's data-centre scenario.",
        "- **The quick variant uses the small topologies** (72-node dragonfly, 64-node fat-tree and torus) and",
        "  fewer phases and seeds; the paper's figure uses the 600/512/512-node ones (the full variant).",
        "- **Sharing is per activity and phases are bulk-synchronous** (workloads/README.md section 3); INRFlow",
        "  shares per flow. " + dragonfly_routing_note(spec.platforms.values()),
        "- **Staging**: our stage-in/out volume is an upper bound (distinct data per I/O phase); it loads the SAN",
        "  front-end equally for Cache, Internal and External, so it narrows their relative differences.",
        "",
    ]
    return "\n".join(lines)
