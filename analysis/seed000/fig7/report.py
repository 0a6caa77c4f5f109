"""Figure 7 step 5, the report: set-up, claims table, per-model summary and the reasons (and
:func:`build`, the whole artifact from the runs' summaries)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.accumulate import write_artifact_files
from datasched.analysis.claims_table import claims_table, verdict_rules
from datasched.analysis.seed000.fig7 import figure as fig7_figure
from datasched.analysis.seed000.fig7 import table as fig7_table
from datasched.analysis.seed000.fig7.breakdown import breakdown_runs, breakdown_sentence
from datasched.analysis.seed000.fig7.claims import verdicts
from datasched.analysis.seed000.fig7.figure import io_title
from datasched.analysis.seed000.fig7.spec import Fig7Run, Fig7Spec, judged_io_models
from datasched.analysis.seed000.routing import dragonfly_routing_note


def _model_summary(rows: Sequence[Mapping[str, Any]], io: str) -> str:
    """One line per I/O model: how many runs differ from NP and the range of BA/NP, FP/NP."""
    mine = [r for r in rows if r["io"] == io]
    differ = [r for r in mine if r["vs_np"] != 1.0]
    largest = max((abs(r["vs_np"] - 1) for r in differ), default=0.0)
    parts = [
        f"- `{io}` ({io_title(io)}): {len(differ)} of {len(mine)} runs differ from NP's run time "
        f"(largest |ratio − 1| = {largest:.2e})"
    ]
    for sharing in dict.fromkeys(r["sharing"] for r in mine):
        for label, prefix in (("BA", "ba:"), ("FP", "fp")):
            values = [r["vs_np"] for r in mine if r["sharing"] == sharing and r["policy"].startswith(prefix)]
            if values:
                parts.append(f"{label}/NP {min(values):.4f} to {max(values):.4f} ({sharing})")
    return "; ".join(parts) + "."


def format_report(
    rows: Sequence[Mapping[str, Any]],
    spec: Fig7Spec,
    variant: str,
    figure: str,
    breakdown: Mapping[Fig7Run, Mapping[str, float]] | None = None,
) -> str:
    ios = list(dict.fromkeys(r["io"] for r in rows))
    judged = judged_io_models(ios)
    lines = [
        "# Seed 000, Figure 7: traffic priorities for one application (72-node dragonfly)",
        "",
        f"![Figure 7]({figure})",
        "",
        "Plotted numbers: `seed000_fig7_plotted.csv` (every run's time and its ratio to NP at the same point, I/O",
        "model and sharing unit). The paper states these results as figures and sentences, not numbers. The claims",
        f"are judged on the I/O model{'s' if len(judged) > 1 else ''} {', '.join(f'`{m}`' for m in judged)} (below).",
        "",
        *claims_table(verdicts(rows)),
        "",
        *verdict_rules(),
        "",
        "## What our model gives, and why",
        "",
        *[_model_summary(rows, io) for io in ios],
        "",
        "**Two readings of the application's I/O** (`io_models`; workloads/README.md, section 3). With `none`, every",
        "I/O task reads and writes for itself and phases are bulk-synchronous: while the application communicates",
        "none of its tasks reads or writes, and the reverse, so its IPC and storage traffic never share a link at",
        "the same moment and no traffic policy can act (it only decides how a link is shared *between* classes):",
        "BA and FP give NP's run time exactly, by construction. With `per_task`, the paper's section 5.1 (I/O tasks",
        "read the data *and distribute it to the rest of the computing tasks*; INRFlow keeps causal order between",
        "flows) with Table 1's I/O tasks (64 of the 72 tasks): each I/O task, once its own read has ended, sends",
        "each of the other 8 tasks its share (bytes / 72), and gathers before it writes; one task's distribution",
        "(IPC) then shares links with other tasks' remote reads (storage), and the policies act.",
        "",
        "**What the policies do under `per_task`.** A distribution starts only when its own task's read has ended,",
        "so the IPC on the network during a read phase belongs to tasks that are already done reading, while the",
        "phase ends with the distribution of the *last* reader. Favouring IPC (FP, or BA with a large IPC share)",
        "speeds up the flows that are not on that path and slows the remote reads that are. Measured here:",
        breakdown_sentence(breakdown or {}, spec) + ".",
        "Where FP comes out slower here, the paper finds it faster (more than 10 %): in INRFlow IPC would then",
        "lie on the critical path where ours does not; its flow dependencies are not described beyond the",
        "sentence above, and its per-flow sharing differs from our per-activity unit (compare the flow rows",
        "of the summary above, where they were run).",
        "",
        "## Set-up",
        "",
        f"- variant `{variant}`; platform `{spec.platform.name}` (72 nodes); one application of {spec.tasks} tasks, "
        f"Prob(C/C) 0.25, {spec.n_phases} phases, seed {spec.seed} (Figure 6's application: the same phases at every "
        f"point); I/O models {', '.join(f'`{m}`' for m in spec.ios)};",
        f"- 50 % memory hits, Disperse, Internal storage STG-k for k = {', '.join(map(str, spec.stg_k))};",
        f"- panel a: 50 % remote accesses, NP and BA with {', '.join(f'{x:g}' for x in spec.ba_levels)} % to IPC; "
        f"panel b: NP and FP at {', '.join(f'{r:g}' for r in spec.remote_levels)} % remote accesses;",
        "- sharing unit `--sharing activity` (the engine's default) at every point"
        + (
            f"; also `--sharing flow` (one activity per flow, 10 to 50 times costlier per run) for STG-k = "
            f"{', '.join(map(str, spec.flow.stg_k))}, BA {', '.join(f'{x:g}' for x in spec.flow.ba_levels)} %, FP at "
            f"{', '.join(f'{r:g}' for r in spec.flow.remote_levels)} % remote"
            if spec.flow.stg_k
            else ""
        )
        + f"; FCFS (the job gets nodes 0..{spec.tasks - 1}).",
        "",
        "## Why ours may differ (besides the I/O model above)",
        "",
        "- Sizes and speeds are ours (Figure 6's report). " + dragonfly_routing_note([spec.platform]),
        "- The distribution's volume (every task ends with an equal part of the phase's data) and its causal",
        "  order (a task's distribution after its whole read) are our reading of one sentence of the paper.",
        "",
    ]
    return "\n".join(lines)


def build(spec: Fig7Spec, folder: Path, variant: str, *, accumulate: bool, sims: Path) -> str:
    """The figure, plotted numbers and report in ``folder``, from every planned simulation under
    ``sims`` or, when the variant accumulates, from the committed summaries of its complete STG-k
    (a placeholder while none is complete); returns a one-line summary."""
    png, plotted = folder / "seed000_fig7.png", folder / "seed000_fig7_plotted.csv"
    title = f"Seed 000 Fig. 7 on datasched ({variant})"

    def draw(judged: Fig7Spec, metrics: Mapping[str, Mapping[str, Any]]) -> str:
        rows = fig7_table.table_rows({Fig7Run.from_path(unit): m["runtime_s"] for unit, m in metrics.items()})
        fig7_table.write_table(rows, plotted)
        fig7_figure.plot(rows, png, title)
        breakdown = {run: metrics[run.path] for run in breakdown_runs(judged)}
        return format_report(rows, judged, variant, png.name, breakdown)

    outputs = (png, plotted, folder / "report.md")
    count = write_artifact_files(
        "seed000_fig7",
        spec,
        outputs,
        accumulate=accumulate,
        sims=sims,
        title=title,
        columns=fig7_table.COLUMNS,
        draw=draw,
    )
    return f"{count} runs\n"
