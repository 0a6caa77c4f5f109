"""Seed 000, Figure 10: traffic priorities with many applications on the dragonfly.

Workloads of ``n_apps`` Markov applications drawn from Table 1's multi-application column
(Prob(C/C) ~ U[0, 1], Tasks ~ U{1..system size}, storage allocation drawn among Internal,
External, Cache and SAN, access among D/A/L, memory hits and remote accesses ~ U[0, 100] %)
run on one dragonfly under each traffic policy: NP, FP and BA with 95-5, 50-50 and 5-95 of
a contended link to IPC and storage (the engine's ``--traffic-policy np | fp | ba:X``, one
solver for all: ``sim/src/execution/traffic.hpp``). Every policy of a seed runs the same
applications with the same queue policy, so the paired per-seed ratio to NP isolates the
policy. The paper plots the average run time of the applications (its caption) and speaks
of total times (its text): both are computed.

The classes meet here between applications (one application's all-to-all shares links with
another's remote-NVM reads), and, under ``io_distributions`` ``per_task`` (the I/O tasks
distribute what they read to the other tasks, seed 000 5.1; Figure 7's report), also within
one application. Each model is a dimension of the runs; the claims are judged on
``per_task`` when it was run.

Each completed simulation is one row of the runs table (:data:`RUN_COLUMNS`), written per run
(``runs/<path>.csv``) so that the paper-sized variant, hours of CPU, can be committed run by
run and judged on the runs that are in (the report counts them).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.seed000_common import Verdict, claims_table, path_fields, verdict_rules, write_rows
from datasched.analysis.stats import mean_ci95
from datasched.analysis.style import save
from datasched.analysis.verdicts import Estimate, Judgement, all_of, difference, direction, missing

#: The paper's five bars: NP, FP and BA with (IPC-storage) 95-5, 50-50, 5-95.
PAPER_POLICIES = ("np", "fp", "ba:95", "ba:50", "ba:5")
#: Table 1's multi-application storage allocations.
ALLOCATIONS = ("internal", "external", "cache", "san")


def policy_label(policy: str) -> str:
    """``ba:95`` -> ``BA 95-5``; ``np`` -> ``NP``."""
    if policy.startswith("ba:"):
        x = float(policy.removeprefix("ba:"))
        return f"BA {x:g}-{100 - x:g}"
    return policy.upper()


def policy_slug(policy: str) -> str:
    """A path-safe name: ``ba:95`` -> ``ba-95``."""
    return policy.replace(":", "-")


def policy_from_slug(slug: str) -> str:
    return slug.replace("-", ":", 1) if slug.startswith("ba-") else slug


@dataclass(frozen=True)
class Fig10Spec:
    topology: str  # label of the platform (a dragonfly, as in the paper)
    platform: Path  # unified SimGrid platform
    n_apps: int
    n_phases: int
    seeds: tuple[int, ...]
    policies: tuple[str, ...] = PAPER_POLICIES
    allocations: tuple[str, ...] = ALLOCATIONS
    san_k: int = 4  # I/O servers of SAN applications and of staging (the platform's)
    staging: str = "io_volume"
    scheduler: str = "fcfs"
    allocation: str = "sequential"
    ipc_fanout: int = 0
    io_distributions: tuple[str, ...] = ("none",)
    io_groups: int = 0  # the engine's --io-groups (0: per I/O task, exact)

    def engine_args(self) -> list[str]:
        return ["--io-groups", str(self.io_groups)] if self.io_groups else []

    def runs(self) -> list[Fig10Run]:
        """Every planned run, seed-major: all I/O models and policies of the first seed first
        (so a partial full variant has a value for every policy as early as possible)."""
        return [
            Fig10Run(self.topology, p, s, io) for s in self.seeds for io in self.io_distributions for p in self.policies
        ]

    @property
    def judged_io(self) -> str:
        """The I/O model the claims are judged on: ``per_task`` (the paper's 5.1) if run."""
        return "per_task" if "per_task" in self.io_distributions else self.io_distributions[0]


@dataclass(frozen=True)
class Fig10Run:
    topology: str
    policy: str  # np | fp | ba:X
    seed: int
    io: str  # none | per_task (workloads.phases.IoDistribution)

    @property
    def workload_path(self) -> str:
        return f"io={self.io}/topology={self.topology}/seed={self.seed}"

    @property
    def path(self) -> str:
        return f"io={self.io}/topology={self.topology}/policy={policy_slug(self.policy)}/seed={self.seed}"

    @classmethod
    def from_path(cls, path: str) -> Fig10Run:
        fields = path_fields(path)
        return cls(fields["topology"], policy_from_slug(fields["policy"]), int(fields["seed"]), fields["io"])

    def scheduler_options(self, spec: Fig10Spec) -> dict[str, Any]:
        """No storage policy: each application's data lives where its drawn allocation puts
        it (the engine's defaults, workloads/README.md section 3)."""
        return {"allocation": spec.allocation}


def markov_params(spec: Fig10Spec, seed: int, nb_nodes: int, io: str) -> dict[str, Any]:
    """Table 1's multi-application column over the whole system, every allocation drawn,
    all at t = 0, staging over the first ``san_k`` servers; SAN applications use those;
    ``io`` is the applications' I/O distribution (the same draws under every model)."""
    return {
        "io_distribution": io,
        "kind": "multi",
        "seed": seed,
        "n_apps": spec.n_apps,
        "max_tasks": nb_nodes,
        "allocations": list(spec.allocations),
        "san_k_choices": [spec.san_k],
        "staging": spec.staging,
        "walltime_factor": None,
        "sizes": {"n_phases": spec.n_phases},
    }


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Fig10Spec:
    (topology, platform), *more = dict(data["platform"]).items()
    if more:
        raise ValueError("platform: one topology (label: path), as in the paper's Fig. 10")
    path = Path(platform)
    policies = tuple(str(p) for p in data.get("policies", PAPER_POLICIES))
    if "np" not in policies:
        raise ValueError("policies: must contain np (every ratio is to NP)")
    return Fig10Spec(
        topology=str(topology),
        platform=path if path.is_absolute() else repo_root / path,
        n_apps=int(data["n_apps"]),
        n_phases=int(data["n_phases"]),
        seeds=tuple(int(s) for s in data["seeds"]),
        policies=policies,
        allocations=tuple(str(a) for a in data.get("allocations", ALLOCATIONS)),
        san_k=int(data.get("san_k", 4)),
        staging=str(data.get("staging", "io_volume")),
        scheduler=str(data.get("scheduler", "fcfs")),
        allocation=str(data.get("allocation", "sequential")),
        ipc_fanout=int(data.get("ipc_fanout", 0)),
        io_distributions=_io_distributions(data.get("io_distributions", ["none"])),
        io_groups=int(data.get("io_groups", 0)),
    )


def _io_distributions(values: Sequence[Any]) -> tuple[str, ...]:
    out = tuple(str(v) for v in values)
    bad = [v for v in out if v not in ("none", "per_task")]
    if bad or not out:
        raise ValueError(f"io_distributions: {bad or '(empty)'} (each none or per_task)")
    return out


# --------------------------------------------------------------------------- per-run rows

RUN_COLUMNS = (
    "io",
    "topology",
    "policy",
    "seed",
    "n_apps",
    "mean_run_s",
    "mean_wait_s",
    "mean_total_s",
    "makespan_s",
)


def run_row(run: Fig10Run, jobs_csv: Path) -> dict[str, Any]:
    """One run's means over its applications; every application must have completed."""
    with open(jobs_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    bad = [r["job_id"] for r in rows if r["final_state"] != "COMPLETED_SUCCESSFULLY"]
    if bad or not rows:
        raise RuntimeError(f"{jobs_csv}: applications {bad or '(none)'} did not complete")
    n = len(rows)
    return {
        "io": run.io,
        "topology": run.topology,
        "policy": run.policy,
        "seed": run.seed,
        "n_apps": n,
        "mean_run_s": sum(float(r["execution_time"]) for r in rows) / n,
        "mean_wait_s": sum(float(r["waiting_time"]) for r in rows) / n,
        "mean_total_s": sum(float(r["turnaround_time"]) for r in rows) / n,
        "makespan_s": max(float(r["finish_time"]) for r in rows),
    }


def write_run_rows(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_rows(rows, RUN_COLUMNS, path)


def read_run_rows(paths: Iterable[Path]) -> list[dict[str, Any]]:
    out = []
    for path in paths:
        with open(path, newline="") as handle:
            for r in csv.DictReader(handle):
                out.append(
                    {
                        "io": r["io"],
                        "topology": r["topology"],
                        "policy": r["policy"],
                        "seed": int(r["seed"]),
                        "n_apps": int(r["n_apps"]),
                        **{k: float(r[k]) for k in RUN_COLUMNS[5:]},
                    }
                )
    return out


# --------------------------------------------------------------------------- table

COLUMNS = (
    "io",
    "policy",
    "n_seeds",
    "mean_run_s",
    "mean_total_s",
    "mean_wait_s",
    "run_vs_np",
    "run_vs_np_ci95_low",
    "run_vs_np_ci95_high",
    "total_vs_np",
    "total_vs_np_ci95_low",
    "total_vs_np_ci95_high",
)


def table_rows(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per I/O model and policy with at least one run: means over its seeds, and the paired
    per-seed ratio to NP (same model) of the mean run time and of the mean total time (over
    the seeds NP also has)."""
    rows = []
    for io in spec.io_distributions:
        rows += _model_rows(spec, [r for r in runs if r["io"] == io], io)
    return rows


def _model_rows(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]], io: str) -> list[dict[str, Any]]:
    by = {(r["policy"], r["seed"]): r for r in runs if r["topology"] == spec.topology}
    rows = []
    for policy in spec.policies:
        seeds = [s for s in spec.seeds if (policy, s) in by]
        if not seeds:
            continue
        paired = [s for s in seeds if ("np", s) in by]
        row: dict[str, Any] = {
            "io": io,
            "policy": policy,
            "n_seeds": len(seeds),
            **{
                k: sum(by[(policy, s)][k] for s in seeds) / len(seeds)
                for k in ("mean_run_s", "mean_total_s", "mean_wait_s")
            },
        }
        for metric, key in (("run", "mean_run_s"), ("total", "mean_total_s")):
            if paired:
                ci = mean_ci95([by[(policy, s)][key] / by[("np", s)][key] for s in paired])
                row |= {
                    f"{metric}_vs_np": ci.mean,
                    f"{metric}_vs_np_ci95_low": ci.low,
                    f"{metric}_vs_np_ci95_high": ci.high,
                }
            else:
                row |= {f"{metric}_vs_np": "", f"{metric}_vs_np_ci95_low": "", f"{metric}_vs_np_ci95_high": ""}
        rows.append(row)
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)


# --------------------------------------------------------------------------- figure


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ios = list(dict.fromkeys(r["io"] for r in rows))
    fig, grid = plt.subplots(len(ios), 3, figsize=(13, 4.2 * len(ios)), squeeze=False)
    for io, axes in zip(ios, grid, strict=True):
        _plot_model([r for r in rows if r["io"] == io], axes, IO_TITLES.get(io, io))
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png


#: How each I/O model is named on the figure.
IO_TITLES = {
    "none": "I/O tasks do their own I/O (no distribution)",
    "per_task": "I/O tasks distribute to the other tasks",
}


def _plot_model(rows: Sequence[Mapping[str, Any]], axes: Any, model: str) -> None:
    labels = [policy_label(r["policy"]) for r in rows]
    colours = ["#4c72b0" if r["policy"] == "np" else "#c44e52" if r["policy"] == "fp" else "#dd8452" for r in rows]
    axes[0].bar(range(len(rows)), [r["mean_run_s"] for r in rows], color=colours)
    axes[0].set_ylabel("average run time per application (s)")
    axes[0].set_title(f"a) average run time (the paper's caption)\n{model}", fontsize=10)
    for ax, metric, name in ((axes[1], "run", "run time"), (axes[2], "total", "total time")):
        have = [i for i, r in enumerate(rows) if r[f"{metric}_vs_np"] != ""]
        ax.bar(
            have,
            [rows[i][f"{metric}_vs_np"] for i in have],
            yerr=[
                [rows[i][f"{metric}_vs_np"] - rows[i][f"{metric}_vs_np_ci95_low"] for i in have],
                [rows[i][f"{metric}_vs_np_ci95_high"] - rows[i][f"{metric}_vs_np"] for i in have],
            ],
            capsize=3,
            color=[colours[i] for i in have],
        )
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(0.83, color="black", linestyle=":", linewidth=1, label="paper: FP up to 17 % faster")
        values = [rows[i][f"{metric}_vs_np_ci95_{b}"] for i in have for b in ("low", "high")]
        ax.set_ylim(min([0.8, *values]) - 0.02, max([1.02, *values]) + 0.02)
        ax.set_ylabel(f"{name} relative to NP (same workload)")
        ax.set_title(f"{'b' if metric == 'run' else 'c'}) average {name} / NP's, per seed\n{model}", fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
    for ax in axes:
        ax.set_xticks(range(len(rows)), labels, rotation=30, ha="right", fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)


# --------------------------------------------------------------------------- verdicts


def _paired_pct(runs: Sequence[Mapping[str, Any]], topology: str, a: str, b: str, key: str) -> Estimate | None:
    """How much faster ``a`` is than ``b`` in %, per seed where both ran: 100 (1 - a/b)."""
    by = {(r["policy"], r["seed"]): r[key] for r in runs if r["topology"] == topology}
    seeds = sorted(s for p, s in by if p == a and (b, s) in by)
    if not seeds:
        return None
    return Estimate.over_seeds([100 * (1 - by[(a, s)] / by[(b, s)]) for s in seeds])


def verdicts(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """The paper's two sentences on Fig. 10, judged on paired per-seed differences (so a
    difference within the spread of the seeds is *inconclusive*, whatever the means say), on
    the runs of :attr:`Fig10Spec.judged_io`."""
    runs = [r for r in runs if r["io"] == spec.judged_io]
    out: list[Verdict] = []
    others = [p for p in spec.policies if p != "fp"]
    faster = {p: _paired_pct(runs, spec.topology, "fp", p, "mean_run_s") for p in others}
    have = {p: e for p, e in faster.items() if e is not None}
    fp_np = faster.get("np")
    out.append(
        Verdict(
            "fig10.fp-gain",
            "Fig. 10: FP against NP, average run time of the applications",
            "FP up to 17 % faster than NP",
            f"FP faster than NP by {fp_np.text('{:+.2g}', ' %')}" if fp_np else "no paired FP/NP seed",
            difference(17.0, fp_np) if fp_np else missing("no seed with both FP and NP"),
        )
    )
    out.append(
        Verdict(
            "fig10.fp-best",
            "Fig. 10: FP is the best performer among the five policies",
            "FP best (lowest average run time)",
            "FP faster than " + ", ".join(f"{policy_label(p)} by {e.text('{:+.2g}', ' %')}" for p, e in have.items())
            if have
            else "no paired seed",
            all_of({policy_label(p): direction(1, e) for p, e in have.items()}) if have else missing("no paired seed"),
        )
    )
    ba = [p for p in spec.policies if p.startswith("ba:") and p != "ba:50"]
    judged: dict[str, Judgement] = {}
    text = []
    for p in ba:
        e = _paired_pct(runs, spec.topology, "ba:50", p, "mean_total_s")
        if e is not None:
            judged[f"vs {policy_label(p)}"] = direction(1, e)
            text.append(f"{policy_label(p)} by {e.text('{:+.2g}', ' %')}")
    out.append(
        Verdict(
            "fig10.ba-50-best",
            "Fig. 10: among BA's assignments, 50-50 gives the lowest total times",
            "BA 50-50 lowest total time (of 95-5, 50-50, 5-95)",
            "BA 50-50 faster (total time) than " + ", ".join(text) if text else "no paired BA seed",
            all_of(judged) if judged else missing("BA 50-50 and another BA assignment not both run"),
        )
    )
    return out


def identical_seeds(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """How often the policies changed nothing at all, per I/O model: per seed with NP and
    another policy in, whether every policy's applications ran exactly as long as under NP (to
    the 1e-6 s the rows keep), i.e. no traffic policy ever changed a share that mattered."""
    lines = []
    for io in spec.io_distributions:
        by: dict[int, dict[str, float]] = {}
        for r in runs:
            if r["topology"] == spec.topology and r["io"] == io:
                by.setdefault(int(r["seed"]), {})[r["policy"]] = round(float(r["mean_run_s"]), 6)
        judged = {s: v for s, v in by.items() if "np" in v and len(v) > 1}
        if not judged:
            continue
        same = sorted(s for s, v in judged.items() if len(set(v.values())) == 1)
        gaps = [100 * abs(t / v["np"] - 1) for v in judged.values() for t in v.values()]
        lines.append(
            f"- `{io}`: seeds on which every policy run gives NP's mean run time exactly: {len(same)} of {len(judged)}"
            + (f" ({'seeds' if len(same) > 1 else 'seed'} {', '.join(map(str, same))})" if same else "")
            + f"; the largest difference of any run's mean run time from NP's on its seed: {max(gaps):.4f} %."
        )
    if not lines:
        return []
    return [
        *lines,
        "",
        "A policy only changes how a link is shared *between* the classes, so it acts only where IPC and storage",
        "traffic share a link that limits them. Under `none` an application's own classes never overlap (Figure 7),",
        "so only different applications' traffic can meet, mainly on router-to-router links that their routes",
        "share (every node link carries only its own application's traffic, except the reads of External",
        "applications from NVMs on other applications' nodes). Under `per_task` an application's distribution",
        "also meets its own remote reads, as in Figure 7.",
    ]


def routing_notes(platform: Path) -> list[str]:
    """The dragonfly's routing, read from the platform file."""
    from datasched.analysis.seed000_fig8 import dragonfly_routing_note

    return ["- **Routing**: " + dragonfly_routing_note([platform])]


def format_report(
    spec: Fig10Spec, runs: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]], variant: str, figure: str
) -> str:
    planned = len(spec.runs())
    done = sorted({(r["io"], r["policy"], r["seed"]) for r in runs if r["topology"] == spec.topology})
    per_policy = ", ".join(f"{policy_label(r['policy'])} {r['n_seeds']} (`{r['io']}`)" for r in rows)
    lines = [
        "# Seed 000, Figure 10: traffic priorities with many applications (dragonfly)",
        "",
        f"![Figure 10]({figure})",
        "",
        f"**Runs in: {len(done)} of the {planned} planned** ({len(spec.io_distributions)} I/O models × "
        f"{len(spec.policies)} policies × {len(spec.seeds)} seeds; seeds per policy: {per_policy}). Per-run numbers:",
        "`runs/` (one CSV per run); plotted numbers: `seed000_fig10_plotted.csv` (per I/O model and policy: means",
        "over its seeds; ratios to NP over the seeds NP also has, mean and 95 % t interval of the paired per-seed",
        f"ratios). The claims are judged on the I/O model `{spec.judged_io}`.",
        "",
        *claims_table(verdicts(spec, runs)),
        "",
        *verdict_rules(),
        "",
        *identical_seeds(spec, runs),
        "",
        "## Set-up",
        "",
        f"- variant `{variant}`; platform `{spec.platform.name}` ({spec.topology}); traffic policies "
        + ", ".join(f"`{p}` ({policy_label(p)})" for p in spec.policies)
        + " (engine `--traffic-policy`; BA X-Y gives X % of a contended link to IPC, Y % to storage);",
        f"- I/O models {', '.join(f'`{io}`' for io in spec.io_distributions)} (`none`: each I/O task reads and "
        "writes for itself; `per_task`: each I/O task distributes what it reads to the application's other tasks "
        "once its own read ends, and gathers before it writes; workloads/README.md section 3), the same "
        "applications under each;",
        f"- per seed ({', '.join(map(str, spec.seeds))}): {spec.n_apps} applications of Table 1's multi-application "
        f"column, {spec.n_phases} phases each, Tasks ~ U{{1..system size}}, storage allocation drawn among "
        f"{', '.join(spec.allocations)} (each application's data where its drawn allocation puts it: the engine's "
        f"defaults), access D/A/L drawn, SAN-k = {spec.san_k}, all submitted at t = 0, no walltime;",
        f"- staging `{spec.staging}` over the first {spec.san_k} I/O servers (as Figure 8); queue policy "
        f"`{spec.scheduler}`, allocation `{spec.allocation}`; "
        + (
            f"communicate phases as the engine's calibrated approximate all-to-all (`--ipc-fanout {spec.ipc_fanout}`)."
            if spec.ipc_fanout
            else "exact all-to-all communicate phases."
        )
        + (
            f" The I/O of `per_task` phases runs in {spec.io_groups} groups of consecutive I/O tasks (`--io-groups "
            f"{spec.io_groups}`: causal order between groups, not within one; workloads/README.md section 3)."
            if spec.io_groups
            else ""
        ),
        "",
        "## Why ours may differ",
        "",
        "- **The paper does not say which storage allocation Fig. 10's workloads use**; we draw it per",
        "  application among Table 1's four (our reading of the multi-application column), so part of the",
        "  applications (Cache, SAN, Local access) put no storage traffic on the interconnect at all. Sizes,",
        "  speeds, arrivals and the queue policy are ours, as in Figure 8 (1e10 flops, 1e8 bytes sent per task",
        "  and communicate phase, 1e9 bytes per I/O task and I/O phase, 10 Gbit/s links).",
        "- **Sharing is per activity** (one SimGrid activity per tier of a phase, per I/O task under `per_task`,",
        "  and per communicate phase) and phases are bulk-synchronous; INRFlow shares per flow and keeps causal",
        "  order between flows. Under `none` an application's IPC and storage never overlap (Figure 7's report), so",
        "  every effect comes from one application's traffic meeting another's; under `per_task` they overlap",
        "  within an application too, through the distribution (our reading of the paper's section 5.1).",
        "- **Priorities per activity**: BA weights an activity by its class weight over the number of activities",
        "  of its class on its most crowded shared link, exact when the activities on a link are all limited by it",
        "  (sim/src/execution/traffic.hpp); FP gives IPC a weight 1e6 times storage's.",
        "- **Under `none`, neither the storage mix nor our IPC size explains the near-zero effect**:",
        "  `bench/seed000_fig10_sensitivity` (the quick workloads, seeds 1-3, NP against FP; measured 2026-11-26)",
        "  gives FP gains between -0.001 % and 0 % as drawn, -0.08 % to +0.001 % with every application's data",
        "  External-Disperse (the most storage traffic across other applications' node links), and -0.04 % to",
        "  +0.002 % with 10 times our IPC bytes. In our model the links that limit an application are mostly its own",
        "  nodes' links, where its traffic is one class at a time.",
        *routing_notes(spec.platform),
        "- **The quick variant** runs a smaller dragonfly, fewer applications, phases and seeds, but every policy",
        "  of the paper's figure.",
        "",
    ]
    return "\n".join(lines)


def build(spec: Fig10Spec, folder: Path, variant: str) -> str:
    """The figure, plotted numbers and report in ``folder`` from the per-run rows present in
    ``folder/runs/`` (all of them for a finished variant, those in so far for a long one);
    returns a one-line summary."""
    planned = {run.path for run in spec.runs()}
    paths = sorted(p for p in (folder / "runs").rglob("*.csv") if str(p.relative_to(folder / "runs"))[:-4] in planned)
    runs = read_run_rows(paths)
    if not runs:
        raise RuntimeError(f"{folder}/runs: none of the {len(planned)} planned runs is in")
    rows = table_rows(spec, runs)
    write_table(rows, folder / "seed000_fig10_plotted.csv")
    plot(
        rows,
        folder / "seed000_fig10.png",
        f"Seed 000 Fig. 10 on datasched ({variant}, {len(runs)}/{len(planned)} runs)",
    )
    (folder / "report.md").write_text(format_report(spec, runs, rows, variant, "seed000_fig10.png"))
    return f"{len(runs)} of {len(planned)} runs\n"
