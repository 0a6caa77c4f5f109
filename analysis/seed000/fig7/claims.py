"""Figure 7 step 4, the claims: the paper's sentences judged on the ``per_task`` models by the
shared rules of ``analysis/verdicts.py``; ``none`` models are by construction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import Verdict
from datasched.analysis.path_values import number
from datasched.analysis.seed000.fig7.spec import PANEL_A_REMOTE, judged_io_models
from datasched.analysis.seed000.fig7.table import vs_np_at
from datasched.analysis.verdicts import Estimate, all_of, by_construction, difference, direction, missing, no_effect

#: Why Figure 7's values carry no interval (as Figure 6's).
ONE_APPLICATION = "one application as in the paper's Fig. 7; the engine is deterministic for it"


#: The reason every policy gives NP's run time for one application in our model.
NO_OVERLAP = (
    "bulk-synchronous phases: one application's IPC (communicate phases) and storage traffic (read/write "
    "phases) never share a link at the same moment, so no traffic policy can act"
)


def _gain(vs_np: float) -> Estimate:
    """How much faster than NP, in %, as a deterministic value."""
    return Estimate.deterministic(100 * (1 - vs_np), ONE_APPLICATION)


def verdicts(rows: Sequence[Mapping[str, Any]]) -> list[Verdict]:
    """Figure 7's three sentences judged by :mod:`datasched.analysis.verdicts` on the I/O
    models with distribution (:func:`judged_io_models`), in every sharing unit run (the
    weakest part decides)."""
    ios = judged_io_models(list(dict.fromkeys(r["io"] for r in rows)))
    rows = [r for r in rows if r["io"] in ios]
    units = list(dict.fromkeys((r["io"], r["sharing"]) for r in rows))
    sharings = list(dict.fromkeys(r["sharing"] for r in rows))
    storages = sorted({r["storage"] for r in rows}, key=lambda s: int(s.removeprefix("stg-")))
    levels = sorted({float(r["policy"].removeprefix("ba:")) for r in rows if r["policy"].startswith("ba:")})
    remotes = sorted({r["remote_pct"] for r in rows if r["policy"] == "fp"})
    out: list[Verdict] = []

    top = levels[-1] if levels else None
    zoomed = [s for s in ("stg-4", "stg-64") if s in storages] or storages
    parts = {}
    for io, sharing in units:
        for s in zoomed:
            v = vs_np_at(rows, io, s, PANEL_A_REMOTE, f"ba:{number(top)}", sharing) if top is not None else None
            if v is not None:
                parts[f"{s} {sharing}"] = (v, direction(1, _gain(v)))
    spread = [float(r["vs_np"]) for r in rows if r["policy"].startswith("ba:") and r["remote_pct"] == PANEL_A_REMOTE]
    out.append(
        Verdict(
            "fig7.ba-slight-gain",
            f"Fig. 7a: more bandwidth to IPC under BA (here {top:g} %) slightly improves the run time with heavy "
            "storage traffic (STG-4, STG-64)"
            if top is not None
            else "Fig. 7a: BA",
            "slightly faster than NP (no number; 'look at the zoomed results for STG-4 and STG-64')",
            f"BA {top:g} %/NP: "
            + ", ".join(f"{k} {v:.4f}" for k, (v, _) in parts.items())
            + f"; every BA level and STG-k from {min(spread):.4f} to {max(spread):.4f} "
            f"({', '.join(ios)}; {', '.join(sharings)} sharing)"
            if spread
            else "no BA run",
            all_of({k: j for k, (_, j) in parts.items()}) if parts else missing("no BA run at 50 % remote"),
        )
    )

    heavy = [s for s in ("stg-16", "stg-32", "stg-64") if s in storages] or storages
    best: dict[str, float] = {}
    for io, sharing in units:
        for s in heavy:
            values = [v for r in remotes if r > 0 and (v := vs_np_at(rows, io, s, r, "fp", sharing)) is not None]
            if values:
                best[f"{s} {sharing}"] = min(values)
    out.append(
        Verdict(
            "fig7.fp-gain",
            "Fig. 7b: FP decreases the run time by more than 10 % with enough storage traffic (STG-16/32/64)",
            "more than 10 % faster than NP (read as 10 %)",
            "largest FP gain over remote > 0: " + ", ".join(f"{k} {100 * (1 - v):+.2f} %" for k, v in best.items())
            if best
            else "no FP run",
            all_of({k: difference(10.0, _gain(v)) for k, v in best.items()}) if best else missing("no FP run"),
        )
    )

    local = [v for io, sharing in units if (v := vs_np_at(rows, io, "stg-64", 0.0, "fp", sharing)) is not None]
    out.append(
        Verdict(
            "fig7.fp-no-gain-local",
            "Fig. 7b: STG-64 with 0 % remote accesses is not improved by FP (all storage traffic is local)",
            "no improvement",
            f"FP/NP = {', '.join(f'{v:.6f}' for v in local)}" if local else "STG-64 at 0 % remote not run",
            (
                by_construction(NO_OVERLAP + " (here, and at every other point)")
                if all(float(r["vs_np"]) == 1.0 for r in rows)
                else all_of({f"#{i}": no_effect(_gain(v), 1.0) for i, v in enumerate(local)})
            )
            if local
            else missing("STG-64 at 0 % remote not in this variant"),
        )
    )
    return out
