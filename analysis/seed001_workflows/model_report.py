"""Seed 001 Table 4 model, the report section: the assumptions, the numbers per parameter set
beside the paper's, the best single parameter set and the claims it fails, and why the model's
numbers differ from the paper's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.seed001_workflows.model_claims import CLAIM_TEXT, best_set, claim_means, claim_values
from datasched.analysis.seed001_workflows.model_runs import BACKGROUND_MAX_NODES, BACKGROUND_MEAN_SECONDS
from datasched.analysis.seed001_workflows.model_spec import GB, NODE_TIERS, ModelSpec


def _fmt(name: str, value: float) -> str:
    return CLAIM_TEXT[name][3].format(value)


def section(rows: Sequence[Mapping[str, Any]], spec: ModelSpec, figure: str) -> list[str]:
    """The report's model section (numbers per parameter set, the best set, why we differ)."""
    means = claim_means(rows)
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
        "(`analysis/seed001_workflows/model_*.py`): every job's external I/O shares one Lustre-like aggregate rate "
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
        *why_lines(rows, means),
        "",
    ]
    return lines


def _span(values: Sequence[float], fmt: str = "{:.0f}") -> str:
    return f"{fmt.format(min(values))} … {fmt.format(max(values))}" if values else "none"


def why_lines(rows: Sequence[Mapping[str, Any]], means: Mapping[str, Mapping[str, float]]) -> list[str]:
    """Why the model's numbers differ from the paper's, from the runs' own numbers."""
    waits = {style: [claim_values(r)["job9-wait"] for r in rows if r["style"] == style] for style in STYLE_ORDER}
    loaded_chain = [claim_values(r)["job9-wait"] for r in rows if r["style"] == "chain" and r["load"] > 0]
    slower = sorted(name for name, m in means.items() if m["aware-reduction"] < 0)
    aware_by_load: dict[tuple[Any, ...], set[float]] = {}
    for r in rows:
        key = (r["size_rate"], r["lustre_bw"], r["tier"], r["style"])
        aware_by_load.setdefault(key, set()).add(round(float(r["t_all_aware"]), 6))
    aware_unmoved = sum(len(v) == 1 for v in aware_by_load.values())
    tiers_slower = sorted({name.split(",")[2] for name in slower})
    return [
        "### Why the model differs from the paper (no parameter was tuned toward 490 s, 280 s or 20 s)",
        "",
        "- **T_all scales with the sizes over the storage rates.** Data-unaware, every byte crosses the shared "
        "Lustre-like rate: where r x (the nodes doing I/O at once) exceeds it, T_I/O grows far beyond Table 4's "
        "seconds (the runs at r = 1 GB/s on 0.1 GB/s Lustre take hours); where Lustre is fast, T_I/O shrinks "
        "below them. The paper's 490 s is one point of this family, met only where r and the Lustre rate make "
        "Table 4's seconds come out again: no parameter of the paper fixes them.",
        f"- **Data-aware is not always faster.** Node storage has fixed rates (the SSD writes at 0.46 GB/s): at "
        f"{len(slower)} of {len(means)} parameter sets (node tier {', '.join(tiers_slower) or 'none'}) the "
        "data-aware T_all is longer than the data-unaware one, because a fast Lustre beats the node device; the "
        "paper's saving assumes node I/O ≈ 0 (\"I/O cost tends to 0 when using SCM\").",
        f"- **Job 9's wait.** Dependency style: job 9 waits {_span(waits['dependency'], '{:.1f}')} s. It keeps its "
        "submission place (t = 0): ahead of every background job, behind the lower-numbered Table 4 jobs, so it "
        "waits only when one of those takes the nodes job 7 frees -- the paper's own explanation of its 20 s. Chain "
        "style: job 9 enters the queue when job 7 ends, behind the jobs queued meanwhile, and waits "
        f"{_span(waits['chain'], '{:.1f}')} s ({_span(loaded_chain, '{:.1f}')} s with background load). Either "
        "way the wait comes out of the scheduler's decisions, and its length is the remaining run time of the jobs "
        f"that hold the nodes (Table 4's, or background jobs of mean {BACKGROUND_MEAN_SECONDS:g} s, our choice), "
        "not a number set toward the paper's 20 s.",
        f"- **The load and the data-aware runs.** At {aware_unmoved} of {len(aware_by_load)} (size, Lustre, tier, "
        "style) combinations the data-aware T_all is the same at every load and seed (the dashed lines lie under "
        "the solid ones): the data-aware policy tries released steps whose inputs are on node NVM before other "
        "waiting jobs, and the nodes their predecessor frees are theirs at once.",
        "- **Starvation of wide jobs.** Without reservations, the list scheduler lets later, smaller background "
        "jobs pass a waiting 15-node job (job 6 in the timelines), which then waits until the load thins out; it "
        "does not enter the workflow's T_all.",
    ]


STYLE_ORDER = ("single-script", "chain", "dependency")
