"""Figure 7 step 3, the figure: (a) BA's share against NP per STG-k, (b) FP relative to NP against
remote accesses, one row of panels per I/O model and sharing unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig7.spec import PANEL_A_REMOTE, io_model_parts
from datasched.analysis.style import save

#: The paper's value the figure marks (panel b), as run time against NP: "more than 10 % faster".
PAPER_VS_NP = (0.9, "paper: > 10 % faster (STG-16..64)")


def plot(rows: Sequence[Mapping[str, Any]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = list(dict.fromkeys((r["io"], r["sharing"]) for r in rows))
    storages = sorted({r["storage"] for r in rows}, key=lambda s: int(s.removeprefix("stg-")))
    fig, axes = plt.subplots(len(panels), 2, figsize=(12, 4 * len(panels)), squeeze=False)
    for i, (io, sharing) in enumerate(panels):
        mine = [r for r in rows if (r["io"], r["sharing"]) == (io, sharing)]
        unit = f"{io_title(io)}, {sharing} sharing"
        left, right = axes[i]
        for j, storage in enumerate(storages):
            ba = sorted(
                (float(r["policy"].removeprefix("ba:")), r["runtime_s"])
                for r in mine
                if r["storage"] == storage and r["remote_pct"] == PANEL_A_REMOTE and r["policy"].startswith("ba:")
            )
            nptime = next(
                (
                    r["runtime_s"]
                    for r in mine
                    if (r["storage"], r["remote_pct"], r["policy"]) == (storage, PANEL_A_REMOTE, "np")
                ),
                None,
            )
            if ba:
                left.plot([x for x, _ in ba], [t for _, t in ba], marker="o", color=f"C{j}", label=storage.upper())
            if nptime is not None:
                left.axhline(nptime, color=f"C{j}", linestyle=":", linewidth=1)
            fp = sorted((r["remote_pct"], r["vs_np"]) for r in mine if r["storage"] == storage and r["policy"] == "fp")
            if fp:
                right.plot([x for x, _ in fp], [v for _, v in fp], marker="o", color=f"C{j}", label=storage.upper())
        times = [r["runtime_s"] for r in mine if r["remote_pct"] == PANEL_A_REMOTE and r["policy"] != "fp"]
        wide = bool(times) and max(times) > 3 * min(times)  # several STG-k: seconds to hundreds of seconds
        if wide:
            left.set_yscale("log")
        else:
            left.ticklabel_format(axis="y", style="plain", useOffset=False)
        left.set_xlabel("bandwidth assigned to IPC under BA (%)")
        left.set_ylabel("run time (s, log scale)" if wide else "run time (s)")
        left.set_title(f"a) BA at 50 % memory hits, 50 % remote, Disperse; dotted: NP\n({unit})", fontsize=9)
        right.axhline(PAPER_VS_NP[0], color="black", linestyle="--", linewidth=0.8, label=PAPER_VS_NP[1])
        right.set_xlabel("accesses to remote nodes (%)")
        right.set_ylabel("FP run time / NP run time")
        right.set_title(f"b) FP relative to NP, 50 % memory hits, Disperse\n({unit})", fontsize=9)
        values = [r["vs_np"] for r in mine if r["policy"] == "fp"]
        right.set_ylim(min([0.85, *values]) - 0.02, max([1.02, *values]) + 0.02)
        left.set_xlim(0, 90)
        right.set_xlim(-5, 105)
        for ax in (left, right):
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7, ncol=2)
    fig.suptitle(title)
    fig.tight_layout()
    save(fig, png)
    return png


def io_title(io: str) -> str:
    """A panel title naming an I/O model in words."""
    distribution, io_tasks = io_model_parts(io)
    if distribution == "none":
        return f"{io_tasks} I/O tasks, no distribution"
    return f"{io_tasks} I/O tasks distributing to the others"
