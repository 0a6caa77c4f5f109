"""Figure 9 step 3, the figure: mean total time against the number of I/O servers, per series."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.style import save


def series_curve(
    rows: Sequence[Mapping[str, Any]], topology: str, series: str, staging: str | None = None
) -> dict[int, float]:
    """Mean total time by server count of one series on one topology (and staging model)."""
    return {
        int(r["servers"]): float(r["mean_total_s"])
        for r in rows
        if r["topology"] == topology and r["series"] == series and (staging is None or r["staging"] == staging)
    }


def staging_levels(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The staging models of the rows, in their order (SAN stages nothing)."""
    return list(dict.fromkeys(r["staging"] for r in rows if r["series"] != "SAN"))


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """One panel per topology for I-A and Cache (a), and one for SAN (b) where each topology has
    its own line style and marker, so curves that coincide (fat tree and torus) stay visible."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    fig, axes = plt.subplots(1, len(topologies) + 1, figsize=(4.2 * (len(topologies) + 1), 4.8), sharey=True)
    stagings = staging_levels(rows)
    colours = {"I-A": "C0", "Cache": "C1"}
    for ax, topology in zip(axes[:-1], topologies, strict=True):
        for series, marker in (("I-A", "o"), ("Cache", "s")):
            for staging, style in zip(stagings, ("-", "--", ":"), strict=False):
                curve = series_curve(rows, topology, series, staging)
                xs = sorted(curve)
                ax.plot(
                    xs,
                    [curve[x] for x in xs],
                    style,
                    marker=marker,
                    color=colours[series],
                    label=f"{series}, staging {staging}",
                )
        ax.set_title(f"a) I-A and Cache, {topology}", fontsize=10)
    san_styles = (("-", "^", 9), ("--", "v", 7), (":", "D", 5))
    for i, topology in enumerate(topologies):
        style, marker, size = san_styles[i % len(san_styles)]
        curve = series_curve(rows, topology, "SAN")
        xs = sorted(curve)
        axes[-1].plot(
            xs,
            [curve[x] for x in xs],
            style,
            marker=marker,
            markersize=size,
            color=f"C{i + 2}",
            label=f"SAN {topology}",
        )
    axes[-1].set_title("b) SAN", fontsize=10)
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("I/O servers")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("average total time per application (s, log scale)")
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png
