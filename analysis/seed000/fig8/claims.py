"""Figure 8 step 4, the claims: the paper's sentences judged on the table by the shared rules of
``analysis/verdicts.py`` (intervals over workload seeds)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import Verdict
from datasched.analysis.seed000.fig8.spec import STRATEGIES
from datasched.analysis.seed000.fig8.table import by_strategy
from datasched.analysis.verdicts import Estimate, all_of, difference, direction, no_effect


def _vs_cache_pct(row: Mapping[str, Any]) -> Estimate:
    """A policy's excess over Cache, in %, with the 95 % interval of the paired ratios."""
    return Estimate(
        100 * (float(row["vs_cache"]) - 1),
        100 * (float(row["vs_cache_ci95_low"]) - 1),
        100 * (float(row["vs_cache_ci95_high"]) - 1),
        int(row["n_seeds"]),
    )


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """Each sentence of the paper on Fig. 8 judged by :mod:`datasched.analysis.verdicts`, over
    the paired per-seed ratios to Cache (so an ordering with intervals including 0 is
    *inconclusive*, whatever the means say)."""
    t = by_strategy(rows)
    topologies = list(dict.fromkeys(r["topology"] for r in rows))

    def total(topology: str, strategy: str, access: str) -> float:
        return float(t[(topology, strategy, "L" if strategy == "cache" else access)]["mean_total_s"])

    others = [(s, a) for s in STRATEGIES[1:] for a in ("D", "A")]
    out: list[Verdict] = []
    best = [
        tp
        for tp in topologies
        if all(total(tp, "cache", "L") <= float(r["mean_total_s"]) + 1e-9 for r in rows if r["topology"] == tp)
    ]
    cache_first = {
        tp: all_of({f"{s}-{a}": direction(1, _vs_cache_pct(t[(tp, s, a)])) for s, a in others}) for tp in topologies
    }
    out.append(
        Verdict(
            "fig8.cache-best",
            "Cache is the best storage allocation",
            "Cache fastest (all accesses local), which also shortens waiting",
            f"Cache fastest (or tied) in the mean on {len(best)}/{len(topologies)} topologies",
            all_of(cache_first),
        )
    )

    dragonfly = next((tp for tp in topologies if "dragonfly" in tp), None)
    if dragonfly is not None:
        excess = {f"{s.capitalize()}-{a}": _vs_cache_pct(t[(dragonfly, s, a)]) for s, a in others}
        out.append(
            Verdict(
                "fig8.internal-external-44",
                f"Internal/External against Cache on the dragonfly ({dragonfly})",
                "around 44 % slower, not exceedingly higher",
                ", ".join(f"{k} {v.text('{:+.0f}', ' %')}" for k, v in excess.items()),
                all_of({k: difference(44.0, v) for k, v in excess.items()}),
            )
        )

    def order(tp: str) -> list[str]:
        return [k for k, _ in sorted(((s, total(tp, s, "D")) for s in STRATEGIES), key=lambda kv: kv[1])]

    orders = {tp: order(tp) for tp in topologies}
    out.append(
        Verdict(
            "fig8.consistent-topologies",
            "The results are consistent across the three topologies",
            "same picture on dragonfly, fat-tree and torus",
            "; ".join(f"{tp}: {' < '.join(o)}" for tp, o in orders.items()) + " (Disperse, means)",
            all_of(cache_first),
        )
    )

    changes: dict[str, Estimate] = {}
    for tp in topologies:
        for s in STRATEGIES[1:]:
            a, d = t[(tp, s, "A")], t[(tp, s, "D")]
            base = float(d["mean_total_s"])
            # unpaired (the plotted numbers keep no per-seed A/D pairs): the widest difference
            changes[f"{tp} {s}"] = Estimate(
                100 * (float(a["mean_total_s"]) - base) / base,
                100 * (float(a["ci95_low_s"]) - float(d["ci95_high_s"])) / base,
                100 * (float(a["ci95_high_s"]) - float(d["ci95_low_s"])) / base,
                int(a["n_seeds"]),
            )
    ratios = [total(tp, s, "A") / total(tp, s, "D") for tp in topologies for s in STRATEGIES[1:]]
    out.append(
        Verdict(
            "fig8.affinity-no-impact",
            "Disperse and Affinity have no great impact on performance",
            "no great impact (read as within ±10 %)",
            f"Affinity/Disperse between {min(ratios):.2f} and {max(ratios):.2f} (means)",
            all_of({k: no_effect(v, 10.0) for k, v in changes.items()}),
        )
    )
    return out
