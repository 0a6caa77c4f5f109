"""Seed 004 artifact inputs (analysis/seed004/): the paper's layouts and
HPL sizes, the sweep's runs, and the reading of slowdown curves against the paper's bands."""

from __future__ import annotations

import math

import pytest

from datasched.analysis.seed004 import claims, paper_figures, runs, spec, table

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


def _summary(model, size, configuration, placement, makespan, **extra):
    row = {
        "model": model,
        "size": size,
        "configuration": configuration,
        "placement": placement,
        "request_cost_us": 0.0,
        "idle_fraction": 0.0,
        "idle_period": 1.0,
        "makespan": makespan,
        "slowdown_pct": 0.0,
        "slowdown_min_pct": 0.0,
        "slowdown_max_pct": 0.0,
    }
    return row | extra


def test_fig5_times_are_whole_runs_over_what_is_swept():
    """Whole-run time = simulated makespan x ceil(N / 192) / k (n = 16: N = 229427, 1195
    iterations; k = 5 simulated): HPL alone 10 s -> 2390 s. Single's range is over its swept
    costs (placement all only: io_nodes is not the paper's layout); HPL-only's over its idle
    loads and none; Lustre is its one run."""
    factor = math.ceil(229427 / 192) / 5
    assert paper_figures.full_run_factor(16, 5) == pytest.approx(factor)
    rows = [
        _summary("spread", 16, "hpl-only", "all", 10.0),
        _summary("spread", 16, "hpl-only", "all", 10.5, idle_fraction=0.01),
        _summary("spread", 16, "single", "all", 11.0, request_cost_us=1.0),
        _summary("spread", 16, "single", "all", 13.0, request_cost_us=10.0),
        _summary("spread", 16, "single", "io_nodes", 99.0, request_cost_us=10.0),
        _summary("spread", 16, "lustre", "external", 10.0),
    ]
    times = paper_figures.fig5_times(rows, SPEC, "spread")
    single = times["single"][16]
    assert (single.low, single.high) == pytest.approx((11 * factor, 13 * factor))
    assert single.alone == pytest.approx(10 * factor)
    assert (times["hpl-only"][16].low, times["hpl-only"][16].high) == pytest.approx((10 * factor, 10.5 * factor))
    assert times["lustre"][16].values == pytest.approx((10 * factor,))
    assert "matching" not in times and 64 not in times["single"]


def test_fig6_bars_are_t_intervals_over_seeds():
    """Per seed, the slowdown against HPL alone of the same size and model: 100 (m / 10 - 1) for
    makespans 10.1, 10.2, 10.3 -> 1, 2, 3 %; mean 2 %, 95 % interval 2 ± t(0.975, 2) s / sqrt(3)
    with s = 1: ± 4.303 / sqrt(3). Another model's baseline is not used."""
    runs = [
        {"model": m, "size": "16", "configuration": "hpl-only", "idle_fraction": "0", "idle_period": "1",
         "makespan": base}
        for m, base in (("pinned", "10"), ("spread", "5"))
    ] + [
        {"model": "pinned", "size": "16", "configuration": "hpl-only", "idle_fraction": "0.01", "idle_period": "10",
         "makespan": m}
        for m in ("10.1", "10.2", "10.3")
    ]  # fmt: skip
    point = paper_figures.fig6_intervals(runs, "pinned")[(0.01, 10.0)][16]
    assert point.mean == pytest.approx(2.0)
    assert point.half_width == pytest.approx(4.303 / math.sqrt(3))
    assert paper_figures.fig6_intervals(runs, "spread") == {}


def test_report_section_states_the_interval_and_the_prolog():
    rows = [
        _summary(m, n, c, "external" if c == "lustre" else "all", 10.0)
        for m in ("spread", "pinned")
        for n in (16, 64)
        for c in ("hpl-only", "lustre")
    ]
    text = "\n".join(paper_figures.report_section(rows, SPEC))
    assert "range over the swept values" in text and "not a\nconfidence interval" in text
    assert "prolog" in text and "seed004_fig5.png" in text and "seed004_fig6.png" in text


