"""Markdown reports of the artifacts: what was run, what it shows, what it cannot show.

Every sentence that states a result is computed from the plotted numbers, so the text
cannot drift from the figure when the config or the code changes. Deterministic: the
same inputs give the same bytes (no dates, no host names, no timings).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from .experiment_config import NO_SEED, REPO_ROOT, ExperimentConfig, is_stochastic
from .style import label

#: Relative spread below which allocation policies are reported as "no difference".
NEGLIGIBLE = 1e-9


def _rel(path: str | Path, start: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(start.resolve()))
    except ValueError:
        return str(path)


def _fmt(value: float) -> str:
    if pd.isna(value):
        return "n/a"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _walltime_text(meta: dict) -> str:
    options, report = meta["options"], meta["report"]
    fallback = report.get("walltime_fallback_jobs", 0)
    if not fallback:
        return "requested time (SWF field 9)"
    how = {
        "runtime": f"run time × {options['walltime_factor']:g} + {options['walltime_margin']:g} s",
        "fixed": f"{options.get('walltime_fixed')} s",
        "max_runtime": "the trace's MaxRuntime",
    }[options["walltime_fallback"]]
    return f"**fallback** for {fallback} of {report['kept_jobs']} jobs (no requested time in the trace): {how}"


def write_policies_on_traces_report(
    exp: ExperimentConfig,
    config_source: str,
    plotted_csv: str | Path,
    runs_csv: str | Path,
    workloads: Sequence[str | Path],
    figure: str | Path,
    output: str | Path,
) -> Path:
    pot = exp.policies_on_traces
    assert pot is not None
    output = Path(output)
    here = output.parent
    plotted = pd.read_csv(plotted_csv)
    runs = pd.read_csv(runs_csv, dtype={"seed": str})
    metas = {Path(w).stem: json.loads(Path(w).read_text())["datasched_meta"] for w in workloads}

    lines = [f"# Policies on real traces ({exp.variant} variant)", ""]
    lines += [
        "Queue policies × allocation policies replayed on SWF traces with datasched-sim "
        "(SimGrid) and datasched's own policies. Regenerate with",
        "",
        "```sh",
        f"snakemake -c2 --configfile {_rel(config_source, REPO_ROOT)}",
        "```",
        "",
        "## What was run",
        "",
        "| trace | SWF | jobs replayed | dropped by cleaning | platform | walltime |",
        "|---|---|---|---|---|---|",
    ]
    for trace in pot.traces:
        spec, meta = exp.traces[trace], metas[trace]
        dropped = ", ".join(f"{k} {v}" for k, v in sorted(meta["report"]["dropped"].items()) if v) or "none"
        topo = spec.platform.get("interconnect", {}).get("topology", {})
        topo_text = f"{topo.get('kind', 'torus')} {'×'.join(str(d) for d in topo.get('dims', []))}".strip()
        lines.append(
            f"| {trace} | `{spec.swf.name}` | {meta['report']['kept_jobs']} | {dropped} | "
            f"{spec.nodes} nodes, {topo_text}, storage {spec.platform.get('storage_mode', 'unified')} | "
            f"{_walltime_text(meta)} |"
        )
    stochastic = [a for a in pot.allocations if is_stochastic(a)]
    lines += [
        "",
        f"* Queue policies: {', '.join(label(p) for p in pot.policies)} "
        f"(`{'`, `'.join(pot.policies)}`); allocation policies: "
        f"{', '.join(f'{label(a)} (`{a}`)' for a in pot.allocations)}.",
        f"* Seeds {', '.join(map(str, pot.seeds))} for the stochastic allocation(s) "
        f"({', '.join(stochastic) or 'none'}); deterministic ones run once (seed `{NO_SEED}`). "
        f"{len(runs)} simulations in all.",
        "* Jobs are `delay` profiles of their trace run time (the converter's default): a job's "
        "duration does not depend on the nodes it gets. Jobs that ran longer than they requested "
        "are killed at their walltime, as Batsim does.",
        "* Metrics (definitions in `datasched.analysis.metrics`): waiting = start − submit; "
        "bounded slowdown = max(1, turnaround / max(run time, 10 s)); utilisation = Σ run time × nodes / "
        "(platform nodes × makespan); allocation hops = mean torus hop distance between the nodes of "
        "a multi-node job (`datasched.analysis.allocation`). Error bars: 95 % Student-t intervals over seeds.",
        "",
        "## Results",
        "",
        f"![policies on traces]({_rel(figure, here)})",
        "",
        f"Plotted numbers: [`{_rel(plotted_csv, here)}`]({_rel(plotted_csv, here)}).",
        "",
    ]
    for metric in dict.fromkeys(plotted["metric"]):
        lines += [
            f"### {label(metric)}",
            "",
            "| trace | policy | " + " | ".join(label(a) for a in pot.allocations) + " |",
            "|---|---|" + "---|" * len(pot.allocations),
        ]
        cell = plotted[plotted["metric"] == metric]
        for trace in pot.traces:
            for policy in pot.policies:
                values = []
                for allocation in pot.allocations:
                    row = cell[
                        (cell["trace"] == trace) & (cell["policy"] == policy) & (cell["allocation"] == allocation)
                    ].iloc[0]
                    text = _fmt(row["mean"])
                    if row["runs"] > 1:
                        text += f" [{_fmt(row['ci95_low'])}, {_fmt(row['ci95_high'])}]"
                    values.append(text)
                lines.append(f"| {trace} | {label(policy)} | " + " | ".join(values) + " |")
        lines.append("")
    lines += ["## What it shows", ""]
    lines += _findings(plotted, runs, pot.traces, pot.policies, pot.allocations)
    lines += [
        "",
        "## Limits",
        "",
        "* Run times are the trace's: no network or storage model affects them here, so this artifact "
        "compares queueing and packing only. Allocation policies can matter only through packing "
        "constraints; with `delay` profiles and allocators that accept any set of free nodes, they "
        "change *which* nodes a job gets, not *when* it runs. Data-aware effects (node NVM, "
        "interconnect sharing) are the subject of the later artifacts.",
        "* Only the first jobs of each trace are replayed in the quick variant (see `conversion.max_jobs` "
        "in the config); the full variant replays the whole files.",
        "",
    ]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines))
    return output


def _findings(plotted: pd.DataFrame, runs: pd.DataFrame, traces, policies, allocations) -> list[str]:
    out = []
    for trace in traces:
        cell = plotted[(plotted["trace"] == trace)]
        bsld = cell[cell["metric"] == "mean_bounded_slowdown"]
        best = bsld.loc[bsld["mean"].idxmin()]
        worst = bsld.loc[bsld["mean"].idxmax()]
        if best["mean"] == worst["mean"]:
            out.append(
                f"* **{trace}**: every configuration gives the same mean bounded slowdown ({_fmt(best['mean'])})."
            )
        else:
            out.append(
                f"* **{trace}**: the lowest mean bounded slowdown is {label(best['policy'])} with "
                f"{label(best['allocation'])} allocation ({_fmt(best['mean'])}), the highest "
                f"{label(worst['policy'])} with {label(worst['allocation'])} ({_fmt(worst['mean'])})."
            )
        waiting = cell[cell["metric"] == "mean_waiting"]
        by_policy = waiting.groupby("policy", sort=False)["mean"].mean()
        ranking = ", ".join(f"{label(p)} {_fmt(by_policy[p])} s" for p in sorted(policies, key=lambda p: by_policy[p]))
        out.append(f"  Mean waiting time by queue policy (averaged over allocations): {ranking}.")
        spreads = []
        for policy in policies:
            values = waiting[waiting["policy"] == policy]["mean"]
            base = max(abs(values.max()), 1e-12)
            spreads.append((values.max() - values.min()) / base)
        hops = cell[cell["metric"] == "mean_allocation_hops"].dropna(subset=["mean"])
        if not hops.empty:
            by_alloc = hops.groupby("allocation", sort=False)["mean"].mean()
            order = ", ".join(
                f"{label(a)} {by_alloc[a]:.2f}" for a in sorted(by_alloc.index, key=lambda a: by_alloc[a])
            )
            out.append(f"  Mean hop distance between the nodes of a multi-node job, by allocation: {order}.")
        if max(spreads) <= NEGLIGIBLE:
            out.append(
                "  The allocation policy changes no waiting time at all, as expected with "
                "`delay` profiles (see Limits)."
            )
        else:
            out.append(
                f"  The allocation policy changes mean waiting time by up to {100 * max(spreads):.1f} % "
                "for a given queue policy."
            )
        killed = runs[runs["trace"] == trace]["killed_jobs"]
        if killed.max() > 0:
            count = (
                f"{int(killed.min())}" if killed.min() == killed.max() else f"{int(killed.min())}–{int(killed.max())}"
            )
            out.append(
                f"  {count} jobs per run reached their walltime (run time longer than requested) and were killed."
            )
    return out
