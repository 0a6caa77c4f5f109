"""Daemons-on-nodes step 4, the report: the question, the findings read from the paired ratios
with a stated rule, the set-up and the choices no paper makes for us."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.daemons_on_nodes.figure import plot
from datasched.analysis.daemons_on_nodes.spec import DaemonsRun, DaemonsSpec
from datasched.analysis.daemons_on_nodes.table import COLUMNS, table_rows, write_table
from datasched.analysis.paired_settings import count_line, ratio_text, ratio_word
from datasched.analysis.path_values import number
from datasched.analysis.seed000.multi_application import communicate_phases
from datasched.analysis.seed000.multi_application_artifact import FigureSteps


def _summary(rows: Sequence[Mapping[str, Any]], spec: DaemonsSpec) -> list[str]:
    """What the table shows, counted from it: the daemons' cost at the largest swept cost, and
    how many placement and allocation comparisons came out either way."""
    top = max(spec.cpu_s_per_gb)
    at_top = [r for r in rows if r["cpu_s_per_gb"] == top and r["vs_no_daemons"] != ""]
    lines = ["**What it shows** (counted from the table by the rule above):", ""]
    if at_top:
        low = min(r["vs_no_daemons"] for r in at_top)
        high = max(r["vs_no_daemons"] for r in at_top)
        slower = sum(ratio_word(r, "vs_no_daemons") == "slower" for r in at_top)
        lines.append(
            f"- at {number(top)} s/GB the daemons cost each setting {100 * (low - 1):+.1f} to "
            f"{100 * (high - 1):+.1f} % of its mean total time ({slower} of {len(at_top)} settings *slower*);"
        )
    for name, what in (
        ("vs_least_loaded", "`idle_nodes` against `least_loaded`"),
        ("vs_sequential", "`data_aware` against `sequential`"),
    ):
        line = count_line((r for r in rows if r["cpu_s_per_gb"] > 0), name, f"{what} with daemons")
        if line:
            lines.append(line)
    lines.append("- every comparison's ratio and interval is in the table.")
    return lines


def _findings(rows: Sequence[Mapping[str, Any]], spec: DaemonsSpec) -> list[str]:
    lines = [
        "| platform | cost (s/GB) | allocation | placement | mean total (s) | vs no daemons "
        "| idle_nodes vs least_loaded | data_aware vs sequential |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['platform']} | {number(r['cpu_s_per_gb'])} | {r['allocation']} | {r['placement']} | "
            f"{r['mean_total_s']:.1f} | {ratio_text(r, 'vs_no_daemons')} | "
            f"{ratio_text(r, 'vs_least_loaded')} | {ratio_text(r, 'vs_sequential')} |"
        )
    lines += [
        "",
        "**Lowest mean total time per platform and daemon cost** (a difference inside the seeds' spread is",
        "not a finding: the paired ratios above say which are):",
        "",
    ]
    for platform in spec.platforms:
        for cost in spec.cpu_s_per_gb:
            mine = [r for r in rows if r["platform"] == platform and r["cpu_s_per_gb"] == cost]
            best = min(mine, key=lambda r: r["mean_total_s"])
            worst = max(mine, key=lambda r: r["mean_total_s"])
            lines.append(
                f"- {platform}, {number(cost)} s/GB: `{best['allocation']}` / `{best['placement']}` "
                f"({best['mean_total_s']:.1f} s; the slowest, `{worst['allocation']}` / `{worst['placement']}`, "
                f"{worst['mean_total_s']:.1f} s, {100 * (worst['mean_total_s'] / best['mean_total_s'] - 1):.1f} % more)"
            )
    return lines


def format_report(rows: Sequence[Mapping[str, Any]], spec: DaemonsSpec, variant: str, figure_name: str) -> str:
    platforms = ", ".join(f"`{label}` (`{path.name}`)" for label, path in spec.platforms.items())
    lines = [
        "# Scheduling with storage daemons on the compute nodes",
        "",
        f"![Daemons on the nodes]({figure_name})",
        "",
        "Not a paper's figure: the question that joins seed 004 (storage daemons on compute nodes slow",
        "the jobs there) to seed 000's scheduling — **which allocation and data placement win when every",
        "node's NVM is served by a daemon whose CPU work competes with the job placed on that node, and by",
        "how much?** Plotted numbers: `daemons_on_nodes_plotted.csv`. Each ratio below is paired: each",
        "seed's workload against itself under the other setting, mean and 95 % t interval over the seeds.",
        "Rule of the words: *faster* / *slower* when the interval lies wholly below / above 1, otherwise",
        "*no clear difference*.",
        "",
        *_summary(rows, spec),
        "",
        *_findings(rows, spec),
        "",
        "## Set-up",
        "",
        f"- variant `{variant}`; platforms {platforms} (unified: node NVM on the interconnect, "
        f"{spec.san_k} SAN I/O servers for staging);",
        f"- per platform and seed ({', '.join(map(str, spec.seeds))}): {spec.n_apps} applications of seed 000's",
        f"  Table 1 multi-application column, {spec.n_phases} phases each, Tasks ~ U{{1..system size}}, all at",
        f"  t = 0, no walltime; data staged `{spec.staging}` (as seed 000's Figure 8);",
        f"- queue policy `{spec.scheduler}`; allocations {', '.join(f'`{a}`' for a in spec.allocations)}",
        "  (`data_aware` avoids nodes whose NVM holds running jobs' data, i.e. nodes whose daemon is busy);",
        "  every application's data on k = its STG-k NVMs *outside* its partition (storage policy `external`),",
        f"  ranked {', '.join(f'`{p}`' for p in spec.placements)} (`idle_nodes`: NVMs of nodes no other job",
        "  computes on first; schedulers/storage_external.py);",
        f"- storage daemons (`--storage-daemons`): per flow of b bytes to or from a node's NVM, "
        f"`ceil(b / {spec.request_size}) · 0 + b · c` flops on that node, c swept as "
        f"{', '.join(number(c) for c in spec.cpu_s_per_gb)} s of the node's CPU per GB served (0: no daemons);",
        f"  traffic policy `{spec.traffic_policy}`; " + communicate_phases(spec.ipc_fanout),
        "",
        "## What the numbers rest on",
        "",
        "- **The daemon cost is ours.** No paper gives the CPU a storage daemon spends per GB; seed 004",
        "  measures only its effect on HPL. The sweep runs from nothing to a daemon that needs a whole node",
        "  to serve 1 GB/s (1 s/GB). Only the cost per byte is swept: the applications move large blocks, so",
        "  a per-request cost at BeeOND's 512 KiB chunk would add little.",
        "- **The model** (sim/src/services/README.md): the daemon's work joins each NVM flow's SimGrid ptask",
        "  on the NVM's node, so the flow slows when that node computes and the job there computes slower",
        "  while the flow runs (SimGrid's fair bottleneck shares the node's CPU between the activities). Idle",
        "  daemon load is not modelled in scheduling runs.",
        "- **Workloads and platforms are seed 000's** (sizes, speeds and the generator are the ones Figure 8",
        "  uses); the quick variant uses the small topologies and fewer applications, phases and seeds.",
        "- **Schedules move both ways.** With every application queued at t = 0, a small change in one",
        "  job's run time can reorder EASY's backfilling, so slower I/O can end in a shorter total time;",
        "  such jumps show as wide paired intervals, and the words above count only the differences that",
        "  hold over every seed's workload.",
        "- **`idle_nodes` sees the moment of the decision only**: a node idle when the data is placed may",
        "  get a job later, whose computation then shares its node with the daemon.",
        "",
    ]
    return "\n".join(lines)


#: The artifact's steps, as the shared multi-application routine runs them.
STEPS = FigureSteps(DaemonsRun, COLUMNS, table_rows, write_table, plot, format_report)
