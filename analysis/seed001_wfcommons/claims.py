"""Seed 001 on WfCommons shapes step 4, the claim: each data-aware variant's T_all on node SCM
against data-unaware on node SCM and on the SAN platform (the paper's Table 4 kind of claim,
judged in the report by the shared rules of ``analysis/verdicts.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.seed001_wfcommons.table import find_group


def claim_rows(summary: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every other variant on node SCM (data-aware, with or without movers) against
    data-unaware on node SCM and on the SAN platform: the relative change of T_all per
    (app, style, size scale), where the runs exist."""
    out = []
    for r in summary:
        if r["platform"] != "scm" or r["variant"] == "unaware":
            continue
        key = {k: r[k] for k in ("app", "style", "size_scale")} | {"variant": r["variant"]}
        for base_platform in ("scm", "san"):
            base = find_group(summary, platform=base_platform, variant="unaware",
                         **{k: key[k] for k in ("app", "style", "size_scale")})  # fmt: skip
            if base is None:
                continue
            change = (r["makespan"] - base["makespan"]) / base["makespan"]
            out.append(key | {"baseline": f"{base_platform}/unaware", "aware": r["makespan"],
                              "unaware": base["makespan"], "change": change})  # fmt: skip
    return out
