"""The quick variant samples the full one honestly: a swept dimension reduced to one value
needs a written reason (config/quick-reductions.yaml)."""

from __future__ import annotations

from pathlib import Path

from datasched.analysis.quick_sampling import load, single_value_reductions

CONFIG = Path(__file__).resolve().parents[3] / "config"


def test_every_single_value_reduction_has_a_written_reason():
    reductions = single_value_reductions(load(CONFIG / "quick.yaml"), load(CONFIG / "full.yaml"))
    reasons = load(CONFIG / "quick-reductions.yaml")
    unexplained = {k: v for k, v in reductions.items() if not str(reasons.get(k, "")).strip()}
    assert not unexplained, f"quick keeps one value of a swept dimension without a reason: {unexplained}"
    stale = sorted(set(reasons) - set(reductions))
    assert not stale, f"config/quick-reductions.yaml explains dimensions that are not reduced: {stale}"


def test_seed002_quick_with_one_hdd_alpha_is_caught():
    """The quick config as it was (α = 0.1 only, full's most favourable value) fails the check."""
    quick = load(CONFIG / "quick.yaml")
    quick["artifacts"]["seed002_twins"]["hdd_alpha"] = [0.1]
    reductions = single_value_reductions(quick, load(CONFIG / "full.yaml"))
    reasons = load(CONFIG / "quick-reductions.yaml")
    assert "seed002_twins.hdd_alpha" in reductions and "seed002_twins.hdd_alpha" not in reasons


def test_nested_and_absent_dimensions_count():
    full = {"artifacts": {"a": {"x": [1, 2], "sub": {"y": ["p", "q"]}, "z": [1, 2], "one": [1]}}}
    quick = {"artifacts": {"a": {"x": [1], "sub": {"y": ["p", "q"]}, "one": [1]}}}
    assert single_value_reductions(quick, full) == {"a.x": [1, 2], "a.z": [1, 2]}
