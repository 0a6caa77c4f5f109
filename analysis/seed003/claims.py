"""Seed 003 step 4, the claims: each of the paper's numbers judged over the sweep by the shared
rules of ``analysis/verdicts.py`` (reproduced only where one parameter set satisfies them all)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from datasched.analysis.claims_table import Verdict
from datasched.analysis.seed003.table import WEIGHT_PARTS, Effects
from datasched.analysis.verdicts import Estimate, SweepClaim, all_of, no_effect, sweep

#: Why seed 003's values carry no interval: every case is one run with no random input.
ONE_RUN = "one run; the benchmarks have no random input"


#: The paper's claims on Figs. 5-8 (key, what, paper's value as printed, value, unit).
CLAIMS = (
    ("qos.latency-sl0", "4 MB latency under I/O noise on SL0", "+400 µs", 400.0, " µs"),
    ("qos.latency-sl1", "4 MB latency with I/O on SL1 (isolated)", "+80 µs", 80.0, " µs"),
    ("qos.bandwidth-sl0", "4 MB bandwidth under I/O noise on SL0", "−700 MB/s", -700.0, " MB/s"),
    ("qos.bandwidth-recovered", "bandwidth recovered by SL1", "+674 MB/s", 674.0, " MB/s"),
    ("qos.alltoall-sl0", "1 MB MPI_Alltoall latency under I/O noise on SL0", "+250 µs", 250.0, " µs"),
    ("qos.alltoall-sl1", "1 MB MPI_Alltoall latency with I/O on SL1", "+15 µs", 15.0, " µs"),
    ("qos.awp-sl0", "AWP-ODC runtime, noise on SL0", "+17.9 %", 17.9, " %"),
    ("qos.awp-sl1", "AWP-ODC runtime, noise on SL1", "+8 %", 8.0, " %"),
    (
        "qos.cg-sl1-gain",
        "CG communication time, SL1 instead of SL0",
        "−23.46 points (+32.77 % → +9.31 %)",
        -23.46,
        " points",
    ),
)


def _values(e: Effects, awp: tuple[float, float, float, float]) -> dict[str, float]:
    return {
        "qos.latency-sl0": e.latency_sl0_us,
        "qos.latency-sl1": e.latency_sl1_us,
        "qos.bandwidth-sl0": e.bandwidth_sl0_mbs,
        "qos.bandwidth-recovered": e.bandwidth_recovered_mbs,
        "qos.alltoall-sl0": e.alltoall_sl0_us,
        "qos.alltoall-sl1": e.alltoall_sl1_us,
        "qos.awp-sl0": awp[2],
        "qos.awp-sl1": awp[3],
        "qos.cg-sl1-gain": e.cg_sl1_pct - e.cg_sl0_pct,
    }


def sweep_values(all_effects: Sequence[Effects]) -> dict[str, dict[str, float]]:
    """Parameter set (SSD bandwidth, granularity, stencil compute: none is the paper's) -> claim -> ours."""
    return {
        f"SSD {e.ssd / 1e9:g} GB/s, g {e.granularity / 1024:g} KiB, compute {awp[0] * 1000:g} ms": _values(e, awp)
        for e in all_effects
        for awp in e.awp
    }


def _range(values: Sequence[float], unit: str, fmt: str = "{:+.0f}") -> str:
    lo, hi = min(values), max(values)
    return fmt.format(lo) + unit if math.isclose(lo, hi, abs_tol=1e-9) else f"{fmt.format(lo)} … {fmt.format(hi)}{unit}"


def verdicts(all_effects: Sequence[Effects], spread: Mapping[str, float]) -> list[Verdict]:
    """Every claim over the sweep (analysis/verdicts.py): *reproduced* only at one parameter set
    that satisfies all of them together (Figs. 5, 6 and 10 together: one platform, one SSD and one
    arbitration granularity, serves every figure of the paper); the paper's value inside our range is
    *consistent for some parameter*, which names the set. A NaN (a case not simulated) is an error."""
    values = sweep_values(all_effects)
    ours = {p: {k: Estimate.deterministic(v, ONE_RUN) for k, v in vs.items()} for p, vs in values.items()}
    judged = sweep([SweepClaim(key, paper) for key, _, _, paper, _ in CLAIMS], ours)
    out = [
        Verdict(
            key,
            label,
            paper_text,
            _range([vs[key] for vs in values.values()], unit, "{:+.1f}" if unit in (" %", " points") else "{:+.0f}"),
            judged[key],
        )
        for key, label, paper_text, _, unit in CLAIMS
    ]
    out.append(
        Verdict(
            "qos.weights-no-difference",
            "I/O on SL1 … SL7 (weights 2 … 128): no difference in osu_latency, osu_bw, osu_bibw, "
            "MPI_Alltoall, MPI_Allreduce",
            "insignificant (read as < 1 µs and < 1 MB/s)",
            "spread " + ", ".join(f"{kind} {v:.2f}{WEIGHT_PARTS[kind][1]}" for kind, v in spread.items()),
            all_of({kind: no_effect(Estimate(v, 0.0, v, 1, ONE_RUN), 1.0) for kind, v in spread.items()}),
        )
    )
    return out
