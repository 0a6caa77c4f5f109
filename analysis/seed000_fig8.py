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

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.stats import mean_ci95

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
        fields = dict(part.split("=", 1) for part in path.split("/"))
        strategy, access = fields["storage"].rsplit("-", 1)
        return cls(fields["topology"], strategy, access, int(fields["seed"]))

    def scheduler_options(self, spec: Fig8Spec) -> dict[str, Any]:
        storage: dict[str, Any] = {"name": self.strategy}
        if self.strategy != "cache":
            storage["access"] = ACCESS[self.access]
        return {"allocation": spec.allocation, "storage": storage}


def compute_nodes(platform: Path) -> int:
    """The platform's compute nodes, as the engine counts them (``datasched-sim --inspect``)."""
    import json
    import subprocess

    from datasched.engine import find_engine

    out = subprocess.run(
        [str(find_engine()), "-p", str(platform), "--inspect"], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(f"{platform}: {out.stderr.strip() or 'datasched-sim --inspect failed'}")
    return int(json.loads(out.stdout)["nb_compute_resources"])


def markov_params(spec: Fig8Spec, seed: int, nb_nodes: int) -> dict[str, Any]:
    """The multi-application workload of one topology and seed (Exp = the system size)."""
    return {
        "kind": "multi",
        "seed": seed,
        "n_apps": spec.n_apps,
        "max_tasks": nb_nodes,
        "allocations": ["internal"],
        "san_k_choices": [spec.san_k],
        "staging": spec.staging,
        "walltime_factor": None,
        "sizes": {"n_phases": spec.n_phases},
    }


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
        scheduler=str(data.get("scheduler", "fcfs")),
        allocation=str(data.get("allocation", "sequential")),
        traffic_policy=str(data.get("traffic_policy", "np")),
    )


# --------------------------------------------------------------------------- table

COLUMNS = ("topology", "storage", "access", "n_seeds", "mean_total_s", "ci95_low_s", "ci95_high_s", "mean_wait_s")


def run_means(jobs_csv: Path) -> tuple[float, float]:
    """(mean total time, mean waiting time) of one run's applications; every one must
    have completed (a killed or failed application would make the mean meaningless)."""
    with open(jobs_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    bad = [r["job_id"] for r in rows if r["final_state"] != "COMPLETED_SUCCESSFULLY"]
    if bad or not rows:
        raise RuntimeError(f"{jobs_csv}: applications {bad or '(none)'} did not complete")
    total = sum(float(r["turnaround_time"]) for r in rows) / len(rows)
    wait = sum(float(r["waiting_time"]) for r in rows) / len(rows)
    return total, wait


def table_rows(spec: Fig8Spec, results: Mapping[Fig8Run, tuple[float, float]]) -> list[dict[str, Any]]:
    rows = []
    for topology in spec.platforms:
        for strategy, access in spec.variants():
            values = [results[Fig8Run(topology, strategy, access, s)] for s in spec.seeds]
            ci = mean_ci95([v[0] for v in values])
            rows.append(
                {
                    "topology": topology,
                    "storage": strategy,
                    "access": access,
                    "n_seeds": len(values),
                    "mean_total_s": ci.mean,
                    "ci95_low_s": ci.low,
                    "ci95_high_s": ci.high,
                    "mean_wait_s": sum(v[1] for v in values) / len(values),
                }
            )
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6f}" if isinstance(v, float) else v) for k, v in row.items()})
    return path


def _lookup(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, str], Mapping[str, Any]]:
    return {(r["topology"], r["storage"], r["access"]): r for r in rows}


# --------------------------------------------------------------------------- figure


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    fig, axes = plt.subplots(1, len(topologies), figsize=(4.5 * len(topologies), 4.2), squeeze=False)
    colours = {"cache": "#4c72b0", "internal": "#dd8452", "external": "#55a868"}
    for ax, topology in zip(axes[0], topologies, strict=True):
        mine = [r for r in rows if r["topology"] == topology]
        labels = [f"{r['storage'].capitalize()}-{r['access']}" if r["storage"] != "cache" else "Cache" for r in mine]
        means = [r["mean_total_s"] for r in mine]
        errors = [
            [r["mean_total_s"] - r["ci95_low_s"] for r in mine],
            [r["ci95_high_s"] - r["mean_total_s"] for r in mine],
        ]
        ax.bar(range(len(mine)), means, yerr=errors, capsize=3, color=[colours[r["storage"]] for r in mine])
        ax.set_xticks(range(len(mine)), labels, rotation=45, ha="right", fontsize=8)
        ax.set_title(topology, fontsize=10)
        ax.set_ylabel("average total time per application (s)")
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return png


