"""Seed 001 Table 4 model, the figure: T_all against the data size rate, one panel per
submission style and Lustre rate, data-unaware and data-aware per node tier and load, with
Table 4's 490 s and 280 s as lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_workflows.model_spec import GB, ModelSpec
from datasched.analysis.seed001_workflows.spec import PAPER_T_ALL

LOAD_STYLES = ("-", "--", ":")


def plot(rows: Sequence[Mapping[str, Any]], spec: ModelSpec, path: Path, title: str) -> None:
    """One panel per (style, Lustre rate): T_all against the size rate, data-unaware (black)
    and data-aware per node tier, one line style per background load (mean over seeds)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles, lustres = spec.styles, spec.lustre_bws
    fig, axes = plt.subplots(
        len(styles), len(lustres), figsize=(4.6 * len(lustres), 3.2 * len(styles) + 1.2), squeeze=False, sharey=True
    )
    x = [r / GB for r in spec.size_rates]
    for i, style in enumerate(styles):
        for j, lustre in enumerate(lustres):
            ax = axes[i][j]
            for k, load in enumerate(spec.load_intensities):
                ls = LOAD_STYLES[k % len(LOAD_STYLES)]
                mine = [r for r in rows if r["style"] == style and r["lustre_bw"] == lustre and r["load"] == load]

                def mean_of(col: str, rate: float, tier: str, sel: Sequence[Mapping[str, Any]] = mine) -> float:
                    vals = [float(r[col]) for r in sel if r["size_rate"] == rate and r["tier"] == tier]
                    return sum(vals) / len(vals)

                first = spec.node_tiers[0]
                ax.plot(x, [mean_of("t_all_unaware", r, first) for r in spec.size_rates], ls, color="black",
                        marker="o", ms=3, label=f"data-unaware, load {load:g}")  # fmt: skip
                for t, tier in enumerate(spec.node_tiers):
                    ax.plot(x, [mean_of("t_all_aware", r, tier) for r in spec.size_rates], ls, color=f"C{t}",
                            marker="s", ms=3, label=f"data-aware on node {tier}, load {load:g}")  # fmt: skip
            for paper, colour in ((PAPER_T_ALL["unaware"], "grey"), (PAPER_T_ALL["aware"], "tab:green")):
                ax.axhline(paper, color=colour, linewidth=0.8, linestyle="-.")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{style}, Lustre {lustre / GB:g} GB/s", fontsize=9)
            ax.grid(True, which="major", alpha=0.3)
            if i == len(styles) - 1:
                ax.set_xlabel("data size rate r (GB/s per node x Table 4 s)", fontsize=8)
            if j == 0:
                ax.set_ylabel("T_all of workflow 1->7->9 (s)", fontsize=8)
    handles, labels = axes[0][0].get_legend_handles_labels()
    handles += [plt.Line2D([], [], color="grey", linestyle="-."), plt.Line2D([], [], color="tab:green", linestyle="-.")]
    labels += ["paper 490 s (unaware)", "paper 280 s (aware)"]
    # below the panels: beside them it covered the right-hand panels' lines
    fig.legend(handles, labels, loc="lower center", fontsize=7, ncol=3, handlelength=3.5)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 1.0 / (3.2 * len(styles) + 1.2), 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)
