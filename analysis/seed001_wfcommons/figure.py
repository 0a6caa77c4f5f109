"""Seed 001 on WfCommons shapes step 5, the figure: T_all and bytes written to central storage
per application and platform/variant, one row of panels per file-size scale. The report compares
each data-aware variant's T_all with data-unaware's in % against the paper's -43 %: the T_all
panels mark, per application, the T_all that change would give from each data-unaware baseline
(black, solid from ``scm/unaware``, dotted from ``san/unaware``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed001_wfcommons.spec import PAPER_CHANGE_PCT
from datasched.analysis.seed001_wfcommons.table import find_group, group_label


def plot(summary: Sequence[Mapping[str, Any]], path: Path, title: str) -> None:
    """Per size scale (rows) and metric (makespan, central writes): bars per application,
    one per platform/variant, for the ``dependency`` style (or the first style run)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from datasched.analysis.style import save

    styles = sorted({r["style"] for r in summary})
    style = "dependency" if "dependency" in styles else styles[0]
    scales = sorted({r["size_scale"] for r in summary})
    apps = list(dict.fromkeys(r["app"] for r in summary))
    labels = list(dict.fromkeys(group_label(r) for r in summary))
    panels = (
        ("makespan", "T_all (s; mean, whiskers min-max)", 1.0),
        ("central_write_bytes", "to central storage (GB; mean, whiskers min-max)", 1e-9),
    )
    fig, axes = plt.subplots(
        len(scales), len(panels), figsize=(max(11.0, 2.2 * len(apps)), 3.4 * len(scales)), squeeze=False
    )
    width = 0.8 / max(1, len(labels))
    for i, scale in enumerate(scales):
        for j, (metric, ylabel, unit) in enumerate(panels):
            ax = axes[i][j]
            for k, label in enumerate(labels):
                xs, ys, errs = [], [], []
                for a, app in enumerate(apps):
                    match = [
                        r
                        for r in summary
                        if r["app"] == app
                        and group_label(r) == label
                        and r["size_scale"] == scale
                        and r["style"] == style
                    ]
                    if match:
                        r = match[0]
                        xs.append(a + (k - (len(labels) - 1) / 2) * width)
                        ys.append(r[metric] * unit)
                        errs.append([(r[metric] - r[f"{metric}_min"]) * unit, (r[f"{metric}_max"] - r[metric]) * unit])
                if xs:
                    ax.bar(xs, ys, width, yerr=list(zip(*errs, strict=True)), capsize=2, label=label, color=f"C{k}")
            if metric == "makespan":
                _mark_paper(ax, summary, apps, scale, style)
            ax.set_xticks(range(len(apps)), [app_label(a) for a in apps], fontsize=7)
            ax.set_ylabel(ylabel, fontsize=8)
            ax.set_ylim(bottom=0)
            ax.set_title(f"file sizes x {scale:g}, {style} style", fontsize=9)
            if i == 0 and j == 0:
                ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save(fig, path)


def _mark_paper(ax: Any, summary: Sequence[Mapping[str, Any]], apps: Sequence[str], scale: float, style: str) -> None:
    """Across each application's bars, the T_all at the paper's change from each data-unaware baseline."""
    for platform, linestyle in (("scm", "-"), ("san", ":")):
        label = f"paper: {PAPER_CHANGE_PCT:+.0f} % from {platform}/unaware"
        for a, app in enumerate(apps):
            base = find_group(summary, platform=platform, variant="unaware", app=app, style=style, size_scale=scale)
            if base is None:
                continue
            y = base["makespan"] * (1 + PAPER_CHANGE_PCT / 100)
            ax.hlines(y, a - 0.45, a + 0.45, colors="black", linestyles=linestyle, linewidth=1.4, label=label, zorder=3)
            label = "_nolegend_"


def app_label(name: str) -> str:
    """A shape's name on the x axis in lines of at most about 10 characters (``epigenomics\nhep-1seq\n100k``):
    split once, ``epigenomics\nhep-1seq-100k`` ran into its neighbours on the full figure's seven shapes."""
    family, _, rest = name.partition("-")
    lines = [family]
    for part in rest.split("-") if rest else []:
        if lines[1:] and len(lines[-1]) + 1 + len(part) <= 10:
            lines[-1] += "-" + part
        else:
            lines.append(part)
    return "\n".join(lines)
