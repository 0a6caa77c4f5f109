"""Seed 004 artifact inputs (analysis/seed004/): the paper's layouts and
HPL sizes, the sweep's runs, and the reading of slowdown curves against the paper's bands."""

from __future__ import annotations

import math

import pytest

from datasched.analysis.seed004 import runs, spec, table

SPEC = spec.parse_spec(
    {
        "sizes": [16, 64],
        "ior_sizes": [16],
        "configurations": ["hpl-only", "single", "matching", "matching-nometa", "lustre"],
        "placements": ["all", "io_nodes"],
        "node_models": ["spread", "pinned"],
        "request_costs_us": [1, 10],
        "idle_fractions": [0.001],
        "idle_periods": [1.0, 10.0],
        "iterations": 5,
        "seeds": [1, 2],
    }
)


def test_layouts_follow_the_papers_figure_4():
    """Lowest node first: k spare, n HPL, m IOR nodes; no-meta has k = 1 beside the
    metadata server, single has m = 1, matching m = n."""
    nometa = runs.allocation("matching-nometa", 16, 0)
    assert nometa.spare == ("node-000",) and nometa.compute[0] == "node-001" and len(nometa.io) == 16
    single = runs.allocation("single", 16, 0)
    assert single.spare == () and len(single.compute) == 16 and single.io == ("node-016",)
    run = spec.Run(spec.Case(16, "spread", "matching-nometa"), "all", 1.0, 0.0, 1.0, 1)
    doc = runs.experiment(run, SPEC)
    assert doc["services"]["metadata"] == ["node-000"] and "node-000" not in doc["hpl"]["hosts"]
    lustre = runs.experiment(spec.Run(spec.Case(16, "spread", "lustre"), "external", 1.0, 0.0, 1.0, 1), SPEC)
    assert all(h.startswith("pfs-") for h in lustre["services"]["storage"])


def test_hpl_work_follows_table_ii():
    """Per node and iteration: 2/3 N^3 / n / ceil(N / 192) flops; the pinned model's node is
    one of the 56 cores (1/56 of it). 16 and 128 nodes take about the same time, as the
    paper designed."""
    job = runs.hpl_job(16, 5, 56)
    size = 229427
    assert job["flops_per_iteration"] == pytest.approx(2 / 3 * size**3 / 16 / math.ceil(size / 192))
    assert runs.hpl_job(16, 5, 1)["flops_per_iteration"] == pytest.approx(job["flops_per_iteration"] / 56)
    t16 = runs.hpl_job(16, 10**6, 56)
    t128 = runs.hpl_job(128, 10**6, 56)
    alone = [j["iterations"] * j["flops_per_iteration"] / (56 * spec.CORE_SPEED) for j in (t16, t128)]
    assert alone[1] == pytest.approx(alone[0], rel=0.01)


def test_runs_of_each_case():
    """IOR configurations: placements x costs (no-meta: the paper's placement only); HPL-only:
    no idle load once, each idle load x period per seed; Lustre: once. IOR only at ior_sizes."""
    runs = {c.path: len(c.runs(SPEC)) for c in SPEC.cases()}
    assert runs["model=spread/n=16/config=matching"] == 4
    assert runs["model=spread/n=16/config=matching-nometa"] == 2
    assert runs["model=spread/n=16/config=hpl-only"] == 1 + 2 * 2
    assert runs["model=spread/n=16/config=lustre"] == 1
    assert "model=spread/n=64/config=single" not in runs and "model=pinned/n=64/config=hpl-only" in runs
    assert spec.Case.from_path("model=pinned/n=64/config=hpl-only") == spec.Case(64, "pinned", "hpl-only")


def test_bad_specs_name_the_key():
    with pytest.raises(ValueError, match="sizes"):
        spec.parse_spec({**_raw(), "sizes": [17]})
    with pytest.raises(ValueError, match="node_models"):
        spec.parse_spec({**_raw(), "node_models": ["wide"]})
    with pytest.raises(ValueError, match="ior_sizes"):
        spec.parse_spec({**_raw(), "ior_sizes": [32]})


def _raw():
    return {
        "sizes": [16],
        "configurations": ["single"],
        "node_models": ["spread"],
        "request_costs_us": [1],
        "iterations": 1,
        "seeds": [1],
    }


def test_cost_interval_interpolates_in_log_cost():
    """Slowdowns 5 % at 1 µs and 77 % at 10 µs: the 7–13 % band starts where
    log c = log 1 + (7 − 5)/(77 − 5) · log 10, ends at (13 − 5)/72 of the way."""
    rows = [
        {
            "model": "m",
            "size": 16,
            "configuration": "single",
            "placement": "all",
            "request_cost_us": c,
            "slowdown_pct": s,
        }
        for c, s in ((1.0, 5.0), (10.0, 77.0))
    ]
    lo = 10 ** (2 / 72)
    hi = 10 ** (8 / 72)
    assert table.cost_interval(rows, "m", 16, "single", (7.0, 13.0)) == f"{lo:.3g}–{hi:.3g} µs"
    assert table.cost_interval(rows, "m", 16, "single", (100.0, 120.0)).startswith(
        "not reached (largest slowdown 77.0 %"
    )
