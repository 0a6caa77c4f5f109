"""Seed 004 step 5, the figure: slowdowns against daemon cost, node count and idle load."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed004.spec import PAPER, Seed004Spec, model_title
from datasched.analysis.seed004.table import idle_overheads, select


def plot(rows: Sequence[Mapping[str, Any]], spec: Seed004Spec, png: Path, title: str) -> Path:
    """Per node model (rows of panels): (a) HPL slowdown against the request cost at the
    largest size, paper bands shaded; (b) slowdown against size for each swept cost
    (matching); (c) idle overhead against size; (d) placements."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import PALETTE, figure_style, save

    big = max(spec.io_sizes)
    models = list(spec.models)
    with figure_style():
        fig, axes = plt.subplots(len(models), 4, figsize=(17, 3.9 * len(models)), squeeze=False)
        for row_axes, model in zip(axes, models, strict=True):
            # the memory models' names are long: on a line of their own above the panel's
            name = f"{model}: " if model_title(model) == model else f"{model_title(model)}:\n"
            ax = row_axes[0]
            for i, configuration in enumerate(("single", "matching", "matching-nometa")):
                pts = sorted(
                    (r["request_cost_us"], r["slowdown_pct"])
                    for r in select(rows, model=model, size=big, configuration=configuration, placement="all")
                )
                if pts:
                    ax.plot(*zip(*pts, strict=True), marker="o", color=PALETTE[i], label=configuration)
            ax.axhspan(*PAPER["single"], color=PALETTE[0], alpha=0.15, label="paper: single")
            ax.axhspan(*PAPER["matching"], color=PALETTE[1], alpha=0.15, label="paper: matching")
            ax.set_xscale("log")
            _slowdown_axis(ax, 60)
            ax.set_xlabel("service CPU per 512-B write (µs of one core)")
            ax.set_ylabel(SLOWDOWN_LABEL)
            ax.set_title(f"{name}n = {big}, cost sweep")
            ax.legend(fontsize=7)

            ax = row_axes[1]
            if len(spec.io_sizes) < 2:
                # one IOR size: a "by size" panel would be one column of points on a log axis
                ax.axis("off")
                ax.text(
                    0.5,
                    0.5,
                    f"one IOR size in this variant (n = {big}):\nslowdown against size needs the full variant",
                    ha="center",
                    va="center",
                    transform=ax.transAxes,
                )
            for i, cost in enumerate(spec.request_costs_us if len(spec.io_sizes) > 1 else ()):
                for style, configuration in (("-", "matching"), (":", "single")):
                    pts = sorted(
                        (r["size"], r["slowdown_pct"])
                        for r in select(
                            rows, model=model, configuration=configuration, placement="all", request_cost_us=cost
                        )
                    )
                    if pts:
                        ax.plot(
                            *zip(*pts, strict=True),
                            style,
                            marker="o",
                            color=PALETTE[i % len(PALETTE)],
                            label=f"{cost:g} µs"
                            if configuration == "matching" or "matching" not in spec.configurations
                            else None,
                        )
            if len(spec.io_sizes) > 1:
                ax.set_xscale("log", base=2)
                _slowdown_axis(ax, 1)
                ax.set_xlabel("HPL nodes")
                ax.set_ylabel(SLOWDOWN_LABEL)
            ax.set_title(f"{name}matching (—) and single (··) by size")
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7, title="cost", title_fontsize=7)

            ax = row_axes[2]
            for i, ((fraction, period), by_size) in enumerate(sorted(idle_overheads(rows, model).items())):
                node_counts = sorted(by_size)
                ax.plot(
                    node_counts, [by_size[x] for x in node_counts], marker="o", color=PALETTE[i % len(PALETTE)],
                    label=f"{100 * fraction:g} %, {period:g} s",
                )  # fmt: skip
            ax.axhspan(*PAPER["idle64"], color="grey", alpha=0.2, label="paper at 64")
            ax.set_xscale("log", base=2)
            _slowdown_axis(ax, 3)
            ax.set_xlabel("HPL nodes")
            ax.set_ylabel(SLOWDOWN_LABEL)
            ax.set_title(f"{name}idle services (core share, period)")
            ax.legend(fontsize=7)

            ax = row_axes[3]
            configurations = [c for c in ("single", "matching") if c in spec.configurations]
            width = 0.8 / max(1, len(spec.placements))
            for j, placement in enumerate(spec.placements):
                xs: list[float] = []
                ys: list[float] = []
                for i, configuration in enumerate(configurations):
                    r = select(rows, model=model, size=big, configuration=configuration, placement=placement)
                    if r:
                        xs.append(i + (j - (len(spec.placements) - 1) / 2) * width)
                        ys.append(max(x["slowdown_pct"] for x in r))
                bars = ax.bar(xs, ys, width, color=PALETTE[j], label=placement)
                ax.bar_label(bars, labels=[f"{y:.2g}" for y in ys], fontsize=6)
            ax.set_xticks(range(len(configurations)))
            ax.set_xticklabels(configurations)
            _slowdown_axis(ax, 1)
            ax.set_ylabel("largest HPL slowdown swept (%, symlog)")
            ax.set_title(f"{name}n = {big}, service placement")
            ax.legend(fontsize=7)
        fig.suptitle(title)
        # tight_layout ignores the suptitle: keep half an inch above the panels for it
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / fig.get_figheight()))
        save(fig, png)
    return png


#: The slowdown axes are symmetric-log (linear from 0 to 1 %, logarithmic above): the label says so.
SLOWDOWN_LABEL = "HPL slowdown (%; linear to 1, log above)"


def _slowdown_axis(ax, at_least: float) -> None:
    """Symmetric-log slowdown axis from 0 to a bit above the data (and ``at_least``), so
    that the paper's bands and the tallest bars stay in view."""
    top = max([at_least, *(line.get_ydata().max() for line in ax.get_lines() if len(line.get_ydata()))])
    for patch in ax.patches:
        top = max(top, patch.get_height())
    ax.set_yscale("symlog", linthresh=1)
    ax.set_ylim(0, top * 2)
