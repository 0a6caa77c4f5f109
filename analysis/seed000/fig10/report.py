"""Figure 10 step 6, the report (and :func:`build`, the whole artifact from the runs' summaries)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import write_artifact_files
from datasched.analysis.claims_table import claims_table, verdict_rules
from datasched.analysis.seed000.fig10.claims import verdicts
from datasched.analysis.seed000.fig10.figure import plot
from datasched.analysis.seed000.fig10.runs import run_row
from datasched.analysis.seed000.fig10.spec import Fig10Run, Fig10Spec, policy_label
from datasched.analysis.seed000.fig10.table import COLUMNS, table_rows, write_table


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
    from datasched.analysis.seed000.routing import dragonfly_routing_note

    return ["- **Routing**: " + dragonfly_routing_note([platform])]


def format_report(
    spec: Fig10Spec, runs: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]], variant: str, figure: str
) -> str:
    done = sorted({(r["io"], r["policy"], r["seed"]) for r in runs if r["topology"] == spec.topology})
    per_policy = ", ".join(f"{policy_label(r['policy'])} {r['n_seeds']} (`{r['io']}`)" for r in rows)
    lines = [
        "# Seed 000, Figure 10: traffic priorities with many applications (dragonfly)",
        "",
        f"![Figure 10]({figure})",
        "",
        f"**Runs judged: {len(done)}** ({len(spec.io_distributions)} I/O models × {len(spec.policies)} policies × "
        f"{len(spec.seeds)} seeds; seeds per policy: {per_policy}). Plotted numbers: `seed000_fig10_plotted.csv`",
        "(per I/O model and policy: means over its seeds of each run's means over its applications; ratios to NP",
        "over the seeds NP also has, mean and 95 % t interval of the paired per-seed ratios). The claims are judged",
        f"on the I/O model `{spec.judged_io}`.",
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


def build(spec: Fig10Spec, folder: Path, variant: str, *, accumulate: bool, sims: Path) -> str:
    """The figure, plotted numbers and report in ``folder``, from every planned simulation under
    ``sims`` or, when the variant accumulates, from the committed summaries of its complete seeds
    (a placeholder while none is complete); returns a one-line summary."""
    png, plotted = folder / "seed000_fig10.png", folder / "seed000_fig10_plotted.csv"
    title = f"Seed 000 Fig. 10 on datasched ({variant})"

    def draw(judged: Fig10Spec, metrics: Mapping[str, Mapping[str, Any]]) -> str:
        runs = [run_row(Fig10Run.from_path(unit), m) for unit, m in metrics.items()]
        rows = table_rows(judged, runs)
        write_table(rows, plotted)
        plot(rows, png, title)
        return format_report(judged, runs, rows, variant, png.name)

    outputs = (png, plotted, folder / "report.md")
    count = write_artifact_files(
        "seed000_fig10", spec, outputs, accumulate=accumulate, sims=sims, title=title, columns=COLUMNS, draw=draw
    )
    return f"{count} runs\n"
