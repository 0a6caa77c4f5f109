"""Daemons-on-nodes step 3, the figure: per platform, the mean total time against the daemon
cost for each allocation x placement (top), and what the daemons cost each of them, paired
against the same policies without daemons (bottom, mean and 95 % interval over seeds)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.style import interval_line, save

STYLES = {
    ("sequential", "least_loaded"): ("#4c72b0", "-", "o"),
    ("sequential", "idle_nodes"): ("#4c72b0", "--", "s"),
    ("data_aware", "least_loaded"): ("#dd8452", "-", "o"),
    ("data_aware", "idle_nodes"): ("#dd8452", "--", "s"),
}


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    platforms = list(dict.fromkeys(r["platform"] for r in rows))
    fig, axes = plt.subplots(2, len(platforms), figsize=(4.8 * len(platforms), 7.5), squeeze=False, sharex="col")
    for column, platform in enumerate(platforms):
        top, bottom = axes[0][column], axes[1][column]
        mine = [r for r in rows if r["platform"] == platform]
        for key in dict.fromkeys((r["allocation"], r["placement"]) for r in mine):
            line = sorted(
                (r for r in mine if (r["allocation"], r["placement"]) == key), key=lambda r: r["cpu_s_per_gb"]
            )
            colour, style, marker = STYLES.get(key, ("#55a868", ":", "^"))
            costs = [r["cpu_s_per_gb"] for r in line]
            label = f"{key[0]} / {key[1]}"
            top.plot(costs, [r["mean_total_s"] for r in line], style, marker=marker, color=colour, label=label)
            paired = [r for r in line if r["vs_no_daemons"] != ""]
            if paired:
                interval_line(
                    bottom,
                    [r["cpu_s_per_gb"] for r in paired],
                    [r["vs_no_daemons"] for r in paired],
                    [r["vs_no_daemons_ci95_low"] for r in paired],
                    [r["vs_no_daemons_ci95_high"] for r in paired],
                    linestyle=style,
                    marker=marker,
                    color=colour,
                    label=label,
                )
        top.set_title(platform, fontsize=10)
        top.set_ylabel("average total time per application (s)")
        bottom.axhline(1.0, color="black", linewidth=0.8)
        bottom.set_ylabel("against the same policies without daemons")
        bottom.set_xlabel("daemon cost (s of a node's CPU per GB served)")
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
        top.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png
