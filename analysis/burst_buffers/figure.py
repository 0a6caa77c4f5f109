"""Burst buffers step 3, the figure: per platform, the mean total time against the number of
staging servers for each allocation (top), and the same runs paired against no staging servers
(bottom, mean and 95 % interval over the seeds)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.style import interval_line, save

STYLES = {
    "sequential": ("#4c72b0", "-", "o"),
    "random": ("#dd8452", "--", "s"),
    "staging_spread": ("#55a868", "-.", "^"),
    "staging_bytes": ("#c44e52", ":", "D"),
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
        servers = sorted({r["staging_servers"] for r in mine})
        for allocation in dict.fromkeys(r["allocation"] for r in mine):
            line = sorted((r for r in mine if r["allocation"] == allocation), key=lambda r: r["staging_servers"])
            colour, style, marker = STYLES.get(allocation, ("#55a868", ":", "^"))
            x = [servers.index(r["staging_servers"]) for r in line]
            style_of = {"linestyle": style, "marker": marker, "color": colour, "label": allocation}
            interval_line(
                top,
                x,
                [r["mean_total_s"] for r in line],
                [r["ci95_low_s"] for r in line],
                [r["ci95_high_s"] for r in line],
                **style_of,
            )
            paired = [r for r in line if r["vs_no_buffers"] != ""]
            if paired:
                interval_line(
                    bottom,
                    [servers.index(r["staging_servers"]) for r in paired],
                    [r["vs_no_buffers"] for r in paired],
                    [r["vs_no_buffers_ci95_low"] for r in paired],
                    [r["vs_no_buffers_ci95_high"] for r in paired],
                    **style_of,
                )
        top.set_title(platform, fontsize=10)
        top.set_ylabel("average total time per application (s)")
        bottom.axhline(1.0, color="black", linewidth=0.8)
        bottom.set_ylabel("against the same allocation without staging servers")
        bottom.set_xlabel("staging servers in front of the SAN (0: none)")
        bottom.set_xticks(range(len(servers)), [str(s) for s in servers])
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
        top.legend(fontsize=8, title="allocation", title_fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png
