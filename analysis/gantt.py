"""Gantt charts of a `_jobs.csv` file, drawn with evalys."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def plot_gantt(jobs_csv: str | Path, png: str | Path, title: str = "") -> Path:
    """Draws the Gantt chart of ``jobs_csv`` into ``png`` (evalys' job-per-rectangle view)."""
    from evalys.jobset import JobSet
    from evalys.visu.legacy import plot_gantt as evalys_gantt

    jobset = JobSet.from_csv(str(jobs_csv))
    fig, ax = plt.subplots(figsize=(10, 5))
    evalys_gantt(jobset, ax=ax, title=title or Path(jobs_csv).name)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("resource id")
    fig.tight_layout()
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return png
