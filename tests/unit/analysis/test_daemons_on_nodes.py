"""The storage-daemons scheduling artifact: its run grid, the daemons file it writes, the paired
ratios of its table and the rule of its report's words, on hand-made numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasched.analysis.daemons_on_nodes import report, spec, table
from datasched.analysis.paired_settings import ratio_text

SPEC = spec.DaemonsSpec(
    platforms={"fattree-64": Path("f.xml"), "torus-64": Path("t.xml")},
    n_apps=5,
    n_phases=3,
    seeds=(1, 2, 3),
    cpu_s_per_gb=(0.0, 0.5),
)


def test_grid_and_paths_round_trip():
    runs = SPEC.runs()
    assert len(runs) == 2 * 2 * 2 * 2 * 3  # platforms x allocations x placements x costs x seeds
    for run in runs:
        assert spec.DaemonsRun.from_path(run.path) == run
    run = spec.DaemonsRun("torus-64", "data_aware", "idle_nodes", 0.5, 2)
    assert run.path == "platform=torus-64/allocation=data_aware/placement=idle_nodes/cost=0.5/seed=2"
    assert run.workload_path == "platform=torus-64/seed=2"
    assert run.scheduler_options() == {
        "allocation": "data_aware",
        "storage": {"name": "external", "placement": "idle_nodes"},
    }


def test_the_cost_becomes_flops_per_byte_at_the_node_speed():
    """0.5 s of a 10 Gflop/s node per GB = 0.5 * 1e10 / 1e9 = 5 flop/B; cost 0: no daemons."""
    run = spec.DaemonsRun("fattree-64", "sequential", "least_loaded", 0.5, 1)
    assert run.daemons(SPEC, 1e10) == {"request_size": 524288, "flops_per_byte": 5.0}
    assert spec.DaemonsRun("fattree-64", "sequential", "least_loaded", 0.0, 1).daemons(SPEC, 1e10) is None


def results(daemon_factor: float, idle_gain: float, aware_gain: float) -> dict:
    """Mean totals per run: 100 s per seed index, x daemon_factor with daemons, x idle_gain for
    idle_nodes with daemons, x aware_gain for data_aware (the waits are not read)."""
    out = {}
    for run in SPEC.runs():
        value = 100.0 * run.seed
        if run.cpu_s_per_gb > 0:
            value *= daemon_factor * (idle_gain if run.placement == "idle_nodes" else 1.0)
        if run.allocation == "data_aware":
            value *= aware_gain
        out[run] = (value, 0.0)
    return out


def test_paired_ratios_compare_each_seed_with_itself():
    """Totals differ 3x between seeds, the ratios not at all: every paired ratio is exact
    (interval of zero width), so the spread between workloads does not hide it."""
    rows = table.table_rows(SPEC, results(1.2, 0.9, 0.95))
    by = {(r["platform"], r["allocation"], r["placement"], r["cpu_s_per_gb"]): r for r in rows}
    seq_ll = by[("fattree-64", "sequential", "least_loaded", 0.5)]
    assert seq_ll["vs_no_daemons"] == pytest.approx(1.2)
    assert seq_ll["vs_no_daemons_ci95_low"] == pytest.approx(1.2)
    assert seq_ll["vs_least_loaded"] == "" and seq_ll["vs_sequential"] == ""  # compared with itself
    idle = by[("fattree-64", "sequential", "idle_nodes", 0.5)]
    assert idle["vs_least_loaded"] == pytest.approx(0.9)
    assert idle["vs_no_daemons"] == pytest.approx(1.2 * 0.9)
    aware = by[("torus-64", "data_aware", "idle_nodes", 0.0)]
    assert aware["vs_sequential"] == pytest.approx(0.95) and aware["vs_no_daemons"] == ""
    assert aware["mean_total_s"] == pytest.approx(0.95 * 200.0)  # mean of 100, 200, 300 x 0.95


def test_the_report_words_follow_the_intervals():
    rows = table.table_rows(SPEC, results(1.2, 0.9, 1.0))
    text = report.format_report(rows, SPEC, "test", "f.png")
    # at 0.5 s/GB: least_loaded x1.2, idle_nodes x1.2 x0.9 = 1.08, on 2 platforms x 2 allocations
    assert "+8.0 to +20.0 %" in text and "(8 of 8 settings *slower*)" in text
    # idle_nodes 0.9 with daemons on both platforms and allocations: 4 faster; data_aware = sequential
    # exactly (zero-width interval at 1): no clear difference.
    assert "`idle_nodes` against `least_loaded` with daemons: 4 *faster*, 0 *slower*" in text
    assert "`data_aware` against `sequential` with daemons: 0 *faster*, 0 *slower*, 4 *no clear difference*" in text
    row = next(r for r in rows if r["placement"] == "idle_nodes" and r["cpu_s_per_gb"] > 0)
    assert ratio_text(row, "vs_least_loaded") == "0.900 [0.900, 0.900] *faster*"
    noisy = {**row, "vs_least_loaded_ci95_high": 1.01}
    assert ratio_text(noisy, "vs_least_loaded").endswith("*no clear difference*")
    one_seed = {**row, "n_seeds": 1}
    assert ratio_text(one_seed, "vs_least_loaded") == "0.900 (one seed)"
