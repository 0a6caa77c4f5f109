"""Figure 9 step 4, the claims: the paper's sentences judged on the table by the shared rules of
``analysis/verdicts.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import Verdict
from datasched.analysis.seed000.fig9.figure import series_curve, staging_levels
from datasched.analysis.verdicts import Estimate, VerdictError, all_of, difference, direction, no_effect


def _point(rows: Sequence[Mapping[str, Any]], tp: str, series: str, servers: int, staging: str | None = None):
    found = [
        r
        for r in rows
        if r["topology"] == tp
        and r["series"] == series
        and int(r["servers"]) == servers
        and (staging is None or series == "SAN" or r["staging"] == staging)
    ]
    if not found:
        raise VerdictError(f"no {series} point at {servers} servers on {tp}")
    return found[0]


def _diff(a: Mapping[str, Any], b: Mapping[str, Any], scale: float = 1.0) -> Estimate:
    """a − b (× scale) with the widest interval the two unpaired 95 % intervals allow."""
    return Estimate(
        scale * (float(a["mean_total_s"]) - float(b["mean_total_s"])),
        scale * (float(a["ci95_low_s"]) - float(b["ci95_high_s"])),
        scale * (float(a["ci95_high_s"]) - float(b["ci95_low_s"])),
        min(int(a["n_seeds"]), int(b["n_seeds"])),
    )


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """Fig. 9's sentences judged by :mod:`datasched.analysis.verdicts`; differences between
    server counts are unpaired (the widest interval), and one seed gives no interval, so the
    quick variant's single seed is *inconclusive* by rule."""
    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    out: list[Verdict] = []
    san = {tp: series_curve(rows, tp, "SAN") for tp in topologies}
    servers = sorted(next(iter(san.values())))
    lo, hi = servers[0], servers[-1]

    if 1 in servers and 16 in servers:
        factors = {tp: san[tp][1] / san[tp][16] for tp in topologies}
        parts = {}
        for tp in topologies:
            one, sixteen = _point(rows, tp, "SAN", 1), _point(rows, tp, "SAN", 16)
            parts[tp] = difference(900.0, _diff(one, sixteen, 100 / float(sixteen["mean_total_s"])))
        out.append(
            Verdict(
                "fig9.san-1-vs-16",
                "Fig. 9b: SAN with one I/O server against 16",
                "about one order of magnitude worse, whatever the topology (read as +900 %)",
                ", ".join(f"{tp}: x{f:.1f}" for tp, f in factors.items()),
                all_of(parts),
            )
        )

    above16 = [n for n in servers if n >= 16]
    if len(above16) >= 2:
        gains = {tp: 1 - san[tp][above16[-1]] / san[tp][above16[0]] for tp in topologies}
        out.append(
            Verdict(
                "fig9.san-beyond-16",
                f"Fig. 9b: SAN beyond 16 servers (16 to {above16[-1]})",
                "still improves, at a much lower rate",
                ", ".join(f"{tp}: -{100 * g:.0f} %" for tp, g in gains.items()),
                all_of(
                    {
                        tp: direction(1, _diff(_point(rows, tp, "SAN", 16), _point(rows, tp, "SAN", above16[-1])))
                        for tp in topologies
                    }
                ),
            )
        )

    for staging in staging_levels(rows):
        for series in ("Cache", "I-A"):
            near = {tp: series_curve(rows, tp, series, staging)[lo] for tp in topologies}
            out.append(
                Verdict(
                    f"fig9.near-beats-san-{series.lower()}-{staging}",
                    f"Fig. 9: {series} with {lo} server(s) against SAN with {hi} (staging {staging})",
                    "the SAN never outperforms near-data storage, even with many more servers",
                    ", ".join(f"{tp}: {near[tp]:.0f} s vs {san[tp][hi]:.0f} s" for tp in topologies),
                    all_of(
                        {
                            tp: direction(1, _diff(_point(rows, tp, "SAN", hi), _point(rows, tp, series, lo, staging)))
                            for tp in topologies
                        }
                    ),
                )
            )
        out.extend(_stabilises(rows, topologies, servers, staging))
    return out


def _stabilises(
    rows: Sequence[Mapping[str, Any]], topologies: list[str], servers: list[int], staging: str
) -> list[Verdict]:
    lo, hi = servers[0], servers[-1]
    out = []
    mid = [n for n in servers if n >= 16]
    for series in ("I-A", "Cache"):
        flat = {}
        parts = {}
        for tp in topologies:
            c = series_curve(rows, tp, series, staging)
            flat[tp] = (c[lo] >= c[hi] - 1e-9, max(c[n] for n in mid) / min(c[n] for n in mid) - 1 if mid else 0.0)
            parts[f"{tp} {lo}→{hi}"] = direction(
                1, _diff(_point(rows, tp, series, lo, staging), _point(rows, tp, series, hi, staging))
            )
            if len(mid) >= 2:
                parts[f"{tp} from 16 up"] = no_effect(
                    _diff(
                        _point(rows, tp, series, mid[-1], staging),
                        _point(rows, tp, series, mid[0], staging),
                        100 / c[mid[0]],
                    ),
                    5.0,
                )
        out.append(
            Verdict(
                f"fig9.stabilises-{series.lower()}-{staging}",
                f"Fig. 9a: {series} improves with more servers, then stabilises around 8-16 (staging {staging})",
                "lower with more servers; barely any benefit beyond 8-16 (read as within ±5 % from 16 up)",
                ", ".join(
                    f"{tp}: {lo}->{hi} {'faster' if b else 'not faster'}, spread from 16 up {100 * s:.1f} %"
                    for tp, (b, s) in flat.items()
                ),
                all_of(parts),
            )
        )
    return out
