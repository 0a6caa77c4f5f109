"""Seed 001 Table 4 model, the verdicts: the paper's T_all (490 s unaware, 280 s aware), its
reduction and job 9's wait, judged over the swept parameter sets with the shared sweep rule
(:func:`datasched.analysis.verdicts.sweep`: reproduced only where one parameter set satisfies
every claim together), and the best single set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import Verdict
from datasched.analysis.seed001_workflows.model_spec import ParamSet
from datasched.analysis.verdicts import Estimate, Judgement, SweepClaim, VerdictError, Word, sweep

#: The paper's numbers (section 4.1): T_all 490 s unaware, 280 s aware, job 9 waits 20 s.
PAPER = {"unaware-490": 490.0, "aware-280": 280.0, "aware-reduction": (490.0 - 280.0) / 490.0, "job9-wait": 20.0}
CLAIMS = (
    SweepClaim("unaware-490", PAPER["unaware-490"]),
    SweepClaim("aware-280", PAPER["aware-280"]),
    SweepClaim("aware-reduction", PAPER["aware-reduction"]),
    SweepClaim("job9-wait", PAPER["job9-wait"]),
)


def claim_values(row: Mapping[str, Any]) -> dict[str, float]:
    u, a = float(row["t_all_unaware"]), float(row["t_all_aware"])
    return {"unaware-490": u, "aware-280": a, "aware-reduction": (u - a) / u, "job9-wait": float(row["wait9_unaware"])}


def estimates(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Estimate]]:
    """Per parameter set: each claim's value over the load seeds (deterministic without load)."""
    by_set: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        by_set.setdefault(str(r["set"]), []).append(r)
    out: dict[str, dict[str, Estimate]] = {}
    for name, mine in by_set.items():
        values = [claim_values(r) for r in mine]
        if mine[0]["load"] > 0:
            out[name] = {c.name: Estimate.over_seeds([v[c.name] for v in values]) for c in CLAIMS}
        else:
            why = "no background load: the run has no random input"
            out[name] = {c.name: Estimate.deterministic(values[0][c.name], why) for c in CLAIMS}
    return out


def claim_means(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Per parameter set: each claim's mean over the load seeds (the figure's and report's numbers)."""
    return {name: {k: e.mean for k, e in per.items()} for name, per in estimates(rows).items()}


def judgements(rows: Sequence[Mapping[str, Any]]) -> dict[str, Judgement]:
    if not rows:
        raise VerdictError("seed 001 Table 4 model: no runs")
    return sweep(CLAIMS, estimates(rows))


def best_set(rows: Sequence[Mapping[str, Any]]) -> tuple[str, list[str]]:
    """The parameter set at which most claims are reproduced together (first in sweep order
    on ties), and the claims it fails."""
    ests = estimates(rows)
    scored = []
    for name, per in ests.items():
        failed = [c.name for c in CLAIMS if c.judge(per[c.name]).word is not Word.REPRODUCED]
        scored.append((len(failed), name, failed))
    _, name, failed = min(scored, key=lambda s: s[0])
    return name, failed


def best_parameter_set(rows: Sequence[Mapping[str, Any]]) -> ParamSet:
    """:func:`best_set` as a :class:`ParamSet` (to find its runs)."""
    name, _ = best_set(rows)
    r = next(r for r in rows if r["set"] == name)
    return ParamSet(float(r["size_rate"]), float(r["lustre_bw"]), str(r["tier"]), str(r["style"]), float(r["load"]))


CLAIM_TEXT = {
    "unaware-490": ("table4.unaware-490", "T_all of workflow 1 → 7 → 9, data-unaware", "490 s", "{:.0f} s"),
    "aware-280": ("table4.aware-280", "T_all of workflow 1 → 7 → 9, data-aware", "280 s", "{:.0f} s"),
    "aware-reduction": ("table4.aware-reduction", "T_all reduction, data-aware", "43 % (490 → 280 s)", "{:.0%}"),
    "job9-wait": ("table4.job9-wait", "job 9 waits in the queue (data-unaware)", "20 s", "{:.0f} s"),
}


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """The four Table 4 claims judged over the sweep (model predictions)."""
    judged = judgements(rows)
    ests = estimates(rows)
    out = []
    for c in CLAIMS:
        key, claim, paper, fmt = CLAIM_TEXT[c.name]
        means = [e[c.name].mean for e in ests.values()]
        ours = f"{fmt.format(min(means))} … {fmt.format(max(means))} over {len(means)} sets"
        out.append(Verdict(key, claim, paper, ours, judged[c.name]))
    return out
