"""Burst buffers step 4, the report: the question, the findings read from the paired ratios
with a stated rule, what the staging servers did, the set-up and the choices no paper makes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import write_artifact_files
from datasched.analysis.burst_buffers.figure import plot
from datasched.analysis.burst_buffers.spec import BurstRun, BurstSpec
from datasched.analysis.burst_buffers.table import COLUMNS, table_rows, write_table
from datasched.analysis.paired_settings import count_line, ratio_text, ratio_word
from datasched.analysis.seed000.multi_application import communicate_phases

NAME = "burst_buffers"


def _summary(rows: Sequence[Mapping[str, Any]], spec: BurstSpec) -> list[str]:
    """What the table shows, counted from it: per number of staging servers, how each setting
    compares with no staging servers and how even the servers' load was; then the allocations."""
    lines = ["**What it shows** (counted from the table by the rule above):", ""]
    for servers in (s for s in spec.staging_servers if s > 0):
        mine = [r for r in rows if r["staging_servers"] == servers and r["vs_no_buffers"] != ""]
        if not mine:
            continue
        low, high = min(r["vs_no_buffers"] for r in mine), max(r["vs_no_buffers"] for r in mine)
        words = [ratio_word(r, "vs_no_buffers") for r in mine]
        busiest = [r["busiest_share"] for r in mine]
        lines.append(
            f"- with {servers} staging servers: {100 * (low - 1):+.1f} to {100 * (high - 1):+.1f} % of the mean total "
            f"time without them ({words.count('faster')} *faster*, {words.count('slower')} *slower* of {len(mine)} "
            f"settings); the busiest server absorbed {100 * min(busiest):.0f}–{100 * max(busiest):.0f} % of the "
            f"staged bytes (an even spread: {100 / servers:.0f} %);"
        )
    for allocation in (a for a in spec.allocations if a != "sequential"):
        for with_servers, where in ((False, "without staging servers"), (True, "with staging servers")):
            chosen = [r for r in rows if r["allocation"] == allocation and (r["staging_servers"] > 0) == with_servers]
            line = count_line(chosen, "vs_sequential", f"`{allocation}` against `sequential` {where}")
            if line:
                lines.append(line)
    lines.append("- every comparison's ratio and interval is in the table.")
    return lines


