"""Figure 10 step 4, the figure: run time relative to NP per traffic policy, one panel per I/O model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig10.spec import policy_label
from datasched.analysis.style import save

#: The paper's value the figure marks, as run time against NP: FP "up to 17 %" faster.
PAPER_VS_NP = (0.83, "paper: FP up to 17 % faster")


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ios = list(dict.fromkeys(r["io"] for r in rows))
    fig, grid = plt.subplots(len(ios), 3, figsize=(13, 4.2 * len(ios)), squeeze=False)
    for io, axes in zip(ios, grid, strict=True):
        _plot_model([r for r in rows if r["io"] == io], axes, IO_TITLES.get(io, io))
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png


#: How each I/O model is named on the figure.
IO_TITLES = {
    "none": "I/O tasks do their own I/O (no distribution)",
    "per_task": "I/O tasks distribute to the other tasks",
}


def _plot_model(rows: Sequence[Mapping[str, Any]], axes: Any, model: str) -> None:
    labels = [policy_label(r["policy"]) for r in rows]
    colours = ["#4c72b0" if r["policy"] == "np" else "#c44e52" if r["policy"] == "fp" else "#dd8452" for r in rows]
    axes[0].bar(range(len(rows)), [r["mean_run_s"] for r in rows], color=colours)
    axes[0].set_ylabel("average run time per application (s)")
    axes[0].set_title(f"a) average run time (the paper's caption)\n{model}", fontsize=10)
    for ax, metric, name in ((axes[1], "run", "run time"), (axes[2], "total", "total time")):
        have = [i for i, r in enumerate(rows) if r[f"{metric}_vs_np"] != ""]
        ax.bar(
            have,
            [rows[i][f"{metric}_vs_np"] for i in have],
            yerr=[
                [rows[i][f"{metric}_vs_np"] - rows[i][f"{metric}_vs_np_ci95_low"] for i in have],
                [rows[i][f"{metric}_vs_np_ci95_high"] - rows[i][f"{metric}_vs_np"] for i in have],
            ],
            capsize=3,
            color=[colours[i] for i in have],
        )
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(PAPER_VS_NP[0], color="black", linestyle=":", linewidth=1, label=PAPER_VS_NP[1])
        values = [rows[i][f"{metric}_vs_np_ci95_{b}"] for i in have for b in ("low", "high")]
        ax.set_ylim(min([0.8, *values]) - 0.02, max([1.02, *values]) + 0.02)
        ax.set_ylabel(f"{name} relative to NP (same workload)")
        ax.set_title(f"{'b' if metric == 'run' else 'c'}) average {name} / NP's, per seed\n{model}", fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
    for ax in axes:
        ax.set_xticks(range(len(rows)), labels, rotation=30, ha="right", fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