# --------------------------------------------------------------------------- verdicts


@dataclass(frozen=True)
class Verdict:
    claim: str
    paper: str
    ours: str
    verdict: str


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    t = _lookup(rows)
    topologies = list(dict.fromkeys(r["topology"] for r in rows))

    def total(topology: str, strategy: str, access: str) -> float:
        return float(t[(topology, strategy, "L" if strategy == "cache" else access)]["mean_total_s"])

    out: list[Verdict] = []
    best = [
        tp
        for tp in topologies
        if all(total(tp, "cache", "L") <= float(r["mean_total_s"]) + 1e-9 for r in rows if r["topology"] == tp)
    ]
    out.append(
        Verdict(
            "Cache is the best storage allocation",
            "Cache fastest (all accesses local), which also shortens waiting",
            f"Cache fastest (or tied) on {len(best)}/{len(topologies)} topologies",
            "reproduced" if len(best) == len(topologies) else "not reproduced",
        )
    )

    dragonfly = next((tp for tp in topologies if "dragonfly" in tp), None)
    if dragonfly is not None:
        slower = {
            f"{s.capitalize()}-{a}": total(dragonfly, s, a) / total(dragonfly, "cache", "L") - 1
            for s in STRATEGIES[1:]
            for a in ("D", "A")
        }
        mean_slower = sum(slower.values()) / len(slower)
        # Verdict rule (not a model parameter): "in magnitude" when our mean excess over
        # Cache is within a factor 1.5 of the paper's 44 % (29 to 66 %).
        verdict = (
            "reproduced in magnitude"
            if 0.29 <= mean_slower <= 0.66
            else ("reproduced in direction" if mean_slower > 0 else "not reproduced")
        )
        out.append(
            Verdict(
                f"Internal/External against Cache on the dragonfly ({dragonfly})",
                "around 44 % slower, not exceedingly higher",
                f"{100 * mean_slower:.0f} % slower on average ("
                + ", ".join(f"{k} {100 * v:+.0f} %" for k, v in slower.items())
                + ")",
                verdict,
            )
        )

    def order(tp: str) -> list[str]:
        return [k for k, _ in sorted(((s, total(tp, s, "D")) for s in STRATEGIES), key=lambda kv: kv[1])]

    orders = {tp: order(tp) for tp in topologies}
    same = len({tuple(o) for o in orders.values()}) == 1
    out.append(
        Verdict(
            "The results are consistent across the three topologies",
            "same picture on dragonfly, fat-tree and torus",
            "; ".join(f"{tp}: {' < '.join(o)}" for tp, o in orders.items()) + " (Disperse)",
            "reproduced" if same else "partly",
        )
    )

    ratios = [total(tp, s, "A") / total(tp, s, "D") for tp in topologies for s in STRATEGIES[1:]]
    spread = max(abs(r - 1) for r in ratios)
    # Verdict rule: "no great impact" read as Affinity within 10 % of Disperse everywhere.
    out.append(
        Verdict(
            "Disperse and Affinity have no great impact on performance",
            "no great impact (many applications mostly compute and communicate)",
            f"Affinity/Disperse between {min(ratios):.2f} and {max(ratios):.2f}",
            "reproduced" if spread <= 0.10 else "not reproduced",
        )
    )
    return out


def format_report(rows: Sequence[Mapping[str, Any]], spec: Fig8Spec, variant: str, figure_name: str) -> str:
    table = verdicts(rows)
    nodes = ", ".join(f"`{p.name}`" for p in spec.platforms.values())
    lines = [
        "# Seed 000, Figure 8: storage allocation with many applications",
        "",
        f"![Figure 8]({figure_name})",
        "",
        "Plotted numbers: `seed000_fig8_plotted.csv` (mean over workload seeds, 95 % t interval). The paper",
        "states these results in sentences: each row puts its claim beside ours, with the rule of the verdict.",
        "",
        "| claim | paper | ours | verdict |",
        "|---|---|---|---|",
        *(f"| {v.claim} | {v.paper} | {v.ours} | {v.verdict} |" for v in table),
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
        f"External picks the least-loaded NVMs outside the partition), traffic policy `{spec.traffic_policy}`.",
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
        "  shares per flow. Routing on the dragonfly is minimal here, Valiant in the paper.",
        "- **Staging**: our stage-in/out volume is an upper bound (distinct data per I/O phase); it loads the SAN",
        "  front-end equally for Cache, Internal and External, so it narrows their relative differences.",
        "",
    ]
    return "\n".join(lines)
