"""One set of rules that turns "the paper says X, we get Y" into a word a reviewer can trust.

Every artifact's report used to write its own rule, and several were generous (a gain of
1 % called "partly" against the paper's 20 %, an ordering "reproduced" with intervals that
include zero, a paper value "reproduced" because it fell anywhere inside a 105-point sweep).
The words and their rules live here, once, and the reports print the rule beside the word.

The words (:class:`Word`):

* **reproduced** — a *difference* claim: our mean has the paper's sign, its magnitude is
  within ``1/factor`` to ``factor`` times the paper's (default 0.5× to 2×), and our 95 %
  interval over seeds excludes zero. A *direction-only* claim (the paper states a sign and no
  number): same sign, interval excludes zero. A *no-effect* claim ("no great impact"): the
  whole interval lies within the stated tolerance.
* **in direction** — same sign, interval excludes zero, magnitude outside the factor.
* **not reproduced** — opposite sign with an interval excluding zero; or, for a difference
  claim, an interval that includes zero but ends below ``1/factor`` times the paper's effect
  (no effect shown, and the paper's effect excluded: +0.02 % [−0.03, +0.07] against 17 %)
  (no-effect claim: the interval lies wholly outside the tolerance).
* **inconclusive** — the interval includes zero and reaches ``1/factor`` of the paper's effect
  (no-effect claim: it straddles the tolerance).
* **consistent for some parameter** — a claim judged over a parameter sweep (a parameter the
  paper does not give) that holds at some swept parameter set, or whose paper value lies inside
  the swept range, while no single set satisfies every claim of the figure together. Weaker than
  *reproduced*, never counted as it; the judgement names the parameter set.
* **by construction** — the outcome follows from an input definition (named), so agreement is
  bookkeeping, not a reproduction.
* **missing** — the figure or claim is not produced (reason named).

A NaN, an interval that does not contain its mean, or a parameter set without a value for
one of the claims is an error (:class:`VerdictError`): a hole in the data must stop the
report, never silently drop a row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from datasched.analysis.stats import mean_ci95

#: Default bound on |ours / paper| for *reproduced*: between 1/2 and 2 times the paper's effect.
DEFAULT_FACTOR = 2.0


class VerdictError(ValueError):
    """A verdict was asked of data that cannot support one (NaN, missing case, bad interval)."""


class Word(str, Enum):
    REPRODUCED = "reproduced"
    IN_DIRECTION = "in direction"
    NOT_REPRODUCED = "not reproduced"
    INCONCLUSIVE = "inconclusive"
    CONSISTENT_FOR_SOME = "consistent for some parameter"
    BY_CONSTRUCTION = "by construction"
    MISSING = "missing"

    def __str__(self) -> str:
        return self.value


#: The order words are listed in counts and tables.
WORDS: tuple[Word, ...] = tuple(Word)


@dataclass(frozen=True)
class Estimate:
    """Our value of a claim: mean and 95 % interval over ``n`` seeds.

    ``exact`` is for a value that has no spread by nature (a deterministic model evaluated at
    the paper's one configuration); it must say why, so that a single seed is never passed off
    as an interval.
    """

    mean: float
    low: float
    high: float
    n: int
    exact: str = ""

    def __post_init__(self) -> None:
        for name in ("mean", "low", "high"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or math.isnan(value):
                raise VerdictError(f"estimate {name} is {value!r}: a missing or NaN value cannot be judged")
        if not self.low <= self.mean <= self.high:
            raise VerdictError(f"interval [{self.low}, {self.high}] does not contain its mean {self.mean}")
        if self.n < 1:
            raise VerdictError("an estimate needs at least one run")

    @classmethod
    def over_seeds(cls, values: Sequence[float]) -> Estimate:
        """Mean and 95 % t interval of per-seed values (NaN is an error, not a skipped seed)."""
        values = [float(v) for v in values]
        if not values:
            raise VerdictError("no per-seed values: the case is missing")
        if any(math.isnan(v) for v in values):
            raise VerdictError(f"NaN among the per-seed values {values}")
        ci = mean_ci95(values)
        return cls(ci.mean, ci.low, ci.high, ci.n)

    @classmethod
    def deterministic(cls, value: float, why: str) -> Estimate:
        """A value with no spread by nature; ``why`` is printed with the verdict."""
        if not why.strip():
            raise VerdictError("a deterministic estimate must say why it has no spread")
        return cls(float(value), float(value), float(value), 1, why)

    @property
    def excludes_zero(self) -> bool:
        if self.n < 2 and not self.exact:
            return False  # one seed of a random case: no interval known, so zero is not excluded
        return self.low > 0 or self.high < 0

    def text(self, fmt: str = "{:+.3g}", unit: str = "") -> str:
        if self.n < 2:
            return fmt.format(self.mean) + unit + (" (deterministic)" if self.exact else " (one seed)")
        return f"{fmt.format(self.mean)}{unit} [{fmt.format(self.low)}, {fmt.format(self.high)}], n = {self.n}"


@dataclass(frozen=True)
class Judgement:
    """A word with the reason a reader needs to check it (the rule applied, the parameter
    set named for sweeps, the input definition for *by construction*)."""

    word: Word
    why: str

    def __str__(self) -> str:
        return f"{self.word} ({self.why})" if self.why else str(self.word)


def _check_paper(paper: float) -> float:
    if not isinstance(paper, (int, float)) or math.isnan(paper):
        raise VerdictError(f"paper value {paper!r} cannot be judged")
    return float(paper)


def difference(paper: float, ours: Estimate, factor: float = DEFAULT_FACTOR) -> Judgement:
    """A claim that a difference (gain, slowdown, ...) has the paper's value ``paper``."""
    paper = _check_paper(paper)
    if paper == 0:
        raise VerdictError("a difference claim of 0 is a no-effect claim: use no_effect() with a tolerance")
    if factor <= 1:
        raise VerdictError(f"factor {factor} must exceed 1")
    if ours.exact and ours.mean == 0:
        return Judgement(Word.NOT_REPRODUCED, "exactly 0 in a deterministic value: no effect")
    if not ours.excludes_zero:
        if _bounded_below(paper, ours, factor):
            edge = ours.high if paper > 0 else ours.low
            return Judgement(
                Word.NOT_REPRODUCED,
                f"the 95 % interval includes 0 and ends at {edge:+.3g}, below {1 / factor:g}× the paper's "
                f"{paper:+.3g}: its effect is excluded",
            )
        return Judgement(Word.INCONCLUSIVE, _no_interval(ours))
    if (ours.mean > 0) != (paper > 0):
        return Judgement(Word.NOT_REPRODUCED, "opposite sign, interval excludes 0")
    ratio = ours.mean / paper
    if 1 / factor <= ratio <= factor:
        return Judgement(Word.REPRODUCED, f"{ratio:.2g}× the paper's, interval excludes 0")
    return Judgement(Word.IN_DIRECTION, f"{ratio:.2g}× the paper's, outside {1 / factor:g}–{factor:g}×")


def direction(sign: int, ours: Estimate) -> Judgement:
    """A claim the paper states as a sign only (``sign`` = +1 or −1: "A is slower than B")."""
    if sign not in (1, -1):
        raise VerdictError(f"sign must be +1 or -1, not {sign!r}")
    if ours.exact and ours.mean == 0:
        return Judgement(Word.NOT_REPRODUCED, "exactly 0 in a deterministic value: no effect")
    if not ours.excludes_zero:
        return Judgement(Word.INCONCLUSIVE, _no_interval(ours))
    if (ours.mean > 0) == (sign > 0):
        return Judgement(Word.REPRODUCED, "the paper states a direction only; same sign, interval excludes 0")
    return Judgement(Word.NOT_REPRODUCED, "opposite sign, interval excludes 0")


def no_effect(ours: Estimate, tolerance: float) -> Judgement:
    """A claim that something has no (or little) effect, read as |effect| <= ``tolerance``."""
    tolerance = _check_paper(tolerance)
    if tolerance <= 0:
        raise VerdictError("a no-effect claim needs a positive tolerance")
    if ours.n < 2 and not ours.exact:
        return Judgement(Word.INCONCLUSIVE, "one seed, no interval")
    if -tolerance <= ours.low and ours.high <= tolerance:
        return Judgement(Word.REPRODUCED, f"interval within ±{tolerance:g}")
    if ours.low > tolerance or ours.high < -tolerance:
        return Judgement(Word.NOT_REPRODUCED, f"interval wholly outside ±{tolerance:g}")
    return Judgement(Word.INCONCLUSIVE, f"interval straddles ±{tolerance:g}")


def at_most(ours: Estimate, bound: float) -> Judgement:
    """A one-sided claim "does not exceed ``bound``" ("HBRR does not outperform FIFO", read as
    a gain of at most ``bound``): the whole interval at or below it, wholly above it, or across."""
    bound = _check_paper(bound)
    if ours.n < 2 and not ours.exact:
        return Judgement(Word.INCONCLUSIVE, "one seed, no interval")
    if ours.high <= bound:
        return Judgement(Word.REPRODUCED, f"interval at or below {bound:g}")
    if ours.low > bound:
        return Judgement(Word.NOT_REPRODUCED, f"interval wholly above {bound:g}")
    return Judgement(Word.INCONCLUSIVE, f"interval straddles {bound:g}")


def _bounded_below(paper: float, ours: Estimate, factor: float) -> bool:
    """Our interval (a real one: several seeds, or a deterministic value) lies wholly on the
    near side of ``paper / factor``: even its end towards the paper is smaller than the
    smallest effect that would count as reproduced, so the paper's effect is excluded."""
    if ours.n < 2 and not ours.exact:
        return False
    return ours.high < paper / factor if paper > 0 else ours.low > paper / factor


def _no_interval(ours: Estimate) -> str:
    return "the 95 % interval includes 0" if ours.n > 1 else "one seed, no interval"


def by_construction(input_definition: str) -> Judgement:
    """The outcome follows from ``input_definition``; never counted as reproduced."""
    if not input_definition.strip():
        raise VerdictError("by construction must name the input definition that makes it so")
    return Judgement(Word.BY_CONSTRUCTION, input_definition)


def missing(reason: str) -> Judgement:
    if not reason.strip():
        raise VerdictError("a missing claim must say why it is missing")
    return Judgement(Word.MISSING, reason)


def all_of(parts: Mapping[str, Judgement]) -> Judgement:
    """A claim made of several parts (an ordering on every topology): the weakest part decides.
    Order of weakness: missing, not reproduced, inconclusive, in direction, reproduced."""
    if not parts:
        raise VerdictError("a claim with no parts")
    rank = [Word.MISSING, Word.NOT_REPRODUCED, Word.INCONCLUSIVE, Word.IN_DIRECTION, Word.REPRODUCED]
    for word in rank:
        names = [name for name, j in parts.items() if j.word is word]
        if names:
            if word is Word.REPRODUCED:
                return Judgement(word, f"all {len(parts)} parts" if len(parts) > 1 else parts_why(parts))
            return Judgement(word, f"{word} for {_name_sets(names, 4)} (of {len(parts)} parts)")
    other = sorted({str(j.word) for j in parts.values()})
    raise VerdictError(f"parts with words {other} cannot be combined")


def parts_why(parts: Mapping[str, Judgement]) -> str:
    (name, judgement) = next(iter(parts.items()))
    return f"{name}: {judgement.why}"


@dataclass(frozen=True)
class SweepClaim:
    """One claim of a figure judged over a sweep: how to judge it at one parameter set."""

    name: str
    paper: float
    kind: str = "difference"  # difference | direction | no_effect | at_most
    factor: float = DEFAULT_FACTOR
    tolerance: float = 0.0

    def judge(self, ours: Estimate) -> Judgement:
        if self.kind == "difference":
            return difference(self.paper, ours, self.factor)
        if self.kind == "direction":
            return direction(1 if self.paper > 0 else -1, ours)
        if self.kind == "no_effect":
            return no_effect(ours, self.tolerance)
        if self.kind == "at_most":
            return at_most(ours, self.tolerance)
        raise VerdictError(f"unknown claim kind {self.kind!r}")


def sweep(claims: Sequence[SweepClaim], ours: Mapping[str, Mapping[str, Estimate]]) -> dict[str, Judgement]:
    """Judge every claim of one figure over a sweep of parameter sets (``ours[set][claim]``).

    *reproduced* needs ONE parameter set at which every claim of the figure is reproduced
    together (the first such set, in the sweep's order, is named). Otherwise a claim reproduced
    at some set, or whose paper value lies between our lowest and highest means over the sweep,
    is *consistent for some parameter* (the set, or the two sets bracketing the value, named).
    Any other claim takes the word it gets at the set whose mean is nearest the paper's value.
    """
    if not claims or not ours:
        raise VerdictError("a sweep needs claims and parameter sets")
    names = [c.name for c in claims]
    for pset, values in ours.items():
        absent = [n for n in names if n not in values]
        if absent:
            raise VerdictError(f"parameter set {pset!r} has no value for {absent}")
    judged = {pset: {c.name: c.judge(values[c.name]) for c in claims} for pset, values in ours.items()}
    for pset, per_claim in judged.items():
        if all(j.word is Word.REPRODUCED for j in per_claim.values()):
            return {
                c.name: Judgement(Word.REPRODUCED, f"every claim of the figure at {pset}; {per_claim[c.name].why}")
                for c in claims
            }
    out: dict[str, Judgement] = {}
    for c in claims:
        at = [pset for pset in ours if judged[pset][c.name].word is Word.REPRODUCED]
        if at:
            out[c.name] = Judgement(
                Word.CONSISTENT_FOR_SOME, f"reproduced at {_name_sets(at)}; no set satisfies every claim together"
            )
            continue
        means = {pset: values[c.name].mean for pset, values in ours.items()}
        below = [p for p, m in means.items() if m <= c.paper]
        above = [p for p, m in means.items() if m >= c.paper]
        if c.kind == "difference" and below and above:
            lo = max(below, key=lambda p: means[p])
            hi = min(above, key=lambda p: means[p])
            out[c.name] = Judgement(
                Word.CONSISTENT_FOR_SOME, f"the paper's value lies between ours at {lo} and at {hi}, reproduced at none"
            )
            continue
        nearest = min(ours, key=lambda p: abs(means[p] - c.paper))
        out[c.name] = Judgement(
            judged[nearest][c.name].word, f"at {nearest}, the nearest: {judged[nearest][c.name].why}"
        )
    return out


def _name_sets(sets: Sequence[str], limit: int = 3) -> str:
    shown = ", ".join(sets[:limit])
    return shown + (f" and {len(sets) - limit} more" if len(sets) > limit else "")


def count(words: Iterable[Word]) -> dict[Word, int]:
    """How many claims got each word (every word listed, zeros included)."""
    out = dict.fromkeys(WORDS, 0)
    for word in words:
        out[Word(word)] += 1
    return out
