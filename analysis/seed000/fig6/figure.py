"""Figure 6 step 3, the figure: the paper's four panels (run time against memory hits and against
remote accesses; Affinity relative to Disperse) drawn from the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig6.table import Lookup
from datasched.analysis.style import save


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = Lookup(rows)
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharex="col")
    panels = [
        (axes[0][0], "a) run time, 50 % remote, Disperse", "mem", lambda s, x: t(s, x, 50.0)),
        (axes[0][1], "c) run time, 50 % memory hits, Disperse", "remote", lambda s, x: t(s, 50.0, x)),
        (axes[1][0], "b) Affinity / Disperse, 50 % remote", "mem", lambda s, x: t.ratio(s, x, 50.0)),
        (axes[1][1], "d) Affinity / Disperse, 50 % memory hits", "remote", lambda s, x: t.ratio(s, 50.0, x)),
    ]
    spread = [
        (axes[1][0], lambda s, x: t.ratio(s, x, 50.0, "As"), "mem"),
        (axes[1][1], lambda s, x: t.ratio(s, 50.0, x, "As"), "remote"),
    ]
    for ax, label, axis, value in panels:
        xs = t.mem_levels if axis == "mem" else t.remote_levels
        for storage in t.storages:
            ax.plot(xs, [value(storage, x) for x in xs], marker="o", label=storage.upper())
        ax.set_title(label, fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.set_ylabel("relative run time" if label[0] in "bd" else "run time (s, log scale)")
        if label[0] in "ac":
            ax.set_yscale("log")
        if label[0] in "bd":
            ax.set_xlabel("accesses to main memory (%)" if axis == "mem" else "accesses to remote nodes (%)")
    for ax, value, axis in spread:  # dashed, in the colour of the same storage's solid line
        xs = t.mem_levels if axis == "mem" else t.remote_levels
        for i, storage in enumerate(t.storages):
            if t.has(storage, "As"):
                ax.plot(xs, [value(storage, x) for x in xs], linestyle="--", marker="x", color=f"C{i}")
        ax.plot([], [], linestyle="--", marker="x", color="grey", label="Affinity, devices in their groups")
        ax.legend(fontsize=7, loc="upper left")
    axes[0][0].legend(fontsize=8, ncol=2)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png
