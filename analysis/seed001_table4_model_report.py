"""Seed 001 Table 4 model runs, drawn and written up: the figure of T_all against the data
size rate, and the report section (assumptions, per-set numbers beside the paper's, the best
single parameter set and the claims it fails). The runs and verdicts are in
:mod:`datasched.analysis.seed001_table4_model`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_table4_model import (
    BACKGROUND_MAX_NODES,
    BACKGROUND_MEAN_SECONDS,
    CLAIM_TEXT,
    GB,
    NODE_TIERS,
    ModelSpec,
    best_set,
    claim_values,
    estimates,
)

LOAD_STYLES = ("-", "--", ":")


def _means(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    return {name: {k: e.mean for k, e in per.items()} for name, per in estimates(rows).items()}


def plot(rows: Sequence[Mapping[str, Any]], spec: ModelSpec, path: Path, title: str) -> None:
    """One panel per (style, Lustre rate): T_all against the size rate, data-unaware (black)
    and data-aware per node tier, one line style per background load (mean over seeds)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles, lustres = spec.styles, spec.lustre_bws
    fig, axes = plt.subplots(
        len(styles), len(lustres), figsize=(4.2 * len(lustres) + 2.2, 3.2 * len(styles)), squeeze=False, sharey=True
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
            for paper, colour in ((490.0, "grey"), (280.0, "tab:green")):
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
    fig.legend(handles, labels, loc="center right", fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1 - 2.2 / (4.2 * len(lustres) + 2.2), 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _fmt(name: str, value: float) -> str:
    return CLAIM_TEXT[name][3].format(value)


def section(rows: Sequence[Mapping[str, Any]], spec: ModelSpec, figure: str) -> list[str]:
    """The report's model section (numbers per parameter set, the best set, why we differ)."""
    means = _means(rows)
    best, failed = best_set(rows)
    tiers = ", ".join(
        f"`{t}` (read {r / GB:.3g} GB/s, write {w / GB:.3g} GB/s, {c / GB:g} GB)" for t, (r, w, c) in NODE_TIERS.items()
    )
    waits = [claim_values(r)["job9-wait"] for r in rows]
    lines = [
        "## Table 4 as a model prediction",
        "",
        f"![T_all against the data size rate]({figure})",
        "",
        "The ten jobs of Table 4 on the storage of the paper's stated hardware "
        "(`analysis/seed001_table4_model.py`): every job's external I/O shares one Lustre-like aggregate rate "
        "(SimGrid shares it between the concurrent jobs), a data-aware step keeps its intermediate data on the "
        f"node tier {tiers}, compute seconds are Table 4's. Swept, because the paper does not give them:",
        "",
        f"- **data sizes**: the paper names no application behind Table 4 (\"very short jobs\" for illustration, "
        f"I/O in seconds only), so no size can be derived from it. Assumption: an I/O phase moves Table 4's "
        f"seconds x r bytes per node, r in {', '.join(f'{v / GB:g}' for v in spec.size_rates)} GB/s (the seconds "
        "were measured at a per-node rate r the paper does not state);",
        f"- **Lustre aggregate rate**: {', '.join(f'{v / GB:g}' for v in spec.lustre_bws)} GB/s (the Tables 1-3 "
        "artifact's range; Table 1's one client wrote 10 GB in 137.77 s, 73 MB/s);",
        f"- **background load**: seeded synthetic compute-only jobs (Poisson arrivals on [0, "
        f"{spec.load_horizon:g}) s, 1-{BACKGROUND_MAX_NODES} nodes, exponential run time of mean "
        f"{BACKGROUND_MEAN_SECONDS:g} s) offering {', '.join(f'{v:g}' for v in spec.load_intensities)} of the 20 "
        f"nodes' node-seconds, seeds {', '.join(str(s) for s in spec.load_seeds)}; they take nodes in submission "
        "order like every job, so job 9's wait comes from the scheduler's decisions;",
        f"- **submission style**: {', '.join(spec.styles)} (the paper does not say how its example was submitted).",
        "",
        f"Best single parameter set (most claims reproduced together): **{best}**; it fails "
        f"{', '.join(CLAIM_TEXT[c][0] for c in failed) if failed else 'none'}. Job 9's data-unaware wait over all "
        f"{len(rows)} runs: {min(waits):.1f} … {max(waits):.1f} s.",
        "",
        "| parameter set | T_all unaware (s) | T_all aware (s) | reduction | job 9 wait, unaware (s) | paper |",
        "|---|---|---|---|---|---|",
    ]
    for name, m in means.items():
        lines.append(
            f"| {name} | {_fmt('unaware-490', m['unaware-490'])} | {_fmt('aware-280', m['aware-280'])} | "
            f"{_fmt('aware-reduction', m['aware-reduction'])} | {_fmt('job9-wait', m['job9-wait'])} | "
            "490 / 280 / 43 % / 20 |"
        )
    lines += [
        "",
        "(Means over the load seeds; without load a run has no random input and is one run.)",
        "",
    ]
    return lines