def _findings(rows: Sequence[Mapping[str, Any]], spec: BurstSpec) -> list[str]:
    lines = [
        "| platform | staging servers | allocation | mean total (s) | vs no staging servers | vs `sequential` "
        "| busiest server's share | staged (GB) | left staged (GB) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        staged = r["staging_servers"] > 0
        lines.append(
            f"| {r['platform']} | {r['staging_servers']} | {r['allocation']} | {r['mean_total_s']:.1f} | "
            f"{ratio_text(r, 'vs_no_buffers')} | {ratio_text(r, 'vs_sequential')} | "
            + (
                f"{100 * r['busiest_share']:.0f} % | {r['staged_gb']:.0f} | {r['left_gb']:.0f} |"
                if staged
                else "— | — | — |"
            )
        )
    lines += [
        "",
        "**Lowest mean total time per platform and number of staging servers** (a difference inside the",
        "seeds' spread is not a finding: the paired ratios above say which are):",
        "",
    ]
    for platform in spec.topologies:
        for servers in spec.staging_servers:
            mine = [r for r in rows if r["platform"] == platform and r["staging_servers"] == servers]
            best = min(mine, key=lambda r: r["mean_total_s"])
            worst = max(mine, key=lambda r: r["mean_total_s"])
            lines.append(
                f"- {platform}, {servers} staging servers: `{best['allocation']}` ({best['mean_total_s']:.1f} s; "
                f"`{worst['allocation']}` {worst['mean_total_s']:.1f} s, "
                f"{100 * (worst['mean_total_s'] / best['mean_total_s'] - 1):.1f} % more)"
            )
    return lines


def format_report(rows: Sequence[Mapping[str, Any]], spec: BurstSpec, variant: str, figure_name: str) -> str:
    platforms = ", ".join(
        f"`{label}` (`{system}-san` with S staging servers)" for label, system in spec.topologies.items()
    )
    mib = 1 << 20
    lines = [
        "# Scheduling with burst buffers in front of the SAN",
        "",
        f"![Burst buffers]({figure_name})",
        "",
        "Not a paper's figure: the question that joins seed 003 (staging servers absorb writes in an SSD",
        "and drain them lazily to the file system) to seed 000's scheduling on SAN systems — **do staging",
        "servers in front of the I/O servers shorten the jobs, by how much, and does the best allocation",
        "policy change with them?** Plotted numbers: `burst_buffers_plotted.csv`. Each ratio below is",
        "paired: each seed's workload against itself under the other setting, mean and 95 % t interval",
        "over the seeds. Rule of the words: *faster* / *slower* when the interval lies wholly below / above",
        "1, otherwise *no clear difference*.",
        "",
        *_summary(rows, spec),
        "",
        *_findings(rows, spec),
        "",
        "## Set-up",
        "",
        f"- variant `{variant}`; platforms {platforms}; S swept as "
        f"{', '.join(str(s) for s in spec.staging_servers)} (0: no staging layer, every write phase goes",
        f"  straight to the job's {spec.san_k} I/O servers);",
        f"- per platform and seed ({', '.join(map(str, spec.seeds))}): {spec.n_apps} applications of seed 000's",
        f"  Table 1 multi-application column, {spec.n_phases} phases each, Tasks ~ U{{1..system size}}, all at",
        f"  t = 0, no walltime; data staged `{spec.staging}` (as seed 000's Figure 8), every job's data on",
        f"  k = {spec.san_k} I/O servers (storage policy `san`);",
        f"- queue policy `{spec.scheduler}`; allocations {', '.join(f'`{a}`' for a in spec.allocations)}",
        "  (`random` seeded by the workload's seed; `staging_spread` and `staging_bytes` sequential without staging",
        "  servers);",
        f"- staging layer (`--staging-layer`): blocks of {spec.block_size // mib} MiB, a receive buffer of "
        f"{spec.buffer_bytes // mib} MiB, drain chunks of",
        f"  {spec.drain_chunk // mib} MiB started after {spec.idle_seconds:g} s idle (or at once above 90 % of "
        "the SSD); traffic policy",
        f"  `{spec.traffic_policy}`; " + communicate_phases(spec.ipc_fanout),
        "",
        "## What the numbers rest on",
        "",
        "- **The staging servers are seed 003's model** (sim/src/services/README.md): each I/O task writes",
        "  its blocks one at a time to its node's server, which returns a block once it is in memory (after",
        "  waiting for room), writes blocks to its SSD in arrival order (the generator's seed-003 figures:",
        "  1 GB/s write, 1.4 GB/s read, 300 GB) and drains them to the I/O servers when idle. Absorbed",
        "  blocks and drains are storage traffic through the run's arbiter. Reads, stage-in and stage-out",
        "  go to the I/O servers as before, as if the data had been drained.",
        "- **Which server a node writes through is fixed**: compute node c of N writes through server",
        "  floor(c · S / N) (the engine's rule). A job on neighbouring nodes therefore sends all its writes",
        "  through one or two servers, where the direct path stripes them over its k I/O servers. A job's",
        "  I/O tasks are its first tasks (seed 000's model: I/O tasks ~ U{1..Tasks}), which run on the",
        "  lowest-numbered nodes of its allocation, so even a random allocation sends more writes through",
        "  the low-numbered servers: the *busiest server's share* column measures how uneven the load was.",
        "- **`staging_spread` knows the mapping** (the engine announces each server and the nodes writing",
        "  through it in `SIMULATION_BEGINS`): it puts a job's lowest host in the group of the least busy",
        "  server (the fraction of the group's hosts not free, a stateless proxy for its writers) and",
        "  the job's other hosts above it (schedulers/alloc_staging_spread.py). It chooses only where a",
        "  job's writing hosts begin: a job whose I/O tasks span several groups still writes through each",
        "  of them, and the proxy does not see how much a running job still has to write. Without staging",
        "  servers it is `sequential`. No allocation is told which data is still staged.",
        "- **`staging_bytes` counts bytes instead** (schedulers/alloc_staging_bytes.py): a ledger of what",
        "  each server will absorb from the jobs it placed (their profiles' write phases, writers only,",
        "  memory hits excluded), a job leaving it once its hosts are free; the next job's lowest host goes",
        "  behind the server with the fewest bytes, its other hosts as `staging_spread` places them. It",
        "  still sees no job's progress (a job's whole volume counts until it ends).",
        "- **A lazy drain under a steady load never starts**: *left staged* counts what was still on the",
        "  SSDs when the last job ended (its drain, not in the jobs' times, would still load the I/O",
        "  servers).",
        "- **Block and drain-chunk sizes are cost choices**, larger than the engine's defaults (1 MiB and",
        "  4 MiB): a run's cost grows with their number; docs/storage.md gives a measured comparison.",
        "- **Schedules move both ways.** With every application queued at t = 0, a small change in one",
        "  job's run time can reorder EASY's backfilling; such jumps show as wide paired intervals, and the",
        "  words above count only the differences that hold over every seed's workload.",
        "",
    ]
    return "\n".join(lines)


def write_artifact(
    spec: BurstSpec, *, variant: str, accumulate: bool, sims: Path, outputs: tuple[Path, Path, Path]
) -> int:
    """The figure, plotted CSV and report (``outputs``, in that order); returns the runs read."""
    title = f"Burst buffers in front of the SAN ({variant})"

    def draw(judged: Any, metrics: Mapping[str, Mapping[str, Any]]) -> str:
        rows = table_rows(judged, {BurstRun.from_path(unit): m for unit, m in metrics.items()})
        write_table(rows, outputs[1])
        plot(rows, outputs[0], title)
        return format_report(rows, judged, variant, outputs[0].name)

    return write_artifact_files(
        NAME, spec, outputs, accumulate=accumulate, sims=sims, title=title, columns=COLUMNS, draw=draw
    )
