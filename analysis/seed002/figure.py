"""Seed 002 step 5, the makespan figure: one bar per configuration and test, with its 99.7 %
interval, one panel per parameter set and request size."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed002.spec import CONFIGURATIONS, KIB, MIB
from datasched.analysis.seed002.table import in_set


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    """Makespan per configuration (bars, 99.7 % CI) for each single-application test.

    A run with one request size and one parameter set gets one panel. A run with several gets
    one panel per (α, seek scale or cache, request size), each with its own y scale: makespans
    differ by two orders of magnitude between α = 0 and α = 0.5, and on a shared axis the short
    tests would be invisible. With one curve (count-only, no cache) a row per α and a column per
    request size; with several, a row per α and request size and a column per curve, so the
    page stays a few panels wide however many curves the sweep has (a column per curve and size
    made the quick figure 105 inches wide). No panel for a seek scale at α = 0 (not simulated)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import figure_style, save

    single = [r for r in rows if r["kind"] == "single"]
    tests = list(
        dict.fromkeys(
            (
                r["pattern"],
                r["operation"],
                r["request_size"],
                r["hdd_alpha"],
                float(r.get("hdd_seek_scale", 0.0)),
                r.get("server_cache") or "none",
            )
            for r in single
        )
    )
    configurations = list(dict.fromkeys(r["configuration"] for r in single))
    alphas = list(dict.fromkeys(t[3] for t in tests))
    variants = list(dict.fromkeys((t[4], t[5]) for t in tests))
    sizes = list(dict.fromkeys(t[2] for t in tests))
    if len(variants) > 1:  # (α, size) rows, curve columns
        grid = [[(a, v, s) for v in variants] for a in alphas for s in sizes]
    else:  # α rows, size columns
        grid = [[(a, variants[0], s) for s in sizes] for a in alphas]
    with figure_style():
        if len(tests) and sum(len(row) for row in grid) == 1:
            fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(tests)), 4))
            _plot_panel(ax, single, tests, configurations, label_alpha=True)
            ax.set_title(title)
            ax.legend(fontsize=7)
            fig.tight_layout()
        else:

            def panel(alpha: float, variant: tuple[float, str], size: int) -> list[tuple]:
                return [t for t in tests if t[2] == size and t[3] == alpha and (t[4], t[5]) == variant]

            per_panel = max(len(panel(*cell)) for row in grid for cell in row)
            fig, axes = plt.subplots(
                len(grid),
                len(grid[0]),
                figsize=(max(6.0, 1.1 * per_panel) * len(grid[0]), 3.0 * len(grid) + 0.5),
                squeeze=False,
            )
            for i, row in enumerate(grid):
                for j, (alpha, (seek, cache), size) in enumerate(row):
                    ax = axes[i][j]
                    mine = panel(alpha, (seek, cache), size)
                    if not mine:  # a seek scale at α = 0: not simulated (it would be the linear disk)
                        fig.delaxes(ax)
                        continue
                    _plot_panel(ax, single, mine, configurations, label_alpha=False)
                    ax.set_title(f"{size // KIB} KiB, {variant_title(alpha, seek, cache)}", fontsize=9)
            handles, labels = fig.axes[0].get_legend_handles_labels()
            fig.legend(handles, labels, loc="lower center", ncol=len(configurations), fontsize=8)
            fig.suptitle(title)
            # leave about 0.4 inch at the bottom for the legend's one row and at the top for the title
            # (tight_layout does not see a suptitle: it overlapped the top panels' titles)
            inch = 1 / fig.get_figheight()
            fig.tight_layout(rect=(0, 0.4 * inch, 1, 1 - 0.4 * inch))
        save(fig, png)
    return png


def configuration_colour(configuration: str) -> str:
    """One colour per compared configuration, by its place in ``CONFIGURATIONS``, so it is the same
    in the makespan, IFER and request-size figures (the size figure has no no-forwarding bar, and
    colouring by position there gave FIFO the colour no-forwarding has elsewhere)."""
    from datasched.analysis.style import PALETTE

    return PALETTE[list(CONFIGURATIONS).index(configuration) % len(PALETTE)]


def variant_title(alpha: float, seek: float, cache: str) -> str:
    """A parameter set as a panel title: ``HDD α = 0.1, count-only, cache small``."""
    curve = "count-only" if seek == 0 else f"seek scale {seek / MIB:g} MiB"
    return f"HDD α = {alpha:g}, {curve}" + (f", cache {cache}" if cache != "none" else "")


def _matches(row: Mapping[str, Any], test: tuple, configuration: str) -> bool:
    pattern, operation, size, alpha, seek, cache = test
    return (
        row["pattern"] == pattern
        and row["operation"] == operation
        and row["request_size"] == size
        and in_set(row, alpha, seek, cache)
        and row["configuration"] == configuration
    )


def _plot_panel(ax, single, tests, configurations, *, label_alpha: bool) -> None:
    """Bars of one panel: x = the tests, one bar per configuration with its 99.7 % interval."""
    width = 0.8 / max(1, len(configurations))
    for i, cfg in enumerate(configurations):
        xs, ys, es = [], [], []
        for j, test in enumerate(tests):
            r = next((x for x in single if _matches(x, test, cfg)), None)
            if r:
                xs.append(j + (i - (len(configurations) - 1) / 2) * width)
                ys.append(r["makespan_mean"])
                es.append(r["makespan_ci997"])
        ax.bar(xs, ys, width, yerr=es, label=cfg, color=configuration_colour(cfg))
    ax.set_xticks(range(len(tests)))

    def label(p: str, o: str, s: int, a: float, _seek: float, _cache: str) -> str:
        short = p.replace("shared_", "").replace("file_per_process", "fpp")
        return f"{short}\n{o} {s // KIB}K α={a:g}" if label_alpha else f"{short}\n{o}"

    ax.set_xticklabels([label(*t) for t in tests], fontsize=7)
    # log scale: no-forwarding's contiguous and fpp makespans are 10x the strided ones, which a
    # linear axis squashes to a few pixels
    ax.set_yscale("log")
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    low, high = ax.get_ylim()
    if high / low < 10:  # within a decade: label the minor ticks too, else they crowd
        ax.yaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.tick_params(axis="y", which="minor", labelsize=6)
    else:  # 1-2-5 labels: with powers of ten alone a panel spanning 15-350 s read only "100"
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylabel("makespan (s, log scale)")
