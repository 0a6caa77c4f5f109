"""Figure 8 step 3, the figure: mean total time per storage strategy and access, per topology."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.style import save

#: The paper's value the figure marks, as run time against Cache: Internal/External "around 44 %" slower.
PAPER_VS_CACHE = (1.44, "paper: Internal/External +44 %")


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    fig, axes = plt.subplots(2, len(topologies), figsize=(4.5 * len(topologies), 7.5), squeeze=False, sharex="col")
    colours = {"cache": "#4c72b0", "internal": "#dd8452", "external": "#55a868"}
    for column, topology in enumerate(topologies):
        mine = [r for r in rows if r["topology"] == topology]
        labels = [f"{r['storage'].capitalize()}-{r['access']}" if r["storage"] != "cache" else "Cache" for r in mine]
        colour = [colours[r["storage"]] for r in mine]
        top, bottom = axes[0][column], axes[1][column]
        top.bar(range(len(mine)), [r["mean_total_s"] for r in mine], color=colour)
        top.set_title(topology, fontsize=10)
        top.set_ylabel("average total time per application (s)")
        ratios = [r["vs_cache"] for r in mine]
        errors = [
            [r["vs_cache"] - r["vs_cache_ci95_low"] for r in mine],
            [r["vs_cache_ci95_high"] - r["vs_cache"] for r in mine],
        ]
        bottom.bar(range(len(mine)), ratios, yerr=errors, capsize=3, color=colour)
        bottom.axhline(PAPER_VS_CACHE[0], color="black", linestyle=":", linewidth=1, label=PAPER_VS_CACHE[1])
        bottom.set_ylabel("relative to Cache (same workload)")
        bottom.set_xticks(range(len(mine)), labels, rotation=45, ha="right", fontsize=8)
        bottom.legend(fontsize=7, loc="lower right")
        for ax in (top, bottom):
            ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png
