"""The verdict rules, as a table of (paper value, ours, interval) -> word, each case stated.

Each row names the rule it pins down, so a change to a rule breaks the row that says so."""

from __future__ import annotations

import math

import pytest

from datasched.analysis.verdicts import (
    Estimate,
    SweepClaim,
    VerdictError,
    Word,
    all_of,
    at_most,
    by_construction,
    count,
    difference,
    direction,
    missing,
    no_effect,
    sweep,
)

R, D, N, INC = Word.REPRODUCED, Word.IN_DIRECTION, Word.NOT_REPRODUCED, Word.INCONCLUSIVE

# (why, paper, mean, low, high, n, expected)
DIFFERENCE_CASES = [
    ("same sign, 1x, interval excludes 0", 20.0, 20.0, 15.0, 25.0, 5, R),
    ("same sign, exactly 0.5x is inside the factor", 20.0, 10.0, 5.0, 15.0, 5, R),
    ("same sign, exactly 2x is inside the factor", 20.0, 40.0, 30.0, 50.0, 5, R),
    ("same sign, 0.3x of the paper's: in direction only", 20.0, 6.0, 4.0, 8.0, 5, D),
    ("same sign, 3x of the paper's: in direction only", 20.0, 60.0, 50.0, 70.0, 5, D),
    ("negative paper value, ours negative and near: reproduced", -700.0, -650.0, -700.0, -600.0, 3, R),
    ("opposite sign, interval excludes 0: not reproduced", 20.0, -5.0, -8.0, -2.0, 5, N),
    ("interval includes 0 even with a close mean: inconclusive", 35.6, 35.6, -0.1, 71.3, 8, INC),
    ("the interval touching 0 includes it: inconclusive", 20.0, 20.0, 0.0, 40.0, 8, INC),
    (
        "opposite sign, interval includes 0 and ends far below the paper's: its effect excluded",
        20.0,
        -1.0,
        -3.0,
        1.0,
        5,
        N,
    ),
    ("interval includes 0 and ends below 0.5x the paper's (Fig. 10): not reproduced", 17.0, 0.02, -0.03, 0.07, 5, N),
    ("negative paper value, interval includes 0, ends above 0.5x it: not reproduced", -700.0, -10.0, -30.0, 20.0, 3, N),
    ("interval includes 0 and reaches exactly 0.5x the paper's: inconclusive", 20.0, 2.0, -3.0, 10.0, 5, INC),
    ("interval includes 0 and reaches past 0.5x on the negative side: inconclusive", -20.0, -2.0, -12.0, 3.0, 5, INC),
]


@pytest.mark.parametrize(("why", "paper", "mean", "low", "high", "n", "expected"), DIFFERENCE_CASES)
def test_difference_table(why, paper, mean, low, high, n, expected):
    assert difference(paper, Estimate(mean, low, high, n)).word is expected, why


def test_one_seed_of_a_random_case_is_inconclusive():
    """One seed gives no interval: zero is not excluded, whatever the mean."""
    assert difference(20.0, Estimate(20.0, 20.0, 20.0, 1)).word is INC


def test_deterministic_value_is_judged_without_spread_and_says_why():
    est = Estimate.deterministic(19.0, "the model has no random input at this configuration")
    assert difference(20.0, est).word is R
    assert "deterministic" in est.text()
    with pytest.raises(VerdictError):
        Estimate.deterministic(1.0, " ")


def test_a_deterministic_zero_contradicts_a_claimed_effect():
    zero = Estimate.deterministic(0.0, "deterministic model")
    assert difference(20.0, zero).word is N
    assert direction(1, zero).word is N


def test_factor_is_a_parameter():
    est = Estimate(14.0, 12.0, 16.0, 5)  # 0.7x of 20
    assert difference(20.0, est).word is R
    assert difference(20.0, est, factor=1.25).word is D


@pytest.mark.parametrize(
    "make",
    [
        lambda: difference(math.nan, Estimate(1.0, 0.5, 1.5, 3)),
        lambda: Estimate(math.nan, 0.0, 1.0, 3),
        lambda: Estimate(1.0, math.nan, 2.0, 3),
        lambda: Estimate.over_seeds([1.0, math.nan, 2.0]),
        lambda: Estimate.over_seeds([]),
        lambda: Estimate(5.0, 0.0, 1.0, 3),  # interval without its mean
        lambda: difference(0.0, Estimate(1.0, 0.5, 1.5, 3)),  # a 0 claim is a no-effect claim
    ],
    ids=["nan-paper", "nan-mean", "nan-low", "nan-seed", "no-seed", "bad-interval", "zero-paper"],
)
def test_nan_or_missing_is_an_error_never_a_dropped_row(make):
    with pytest.raises(VerdictError):
        make()


def test_over_seeds_uses_the_t_interval():
    est = Estimate.over_seeds([10.0, 12.0, 14.0])
    assert est.mean == pytest.approx(12.0)
    assert est.low == pytest.approx(12.0 - 4.303 * 2 / math.sqrt(3), rel=1e-4)
    assert est.n == 3


