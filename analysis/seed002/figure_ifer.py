"""Seed 002 step 5, the IFER figure: two applications' makespan against their start offset dt,
as the paper plots it, with the paper's gains marked: the report compares TWINS's makespan with
each other configuration's in %, so each panel shows, dotted in that configuration's colour, the
makespan TWINS would have at the paper's gain over it (45 % below no-forwarding, 16 % below
FIFO and HBRR); a TWINS line on or below the dotted line meets the paper's gain at that dt."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed002.figure import configuration_colour, variant_title
from datasched.analysis.seed002.spec import IFER_PAPER_GAINS
from datasched.analysis.seed002.table import in_set


def plot_ifer(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """The paper's IFER figure: makespan (the later application's, mean and 99.7 % interval over
    seeds) against the start offset dt (x axis; dt > 0: A starts first), one line per
    configuration; one panel per parameter set (a row per α, a column per seek scale / cache)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import figure_style, save

    ifer = [r for r in rows if r["kind"] == "ifer"]
    alphas = list(dict.fromkeys(r["hdd_alpha"] for r in ifer))
    seeks = list(dict.fromkeys((float(r.get("hdd_seek_scale", 0.0)), r.get("server_cache") or "none") for r in ifer))
    configurations = list(dict.fromkeys(r["configuration"] for r in ifer))
    marked = [(other, gain) for other, gain in IFER_PAPER_GAINS if other in configurations]
    with figure_style():
        fig, axes = plt.subplots(
            max(1, len(alphas)),
            max(1, len(seeks)),
            figsize=(max(6.0, 4.2 * len(seeks)), 3.0 * max(1, len(alphas)) + 0.6),
            squeeze=False,
        )
        for i, alpha in enumerate(alphas):
            for j, (seek, cache) in enumerate(seeks):
                ax = axes[i][j]
                mine = [r for r in ifer if in_set(r, alpha, seek, cache)]
                if not mine:  # a seek scale at α = 0: not simulated
                    fig.delaxes(ax)
                    continue
                for k, cfg in enumerate(configurations):
                    line = sorted((r for r in mine if r["configuration"] == cfg), key=lambda r: r["dt"])
                    ax.errorbar(
                        [r["dt"] for r in line],
                        [r["makespan_mean"] for r in line],
                        yerr=[r["makespan_ci997"] for r in line],
                        label=cfg,
                        color=configuration_colour(cfg),
                        marker="os^vD<>"[k % 7],
                        markersize=4,
                        capsize=3,
                        linewidth=1.2,
                    )
                for other, gain in marked:
                    line = sorted((r for r in mine if r["configuration"] == other), key=lambda r: r["dt"])
                    ax.plot(
                        [r["dt"] for r in line],
                        [r["makespan_mean"] * (1 - gain / 100) for r in line],
                        linestyle=":",
                        linewidth=1.6,
                        color=configuration_colour(other),
                        label=f"paper: TWINS {gain} % below {other}",
                    )
                ax.set_ylim(bottom=0)
                ax.set_xticks(sorted({r["dt"] for r in mine}))
                ax.set_xlabel("dt (s; > 0: A starts first)")
                ax.set_ylabel("makespan (s)")
                ax.set_title(variant_title(alpha, seek, cache), fontsize=8)
        if fig.axes:
            handles, labels = fig.axes[0].get_legend_handles_labels()
            ncol = min(len(labels), 3 * max(1, len(seeks)))
            fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=8)
        fig.suptitle(title)
        entries = len(configurations) + len(marked)
        legend_rows = math.ceil(entries / min(entries, 3 * max(1, len(seeks))))
        # leave the legend's rows (about 0.3 inch each) free at the bottom
        fig.tight_layout(rect=(0, (0.15 + 0.3 * legend_rows) / fig.get_figheight(), 1, 1))
        save(fig, png)
    return png
