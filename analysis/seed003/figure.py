"""Seed 003 step 5, the figure: Figs. 5-10 of the paper in one page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed003.spec import NOISES, PAPER, Seed003Spec
from datasched.analysis.seed003.table import WEIGHT_PARTS, effects, pick


def plot(rows: Sequence[Mapping[str, Any]], spec: Seed003Spec, png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    from datasched.analysis.style import PALETTE, figure_style, save

    ssd, g = spec.ssd_write_bw[0], spec.granularity[0]
    labels = {"none": "no I/O", "0": "I/O on SL0", "1": "I/O on SL1"}
    all_effects = [effects(rows, s, gg) for s in spec.ssd_write_bw for gg in spec.granularity]
    with figure_style():
        fig, axes = plt.subplots(3, 3, figsize=(13, 11))
        for ax, kind, value, scale, unit, panel in (
            (axes[0][0], "latency", "latency", 1e6, "latency (µs)", "osu_latency (Fig. 5)"),
            (axes[0][1], "bandwidth", "bandwidth", 1e-6, "bandwidth (MB/s)", "osu_bw (Fig. 6)"),
            (axes[0][2], "bibw", "bandwidth", 1e-6, "bandwidth (MB/s)", "osu_bibw (Fig. 8)"),
            (axes[1][0], "alltoall", "latency", 1e6, "latency (µs)", "MPI_Alltoall, 2 ranks (Fig. 7)"),
            (axes[1][1], "allreduce", "latency", 1e6, "latency (µs)", "MPI_Allreduce, 2 ranks (Fig. 9)"),
        ):
            for i, noise in enumerate(NOISES):
                pts = sorted(
                    (r["size"], r[value] * scale) for r in pick(rows, bench=kind, ssd=ssd, granularity=g, noise=noise)
                )
                ax.plot(*zip(*pts, strict=True), marker="o", ms=3, label=labels[noise], color=PALETTE[i])
            ax.set_xscale("log", base=2)
            ax.set_yscale("log" if value == "latency" else "linear")
            ax.set_xlabel("message size (bytes)")
            ax.set_ylabel(unit)
            ax.set_title(f"{panel}, SSD {ssd / 1e9:g} GB/s, g {g / 1024:g} KiB", fontsize=9)
            ax.legend(fontsize=7)
        ax = axes[1][2]
        for j, gg in enumerate(spec.granularity):
            es = [e for e in all_effects if e.granularity == gg]
            xs = [e.ssd / 1e9 for e in es]
            ax.plot(
                xs, [e.latency_sl1_us for e in es], marker="s", color=PALETTE[2 + j], label=f"SL1, g {gg / 1024:g} KiB"
            )
        es = [e for e in all_effects if e.granularity == g]
        ax.plot([e.ssd / 1e9 for e in es], [e.latency_sl0_us for e in es], marker="o", color=PALETTE[1], label="SL0")
        ax.axhline(PAPER["latency_sl0_us"], color=PALETTE[1], ls="--", lw=0.8, label="paper SL0")
        ax.axhline(PAPER["latency_sl1_us"], color=PALETTE[2], ls="--", lw=0.8, label="paper SL1")
        ax.set_xlabel("SSD write bandwidth (GB/s)")
        ax.set_ylabel("4 MB latency − no I/O (µs)")
        ax.set_title("latency added by the noise")
        ax.legend(fontsize=7)
        ax = axes[2][0]
        for i, (kind, (value, _, _)) in enumerate(WEIGHT_PARTS.items()):
            got = sorted((int(r["noise"]), r[value]) for r in rows if r["bench"] == f"weights-{kind}")
            if got:
                base = got[0][1]
                ax.plot(
                    [sl for sl, _ in got],
                    [100 * (v - base) / base for _, v in got],
                    marker="osD^v"[i % 5],
                    ms=11 - 2 * i,  # shrinking markers: identical curves stay visible one inside another
                    ls="-" if i == 0 else "none",
                    mfc="none" if i < 4 else None,
                    color=PALETTE[i % len(PALETTE)],
                    label=kind,
                )
        ax.set_ylim(-1, 1)
        ax.set_xlabel("SL of the I/O (weight 2^SL in the low table)")
        ax.set_ylabel(f"largest message vs I/O on SL{min(spec.weight_sls)} (%)")
        ax.set_title(f"SL weights (Figs. 8-9), SSD {ssd / 1e9:g} GB/s", fontsize=9)
        ax.legend(fontsize=7, ncol=2)
        ax = axes[2][1]
        e0 = sorted((e for e in all_effects if e.granularity == g), key=lambda e: e.ssd)
        # one colour per SSD bandwidth (SL0 solid with circles, SL1 dashed with squares): shades of
        # one colour could not be told apart once the lines cross
        for k, e in enumerate(e0):
            xs = [a[1] * 100 for a in e.awp]
            colour = PALETTE[k % len(PALETTE)]
            ax.plot(xs, [a[2] for a in e.awp], "-", marker="o", color=colour, label=f"SSD {e.ssd / 1e9:g} GB/s")
            ax.plot(xs, [a[3] for a in e.awp], "--", marker="s", markersize=4, color=colour)
        ax.plot([], [], "k-", marker="o", label="I/O on SL0")
        ax.plot([], [], "k--", marker="s", markersize=4, label="I/O on SL1")
        ax.axhline(PAPER["awp_sl0_pct"], color="grey", ls="-", lw=0.8)
        ax.axhline(PAPER["awp_sl1_pct"], color="grey", ls="--", lw=0.8)
        ax.set_xscale("log")
        shares = [a[1] * 100 for e in e0 for a in e.awp]
        if shares:  # a few round ticks: log-scale minor labels overlap
            ax.set_xticks([t for t in (1, 2, 5, 10, 20, 50, 100) if min(shares) <= t <= max(shares)])
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("communication share of the run without I/O (%)")
        ax.set_ylabel("runtime − no I/O (%)")
        ax.set_title("AWP-ODC-like stencil (8 nodes)")
        for key, label in (("awp_sl0_pct", " paper SL0"), ("awp_sl1_pct", " paper SL1")):
            ax.text(ax.get_xlim()[0], PAPER[key], label, va="bottom", fontsize=7, color="grey")
        ax.legend(fontsize=7)
        ax = axes[2][2]
        width = 0.35
        positions = list(range(len(e0)))
        ax.bar([x - width / 2 for x in positions], [e.cg_sl0_pct for e in e0], width, color=PALETTE[1], label="SL0")
        ax.bar([x + width / 2 for x in positions], [e.cg_sl1_pct for e in e0], width, color=PALETTE[2], label="SL1")
        ax.axhline(PAPER["cg_sl0_pct"], color=PALETTE[1], ls="--", lw=0.8, label="paper SL0")
        ax.axhline(PAPER["cg_sl1_pct"], color=PALETTE[2], ls="--", lw=0.8, label="paper SL1")
        ax.set_xticks(positions)
        ax.set_xticklabels([f"{e.ssd / 1e9:g}" for e in e0])
        ax.set_xlabel("SSD write bandwidth (GB/s)")
        ax.set_ylabel("communication time − no I/O (%)")
        ax.set_title("NAS CG-like transpose (8 nodes)")
        ax.legend(fontsize=7)
        fig.suptitle(title)
        fig.tight_layout()
        save(fig, png)
    return png
