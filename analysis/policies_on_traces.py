"""Artifact "policies on real traces": tables, the figure and its plotted numbers.

Queue policies × allocation policies replayed on SWF traces. Each trace is a column of
the figure, each metric a row; bars are grouped by queue policy and coloured by
allocation policy; error bars are 95 % intervals over seeds where an allocation is
stochastic. The CSV of plotted numbers holds exactly the bar heights and error-bar ends
(fixed formatting, fixed row order) so a rerun can be compared byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .allocation import mean_pairwise_hops, parse_procset
from .jobs import load_runs
from .metrics import RUN_METRICS, run_metrics, summarise_over_seeds
from .style import HATCHES, PALETTE, figure_style, label, save

RUN_KEYS = ("trace", "policy", "allocation", "seed")
CONFIG_KEYS = ("trace", "policy", "allocation")
PLOTTED_METRICS = ("mean_waiting", "mean_bounded_slowdown", "utilisation", "mean_allocation_hops")
FLOAT_FORMAT = "%.6g"


def run_table(
    jobs_csvs: Sequence[str | Path],
    nodes_by_trace: Mapping[str, int],
    torus_dims_by_trace: Mapping[str, Sequence[int]] | None = None,
) -> pd.DataFrame:
    """Per-run metrics of every simulation (parameters read from the paths).

    With the torus dimensions of a trace's platform, ``mean_allocation_hops`` is the
    mean over multi-node jobs of their mean pairwise hop distance (NaN otherwise).
    """
    jobs = load_runs(jobs_csvs, extra={"trace": {t: {"nodes": n} for t, n in nodes_by_trace.items()}})
    runs = run_metrics(jobs, by=RUN_KEYS)
    dims = torus_dims_by_trace or {}
    rows = []
    for key, run in jobs.groupby(list(RUN_KEYS), sort=True):
        trace_dims = dims.get(key[0])
        values: list[float] = []
        if trace_dims:
            allocations = [parse_procset(text) for text in run["allocated_resources"]]
            values = [mean_pairwise_hops(ids, trace_dims) for ids in allocations if len(ids) > 1]
        rows.append(
            {
                **dict(zip(RUN_KEYS, key, strict=True)),
                "mean_allocation_hops": float(np.mean(values)) if values else float("nan"),
            }
        )
    return runs.merge(pd.DataFrame(rows), on=list(RUN_KEYS), how="left", validate="one_to_one")


def summary_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95 % interval over seeds for each (trace, policy, allocation)."""
    metrics = [m for m in (*RUN_METRICS, "mean_allocation_hops") if m in runs.columns]
    return summarise_over_seeds(runs, by=CONFIG_KEYS, metrics=metrics)


def plotted_numbers(
    summary: pd.DataFrame,
    traces: Sequence[str],
    policies: Sequence[str],
    allocations: Sequence[str],
    metrics: Sequence[str] = PLOTTED_METRICS,
) -> pd.DataFrame:
    """The figure's numbers, in the order they are drawn (config order, not alphabetical)."""
    index = summary.set_index([*CONFIG_KEYS, "metric"])
    rows = []
    for metric in metrics:
        for trace in traces:
            for policy in policies:
                for allocation in allocations:
                    row = index.loc[(trace, policy, allocation, metric)]
                    rows.append(
                        {
                            "metric": metric,
                            "trace": trace,
                            "policy": policy,
                            "allocation": allocation,
                            "mean": row["mean"],
                            "ci95_low": row["ci95_low"],
                            "ci95_high": row["ci95_high"],
                            "runs": int(row["runs"]),
                        }
                    )
    return pd.DataFrame(rows)


def write_csv(frame: pd.DataFrame, path: str | Path) -> Path:
    """Fixed float format and line endings: identical numbers give identical bytes."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
    return path


def plot(plotted: pd.DataFrame, path: str | Path, title: str = "") -> Path:
    """Grid of grouped bar charts: rows = metrics, columns = traces."""
    import matplotlib.pyplot as plt

    metrics = list(dict.fromkeys(plotted["metric"]))
    traces = list(dict.fromkeys(plotted["trace"]))
    policies = list(dict.fromkeys(plotted["policy"]))
    allocations = list(dict.fromkeys(plotted["allocation"]))
    width = 0.8 / len(allocations)
    with figure_style():
        fig, axes = plt.subplots(
            len(metrics), len(traces), figsize=(3.6 * len(traces), 2.4 * len(metrics)), squeeze=False, sharex=True
        )
        for r, metric in enumerate(metrics):
            for c, trace in enumerate(traces):
                ax = axes[r][c]
                cell = plotted[(plotted["metric"] == metric) & (plotted["trace"] == trace)]
                for k, allocation in enumerate(allocations):
                    bars = cell[cell["allocation"] == allocation].set_index("policy").loc[policies]
                    x = np.arange(len(policies)) + (k - (len(allocations) - 1) / 2) * width
                    err = np.vstack([bars["mean"] - bars["ci95_low"], bars["ci95_high"] - bars["mean"]])
                    ax.bar(
                        x,
                        bars["mean"],
                        width,
                        yerr=err,
                        capsize=2,
                        label=label(allocation),
                        color=PALETTE[k % len(PALETTE)],
                        hatch=HATCHES[k % len(HATCHES)],
                        edgecolor="black",
                        linewidth=0.4,
                        error_kw={"elinewidth": 0.8},
                    )
                ax.set_xticks(np.arange(len(policies)), [label(p) for p in policies])
                if r == 0:
                    ax.set_title(trace)
                if c == 0:
                    ax.set_ylabel(label(metric))
                if metric == "utilisation":
                    ax.set_ylim(0, 1)
        axes[0][-1].legend(title="allocation", loc="best")
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        save(fig, path)
    return path
