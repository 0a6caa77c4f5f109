"""Seed 001 Table 4 step 4, the figure: T_all of workflow 1 -> 7 -> 9 per (NVM rates, submission
style), one bar per compared policy, with the paper's 490 s and 280 s as lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_workflows.spec import PAPER_T_ALL, POLICIES


def plot(rows: Sequence[Mapping[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r['nvm']}\n{r['style']}" for r in rows if r["policy"] == "unaware"]
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(POLICIES) * len(labels)), 4))
    width = 0.8 / len(POLICIES)
    for k, policy in enumerate(POLICIES):
        values = [r["t_all"] for r in rows if r["policy"] == policy]
        offset = (k - (len(POLICIES) - 1) / 2) * width
        ax.bar([i + offset for i in range(len(values))], values, width, label=f"data-{policy}", color=f"C{k}")
    for paper, label in ((PAPER_T_ALL["unaware"], "paper, data-unaware"), (PAPER_T_ALL["aware"], "paper, data-aware")):
        ax.axhline(paper, linestyle="--", color="grey" if paper > 300 else "black", linewidth=1, label=label)
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylabel("T_all of workflow 1 -> 7 -> 9 (s)")
    ax.set_title(title)
    # beside the axes: inside, at any corner, it covered the first or last group's bars
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
