"""One look for every figure: fonts, sizes, colours and labels in one place.

Figures are compared side by side in papers, so a policy must have the same colour and
the same name everywhere; :func:`figure_style` is a context manager so the style never
leaks into a user's own matplotlib session.
"""

from __future__ import annotations

import contextlib
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.typing import RcKeyType

RC: dict[RcKeyType, Any] = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.hashsalt": "datasched",  # deterministic SVG ids
    "pdf.fonttype": 42,
}

#: Display names (figures, tables, reports).
LABELS = {
    "fcfs": "FCFS",
    "easy": "EASY",
    "conservative": "Conservative",
    "sjf": "SJF",
    "sequential": "sequential",
    "random": "random",
    "topology": "locality",
    "contiguous": "contiguous",
    "mean_waiting": "mean waiting time (s)",
    "p95_waiting": "95th pct waiting time (s)",
    "mean_bounded_slowdown": "mean bounded slowdown (τ = 10 s)",
    "mean_slowdown": "mean slowdown",
    "utilisation": "utilisation",
    "makespan": "makespan (s)",
    "mean_allocation_hops": "mean hops within an allocation",
}

#: Colour-blind-safe palette (Okabe-Ito), assigned in a fixed order.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo")


def label(name: str) -> str:
    return LABELS.get(name, name)


@contextlib.contextmanager
def figure_style():
    with plt.rc_context(RC):
        yield


def save(fig, path) -> None:
    """PNG with fixed metadata (no timestamps), so reruns give identical files."""
    fig.savefig(path, metadata={"Software": None} if str(path).endswith(".png") else {"CreationDate": None})
    plt.close(fig)


def interval_line(ax, xs, means, lows, highs, **style) -> None:
    """One line of means with its intervals as error bars (``lows``/``highs`` are the interval's
    ends, not its half-widths), capped as every figure of the project draws them."""
    ax.errorbar(
        list(xs),
        list(means),
        yerr=[
            [m - lo for m, lo in zip(means, lows, strict=True)],
            [hi - m for m, hi in zip(means, highs, strict=True)],
        ],
        capsize=3,
        **style,
    )
