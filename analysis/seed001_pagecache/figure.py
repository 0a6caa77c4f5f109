"""Seed 001 Tables 1-3 step 5, the figure: the paper's and our times per table, hardware and file
set, at the best parameter set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_pagecache.spec import (
    HARDWARE,
    MULTI_FILES,
    PAPER_T1,
    PAPER_T2,
    PAPER_T3,
    SINGLE_FILES,
    PageCacheSpec,
)
from datasched.analysis.seed001_pagecache.table import t3_range, tables_at


def plot(spec: PageCacheSpec, rows: Sequence[Mapping[str, Any]], best: str, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = tables_at(spec, rows, best)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    colours = {"lustre": "tab:red", "ssd": "tab:blue", "memory": "tab:green"}
    Numbers = Mapping[str, Mapping[str, tuple[float, ...]]]
    panels: list[tuple[str, Numbers, Numbers | None, Mapping[str, tuple[int, float]]]] = [
        ("Table 1 (no caching, 1 pair)", PAPER_T1, t.t1, SINGLE_FILES),
        ("Table 2 (caching, 1 pair)", PAPER_T2, t.t2, SINGLE_FILES),
        ("Table 3 (no caching, 36 pairs, max)", PAPER_T3, None, MULTI_FILES),
    ]
    for ax, (label, paper, ours, configs) in zip(axes, panels, strict=True):
        x = 0.0
        ticks, names = [], []
        for kind in HARDWARE:
            for config in configs:
                pv = paper[kind][config][0]
                ov = ours[kind][config][0] if ours is not None else t3_range(t, kind, config)[0]
                ax.bar(x - 0.2, pv, 0.4, color=colours[kind], alpha=0.45, hatch="//", edgecolor="black")
                ax.bar(x + 0.2, ov, 0.4, color=colours[kind], edgecolor="black")
                ticks.append(x)
                names.append(config)
                x += 1
            x += 0.5
        ax.set_yscale("log")
        ax.set_xticks(ticks, names, fontsize=7, rotation=35, ha="right")
        ax.set_title(label, fontsize=10)
        ax.set_ylabel("time (s), log scale")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(
        handles=[
            matplotlib.patches.Patch(facecolor="grey", alpha=0.45, hatch="//", edgecolor="black", label="paper"),
            matplotlib.patches.Patch(facecolor="grey", edgecolor="black", label="ours"),
            *(matplotlib.patches.Patch(facecolor=c, label=k) for k, c in colours.items()),
        ],
        fontsize=8,
        loc="upper right",
    )
    fig.suptitle(f"{title}\nours at {best}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