MEMORY = {"bandwidths_gbps": [85.3, 341.3], "hpl_bytes_per_flop": [0.0417, 0.5], "io_copies": 4}


def test_the_memory_model_is_one_analysis_model_per_setting():
    """node model ``memory`` x two bandwidths x two bytes per flop: four analysis models, each
    on spread's 56-core node with the engine's memory section (GB/s -> B/s, copies as stated)."""
    s = spec.parse_spec({**_raw(), "node_models": ["spread", "memory"], "memory": MEMORY})
    assert s.models == [
        "spread",
        "memory-85.3GBps-0.0417Bpf",
        "memory-85.3GBps-0.5Bpf",
        "memory-341.3GBps-0.0417Bpf",
        "memory-341.3GBps-0.5Bpf",
    ]
    assert spec.memory_setting("memory-341.3GBps-0.0417Bpf") == (341.3, 0.0417)
    assert spec.memory_setting("spread") is None
    case = spec.Case(16, "memory-85.3GBps-0.5Bpf", "single")
    assert spec.Case.from_path(case.path) == case
    doc = runs.experiment(spec.Run(case, "all", 1.0, 0.0, 1.0, 1), s)
    assert doc["memory"] == {"bandwidth": pytest.approx(85.3e9), "hpl_bytes_per_flop": 0.5, "io_copies": 4.0}
    assert doc["hpl"]["flops_per_iteration"] == runs.hpl_job(16, 1, 56)["flops_per_iteration"]
    plain = runs.experiment(spec.Run(spec.Case(16, "spread", "single"), "all", 1.0, 0.0, 1.0, 1), s)
    assert "memory" not in plain


def test_bad_memory_settings_name_the_key():
    with pytest.raises(ValueError, match="memory: required by node model 'memory'"):
        spec.parse_spec({**_raw(), "node_models": ["memory"]})
    with pytest.raises(ValueError, match="node_models has no 'memory'"):
        spec.parse_spec({**_raw(), "memory": MEMORY})
    with pytest.raises(ValueError, match=r"memory\.bandwidths_gbps"):
        spec.parse_spec({**_raw(), "node_models": ["memory"], "memory": {**MEMORY, "bandwidths_gbps": [0]}})
    with pytest.raises(ValueError, match=r"memory\.io_copies"):
        spec.parse_spec({**_raw(), "node_models": ["memory"], "memory": {**MEMORY, "io_copies": -1}})
    with pytest.raises(ValueError, match=r"memory: unknown keys \['copies'\]"):
        spec.parse_spec({**_raw(), "node_models": ["memory"], "memory": {**MEMORY, "copies": 2}})


def test_one_parameter_set_meets_the_most_claims_at_once():
    """Two costs: at 1 µs single is in its band (9 %) but matching is not (20 %); at 10 µs both
    matching (50 %) and no-meta (49 %) are, with a difference within ±2, and Lustre holds at both;
    no idle load is swept. The 10 µs set meets four claims and fails single and the idle one."""
    s = spec.parse_spec(
        {**_raw(), "sizes": [16], "configurations": ["single", "matching", "matching-nometa", "lustre"],
         "request_costs_us": [1, 10]}
    )  # fmt: skip
    rows = [
        _summary("spread", 16, c, "all", 0.0, request_cost_us=cost, slowdown_pct=v)
        for cost, values in ((1.0, (9.0, 20.0, 21.0)), (10.0, (30.0, 50.0, 49.0)))
        for c, v in zip(("single", "matching", "matching-nometa"), values, strict=True)
    ] + [_summary("spread", 16, "lustre", "external", 0.0, slowdown_pct=0.1)]
    best = claims.one_parameter_set(rows, s, "spread")
    assert best is not None
    label, met, failed, ties = best
    assert label.startswith("10 µs per write")
    assert met == ["hpl.matching", "hpl.matching-nometa", "hpl.metadata", "hpl.lustre"]
    assert failed == ["hpl.single", "hpl.idle-daemons"] and ties == 1
