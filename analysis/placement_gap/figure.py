"""Allocators against the optimum step 4, the figure: per platform, each method's excess over the
joint optimum in hops per byte over the moments (box: quartiles, triangle: mean)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.style import figure_style, save


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib.pyplot as plt

    platforms = list(dict.fromkeys(r["platform"] for r in rows))
    methods = list(dict.fromkeys(r["method"] for r in rows))
    with figure_style():
        fig, axes = plt.subplots(1, len(platforms), figsize=(4.2 * len(platforms), 4.2), squeeze=False, sharey=True)
        for ax, platform in zip(axes[0], platforms, strict=True):
            excess = [
                [
                    r["hops_per_byte"] - r["optimum_hops_per_byte"]
                    for r in rows
                    if r["platform"] == platform and r["method"] == m
                ]
                for m in methods
            ]
            ax.boxplot(excess, showmeans=True)
            ax.set_xticks(range(1, len(methods) + 1), methods, rotation=35, ha="right")
            ax.set_title(platform)
            ax.axhline(0, color="grey", lw=0.8)
        axes[0][0].set_ylabel("hops per byte above the joint optimum")
        fig.suptitle(title)
        fig.tight_layout()
        save(fig, png)
    return png