# (why, sign, mean, low, high, expected)
DIRECTION_CASES = [
    ("same sign, interval excludes 0", 1, 5.0, 1.0, 9.0, R),
    ("opposite sign, interval excludes 0", 1, -5.0, -9.0, -1.0, N),
    ("interval includes 0", -1, -5.0, -9.0, 1.0, INC),
]


@pytest.mark.parametrize(("why", "sign", "mean", "low", "high", "expected"), DIRECTION_CASES)
def test_direction_table(why, sign, mean, low, high, expected):
    assert direction(sign, Estimate(mean, low, high, 3)).word is expected, why


# (why, mean, low, high, tolerance, expected)
NO_EFFECT_CASES = [
    ("whole interval inside the tolerance", 0.5, -1.0, 2.0, 5.0, R),
    ("interval wholly beyond the tolerance", 8.0, 6.0, 10.0, 5.0, N),
    ("interval straddles the tolerance", 4.0, 2.0, 6.0, 5.0, INC),
]


@pytest.mark.parametrize(("why", "mean", "low", "high", "tolerance", "expected"), NO_EFFECT_CASES)
def test_no_effect_table(why, mean, low, high, tolerance, expected):
    assert no_effect(Estimate(mean, low, high, 3), tolerance).word is expected, why


def test_no_effect_on_one_seed_is_inconclusive():
    assert no_effect(Estimate(0.1, 0.1, 0.1, 1), 5.0).word is INC


@pytest.mark.parametrize(
    ("why", "mean", "low", "high", "expected"),
    [
        ("HBRR 2 % faster at most: within a 5 % bound", 2.0, -1.0, 4.0, R),
        ("HBRR 10 % faster beyond doubt: not reproduced", 10.0, 8.0, 12.0, N),
        ("interval across the bound", 5.0, 3.0, 7.0, INC),
    ],
)
def test_at_most_table(why, mean, low, high, expected):
    assert at_most(Estimate(mean, low, high, 8), 5.0).word is expected, why


def test_by_construction_and_missing_need_their_reason_and_are_never_reproduced():
    j = by_construction("Table 4's sizes are defined as its seconds x 1 GB/s")
    assert j.word is Word.BY_CONSTRUCTION and "Table 4" in str(j)
    assert missing("traffic-priority runs not yet produced").word is Word.MISSING
    for make in (lambda: by_construction(""), lambda: missing("  ")):
        with pytest.raises(VerdictError):
            make()
    assert count([j.word])[Word.REPRODUCED] == 0


def test_all_of_takes_the_weakest_part():
    good = difference(10.0, Estimate(10.0, 8.0, 12.0, 3))
    weak = difference(10.0, Estimate(10.0, -1.0, 21.0, 3))
    assert all_of({"dragonfly": good, "torus": good}).word is R
    combined = all_of({"dragonfly": good, "torus": weak})
    assert combined.word is INC and "torus" in combined.why


CLAIMS = [SweepClaim("a", 10.0), SweepClaim("b", -5.0)]


def _est(mean):
    return Estimate(mean, mean - 0.5, mean + 0.5, 3)


def test_sweep_reproduced_only_when_one_set_satisfies_every_claim():
    """Claim a holds at p1 only and claim b at p2 only: neither is *reproduced*."""
    ours = {"p1": {"a": _est(10.0), "b": _est(-50.0)}, "p2": {"a": _est(50.0), "b": _est(-5.0)}}
    out = sweep(CLAIMS, ours)
    assert out["a"].word is Word.CONSISTENT_FOR_SOME and "p1" in out["a"].why
    assert out["b"].word is Word.CONSISTENT_FOR_SOME and "p2" in out["b"].why


def test_sweep_one_joint_set_reproduces_and_is_named():
    ours = {"p1": {"a": _est(50.0), "b": _est(-50.0)}, "p2": {"a": _est(9.0), "b": _est(-6.0)}}
    out = sweep(CLAIMS, ours)
    assert all(j.word is R for j in out.values())
    assert all("p2" in j.why for j in out.values())


def test_sweep_containment_alone_is_only_consistent():
    """The paper's 10 lies between our 2 and 30, neither within 0.5x-2x: containment is the weaker word."""
    ours = {"p1": {"a": _est(2.0), "b": _est(-5.0)}, "p2": {"a": _est(30.0), "b": _est(-5.0)}}
    out = sweep(CLAIMS, ours)
    assert out["a"].word is Word.CONSISTENT_FOR_SOME
    assert "p1" in out["a"].why and "p2" in out["a"].why


def test_sweep_outside_the_range_takes_the_nearest_sets_word():
    ours = {"p1": {"a": _est(-3.0), "b": _est(-5.0)}, "p2": {"a": _est(-1.0), "b": _est(-5.0)}}
    out = sweep(CLAIMS, ours)
    assert out["a"].word is N and "p2" in out["a"].why


def test_sweep_missing_case_is_an_error():
    with pytest.raises(VerdictError):
        sweep(CLAIMS, {"p1": {"a": _est(10.0)}})


def test_count_lists_every_word():
    counted = count([R, R, Word.MISSING])
    assert counted[R] == 2 and counted[Word.MISSING] == 1 and counted[INC] == 0
    assert len(counted) == len(Word)
