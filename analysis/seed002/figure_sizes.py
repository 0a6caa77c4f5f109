"""Seed 002 step 5, the request-size figure: the paper's aggregation table (HBRR) beside ours."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed002.figure import configuration_colour
from datasched.analysis.seed002.spec import KIB, PAPER_SIZES_KIB


def mean_and_range(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, mean − min, max − mean) for an error bar. The mean of equal values can round one
    step past them (fsum(3 × 0.1) / 3 > 0.1), and matplotlib refuses a negative bar length."""
    mean = math.fsum(values) / len(values)
    return mean, max(0.0, mean - min(values)), max(0.0, max(values) - mean)


def plot_sizes(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """The paper's aggregation table as a figure: mean request size (KiB) leaving the clients,
    leaving the forwarders and arriving at the servers, for the shared patterns' small requests;
    one bar per forwarding configuration (mean over every parameter set, the bar's range the
    lowest to highest set), the paper's HBRR values as black marks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import figure_style, save

    small = min((r["request_size"] for r in rows), default=0)
    single = [
        r
        for r in rows
        if r["kind"] == "single"
        and r["request_size"] == small
        and r["pattern"] != "file_per_process"
        and r["configuration"] != "no-forwarding"
    ]
    tests = [t for t in PAPER_SIZES_KIB if any((r["pattern"], r["operation"]) == t for r in single)]
    configurations = list(dict.fromkeys(r["configuration"] for r in single))
    metrics = (
        ("mean_client_request_size", "leaving clients"),
        ("mean_dispatch_size", "leaving I/O nodes"),
        ("mean_server_request_size", "arriving at servers"),
    )
    with figure_style():
        fig, axes = plt.subplots(1, len(metrics), figsize=(4.0 * len(metrics), 3.4), squeeze=False, sharey=True)
        width = 0.8 / max(1, len(configurations))
        for m, (column, name) in enumerate(metrics):
            ax = axes[0][m]
            for i, cfg in enumerate(configurations):
                xs, ys, lows, highs = [], [], [], []
                for j, test in enumerate(tests):
                    values = [
                        float(r[column]) / KIB
                        for r in single
                        if (r["pattern"], r["operation"]) == test and r["configuration"] == cfg
                    ]
                    if values:
                        mean, low, high = mean_and_range(values)
                        xs.append(j + (i - (len(configurations) - 1) / 2) * width)
                        ys.append(mean)
                        lows.append(low)
                        highs.append(high)
                ax.bar(xs, ys, width, yerr=[lows, highs], label=cfg, color=configuration_colour(cfg))
            ax.scatter(
                range(len(tests)),
                [PAPER_SIZES_KIB[t][m] for t in tests],
                marker="_",
                s=400,
                color="black",
                zorder=5,
                label="paper (HBRR)",
            )
            ax.set_xticks(range(len(tests)))
            ax.set_xticklabels([f"{p.removeprefix('shared_')}\n{o}" for p, o in tests], fontsize=7)
            ax.set_title(name, fontsize=9)
            if m == 0:
                ax.set_ylabel(f"mean request size (KiB; {small // KIB} KiB requests)")
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
        fig.suptitle(title)
        fig.tight_layout(rect=(0, 0.08, 1, 1))
        save(fig, png)
    return png
