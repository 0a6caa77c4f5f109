"""Figure 10 step 5, the claims: the paper's sentences judged on the paired per-seed ratios by the
shared rules of ``analysis/verdicts.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import Verdict
from datasched.analysis.seed000.fig10.spec import Fig10Spec, policy_label
from datasched.analysis.verdicts import Estimate, Judgement, all_of, difference, direction, missing


def _paired_pct(runs: Sequence[Mapping[str, Any]], topology: str, a: str, b: str, key: str) -> Estimate | None:
    """How much faster ``a`` is than ``b`` in %, per seed where both ran: 100 (1 - a/b)."""
    by = {(r["policy"], r["seed"]): r[key] for r in runs if r["topology"] == topology}
    seeds = sorted(s for p, s in by if p == a and (b, s) in by)
    if not seeds:
        return None
    return Estimate.over_seeds([100 * (1 - by[(a, s)] / by[(b, s)]) for s in seeds])


def verdicts(spec: Fig10Spec, runs: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """The paper's two sentences on Fig. 10, judged on paired per-seed differences (so a
    difference within the spread of the seeds is *inconclusive*, whatever the means say), on
    the runs of :attr:`Fig10Spec.judged_io`."""
    runs = [r for r in runs if r["io"] == spec.judged_io]
    out: list[Verdict] = []
    others = [p for p in spec.policies if p != "fp"]
    faster = {p: _paired_pct(runs, spec.topology, "fp", p, "mean_run_s") for p in others}
    have = {p: e for p, e in faster.items() if e is not None}
    fp_np = faster.get("np")
    out.append(
        Verdict(
            "fig10.fp-gain",
            "Fig. 10: FP against NP, average run time of the applications",
            "FP up to 17 % faster than NP",
            f"FP faster than NP by {fp_np.text('{:+.2g}', ' %')}" if fp_np else "no paired FP/NP seed",
            difference(17.0, fp_np) if fp_np else missing("no seed with both FP and NP"),
        )
    )
    out.append(
        Verdict(
            "fig10.fp-best",
            "Fig. 10: FP is the best performer among the five policies",
            "FP best (lowest average run time)",
            "FP faster than " + ", ".join(f"{policy_label(p)} by {e.text('{:+.2g}', ' %')}" for p, e in have.items())
            if have
            else "no paired seed",
            all_of({policy_label(p): direction(1, e) for p, e in have.items()}) if have else missing("no paired seed"),
        )
    )
    ba = [p for p in spec.policies if p.startswith("ba:") and p != "ba:50"]
    judged: dict[str, Judgement] = {}
    text = []
    for p in ba:
        e = _paired_pct(runs, spec.topology, "ba:50", p, "mean_total_s")
        if e is not None:
            judged[f"vs {policy_label(p)}"] = direction(1, e)
            text.append(f"{policy_label(p)} by {e.text('{:+.2g}', ' %')}")
    out.append(
        Verdict(
            "fig10.ba-50-best",
            "Fig. 10: among BA's assignments, 50-50 gives the lowest total times",
            "BA 50-50 lowest total time (of 95-5, 50-50, 5-95)",
            "BA 50-50 faster (total time) than " + ", ".join(text) if text else "no paired BA seed",
            all_of(judged) if judged else missing("BA 50-50 and another BA assignment not both run"),
        )
    )
    return out
