"""Seed 001 Figs. 8/9: per-node timelines of the Table 4 runs, drawn from their outputs.

The paper draws the 10 jobs of Table 4 on the 20 nodes, data-unaware (Fig. 8) and
data-aware (Fig. 9). Here every bar comes from a run of the Table 4 artifact: a job's
nodes and dates from ``out_jobs.csv`` (``allocated_resources``, ``starting_time``,
``finish_time``), its I/O and compute segments from ``out_io.csv`` (the read, compute and
write phase seconds, laid out in the profile's phase order from the job's start). Time a
job spent outside its phases (stage-in/out, write-back of evicted items) is the bar's
remainder, drawn plain. A profile with two phases of one kind cannot be laid out from
per-kind sums: such a job is drawn as one plain bar.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from procset import ProcSet

from datasched.analysis.seed001_workflows.measure import rows_by_job

#: out_io.csv column of each phase kind's seconds
PHASE_COLUMNS = {"read": "read_phase_seconds", "compute": "compute_phase_seconds", "write": "write_phase_seconds"}
PHASE_STYLE = {
    "read": ("tab:orange", "I/O read"),
    "write": ("tab:red", "I/O write"),
    "compute": ("tab:blue", "compute"),
}


def job_segments(out: Path, workload: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per job: id, nodes, start, finish, and its (kind, start, end) segments."""
    jobs = rows_by_job(out / "out_jobs.csv")
    io = rows_by_job(out / "out_io.csv")
    kinds_of = {
        str(j["id"]): [p["kind"] for p in workload["profiles"][j["profile"]].get("phases", [])]
        for j in workload["jobs"]
    }
    result = []
    for key, row in sorted(jobs.items(), key=lambda kv: int(kv[0])):
        start, finish = float(row["starting_time"]), float(row["finish_time"])
        kinds = kinds_of.get(key, [])
        segments: list[tuple[str, float, float]] = []
        if key in io and kinds and len(set(kinds)) == len(kinds) and set(kinds) <= set(PHASE_COLUMNS):
            at = start
            for kind in kinds:
                seconds = float(io[key][PHASE_COLUMNS[kind]])
                if seconds > 0:
                    segments.append((kind, at, at + seconds))
                at += seconds
        result.append(
            {
                "job": key,
                "nodes": list(ProcSet.from_str(row["allocated_resources"])),
                "start": start,
                "finish": finish,
                "segments": segments,
            }
        )
    return result


#: colour of a background-load job (drawn plain and unlabelled: it only occupies nodes)
BACKGROUND_COLOUR = "tan"


def plot_timelines(
    panels: Sequence[tuple[str, Path, Mapping[str, Any]]],
    path: Path,
    title: str,
    nodes: int,
    background_first_id: int | None = None,
) -> None:
    """One panel per (label, run folder, workload): nodes on y, time on x, each job a
    labelled box over its nodes, its phases coloured inside. Jobs whose id is at least
    ``background_first_id`` are background load: one plain unlabelled colour, and the time
    axis ends shortly after the last other job (the load may run on long after)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 3.6 * len(panels)), squeeze=False)
    for ax, (label, out, workload) in zip(axes[:, 0], panels, strict=True):
        jobs = job_segments(out, workload)

        def background(job: Mapping[str, Any]) -> bool:
            return background_first_id is not None and int(job["job"]) >= background_first_id

        end = max(j["finish"] for j in jobs if not background(j))
        for j in jobs:
            if background(j):
                for node in j["nodes"]:
                    ax.broken_barh([(j["start"], j["finish"] - j["start"])], (node - 0.4, 0.8), color=BACKGROUND_COLOUR)
                    ax.plot([j["start"], j["start"]], [node - 0.4, node + 0.4], color="black", linewidth=0.4)
                continue
            for node in j["nodes"]:
                ax.broken_barh([(j["start"], j["finish"] - j["start"])], (node - 0.4, 0.8), color="lightgrey")
                for kind, a, b in j["segments"]:
                    ax.broken_barh([(a, b - a)], (node - 0.4, 0.8), color=PHASE_STYLE[kind][0])
                ax.plot([j["start"], j["start"]], [node - 0.4, node + 0.4], color="black", linewidth=0.6)
            # one label per contiguous block of nodes: at the middle of a split allocation
            # (nodes 0-3 and 15-18) it sat on another job's bars
            for low, high in ProcSet(*j["nodes"]).intervals():
                ax.text(
                    (j["start"] + j["finish"]) / 2,
                    (low + high) / 2,
                    f"job {j['job']}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "none", "pad": 1},
                )
        ax.set_ylim(-0.7, nodes - 0.3)
        ax.set_yticks(range(nodes))
        ax.tick_params(axis="y", labelsize=7)
        ax.set_xlim(0, end * 1.02)
        ax.invert_yaxis()
        ax.set_ylabel("node")
        ax.set_title(f"{label}: last Table 4 job ends at {end:.0f} s", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("time (s)")
    handles = [Patch(color=c, label=name) for c, name in PHASE_STYLE.values()]
    handles.append(Patch(color="lightgrey", label="outside phases (staging, write-back)"))
    if background_first_id is not None:
        handles.append(Patch(color=BACKGROUND_COLOUR, label="background load"))
    fig.legend(handles=handles, loc="lower center", fontsize=8, ncol=len(handles))
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
