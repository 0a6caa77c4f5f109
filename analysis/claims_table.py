"""The claims table every artifact's report ends with: one row per claim (the scoreboard parses
it back), the verdict from :mod:`datasched.analysis.verdicts`, and the paragraph stating the
rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from datasched.analysis.verdicts import Judgement


@dataclass(frozen=True)
class Verdict:
    """One of the paper's stated results beside ours; ``judgement`` comes from
    :mod:`datasched.analysis.verdicts` (the one set of rules every artifact uses) and ``key``
    is the claim's id in the seed's claims file (``paper-artifacts/claims/``), which the
    scoreboard reads back from the report's table."""

    key: str
    claim: str
    paper: str
    ours: str
    judgement: Judgement


def claims_table(verdicts: Sequence[Verdict]) -> list[str]:
    """The report's Markdown table of claims (the scoreboard parses it: keep one row per claim)."""
    return [
        "| key | claim | paper | ours | verdict | why |",
        "|---|---|---|---|---|---|",
        *(f"| {v.key} | {v.claim} | {v.paper} | {v.ours} | {v.judgement.word} | {v.judgement.why} |" for v in verdicts),
    ]


def verdict_rules() -> list[str]:
    """The report's paragraph on the verdict words (one text for every artifact)."""
    return [
        "Verdicts follow one set of rules for every artifact (`analysis/verdicts.py`): *reproduced* = same sign",
        "as the paper, magnitude within 0.5×–2× of the paper's and the 95 % interval over seeds excluding 0 (a",
        "claim the paper states as a direction only: same sign, interval excluding 0); *in direction* = same sign",
        "and interval excluding 0, another magnitude; *not reproduced* = opposite sign, interval excluding 0, or",
        "an interval including 0 that ends below 0.5× the paper's effect (the paper's effect is excluded);",
        "*inconclusive* = the interval includes 0 and reaches 0.5× the paper's effect; *consistent for some",
        "parameter* = holds at some swept value of a parameter the paper does not give, while no single parameter",
        "set satisfies every claim of the figure; *by construction* = follows from an input definition; *missing*",
        "= not produced.",
    ]
