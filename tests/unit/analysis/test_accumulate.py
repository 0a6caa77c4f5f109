"""Accumulating full variants (analysis/accumulate.py): summaries, slices, complete blocks."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest
import yaml

from datasched.analysis import accumulate as acc
from datasched.analysis import reproduce_slice
from datasched.analysis.accumulating_artifacts import ARTIFACTS, artifact
from datasched.analysis.experiment_config import REPO_ROOT, load_config, load_config_file
from datasched.analysis.reproduce import main as reproduce_main
from datasched.analysis.reproduce_slice import plan, run_guarded, run_slice, uses_cluster
from datasched.analysis.seed000.fig7.spec import Fig7Spec, FlowGrid
from datasched.analysis.seed000.fig8.spec import Fig8Spec
from datasched.analysis.seed000.fig10.spec import Fig10Spec
from datasched.analysis.seed004.spec import Seed004Spec
from datasched.errors import UserError

FIG8 = ARTIFACTS["seed000_fig8"].accumulating


def fig8_spec(seeds=(1, 2)) -> Fig8Spec:
    return Fig8Spec(platforms={"small": REPO_ROOT / "platforms/catalog/small-test-unified.xml"}, n_apps=4,
                    n_phases=4, seeds=tuple(seeds), san_k=1)  # fmt: skip


def commit(folder: Path, spec, units, digest=None, cpu_s=10.0) -> None:
    digest = digest or acc.spec_digest(spec, REPO_ROOT)
    for i, unit in enumerate(units):
        metrics = {"mean_total_s": 100.0 + i / 3, "mean_wait_s": 1.0 / 3}
        acc.write_summary(acc.summary_path(folder, unit), unit, digest, metrics, cpu_s)


def test_a_summary_keeps_every_digit_and_its_file_name_is_the_unit(tmp_path):
    path = acc.summary_path(tmp_path, "topology=small/storage=cache-L/seed=1")
    acc.write_summary(path, "topology=small/storage=cache-L/seed=1", "abc", {"x": 0.1 + 0.2}, 12.345)
    assert path == tmp_path / "runs/topology=small/storage=cache-L/seed=1.json"
    back = acc.read_summary(path)
    assert back.metrics["x"] == 0.1 + 0.2 and back.cpu_s == 12.3 and back.digest == "abc"
    assert not list(tmp_path.rglob("*.partial"))


def test_a_broken_summary_is_one_error_naming_the_file(tmp_path):
    bad = tmp_path / "runs" / "u.json"
    bad.parent.mkdir()
    bad.write_text("{not json")
    with pytest.raises(UserError, match=r"u\.json: not a run summary"):
        acc.read_summary(bad)


def test_units_run_block_by_block():
    units = FIG8.ordered_units(fig8_spec(seeds=(1, 2, 3)))
    seeds = [int(u.rsplit("=", 1)[1]) for u in units]
    assert seeds == [1] * 7 + [2] * 7 + [3] * 7
    assert len(set(units)) == 21


def test_the_digest_ignores_where_the_checkout_is():
    spec = fig8_spec()
    elsewhere = Fig8Spec(platforms={"small": Path("/elsewhere/platforms/catalog/small-test-unified.xml")},
                         n_apps=4, n_phases=4, seeds=(1, 2), san_k=1)  # fmt: skip
    assert acc.spec_digest(spec, REPO_ROOT) == acc.spec_digest(elsewhere, Path("/elsewhere"))
    assert acc.spec_digest(spec, REPO_ROOT) != acc.spec_digest(fig8_spec(seeds=(1, 3)), REPO_ROOT)


def test_next_slice_fits_the_budget_in_plan_order_and_always_makes_progress():
    ordered = [f"a=1/seed={s}" for s in range(6)]
    measured = {"a=1/seed=0": 100.0, "a=1/seed=1": 300.0}  # estimate for the rest (same group): 200 s
    assert acc.next_slice(ordered, measured, None, 50.0) == ordered[2:]
    assert acc.next_slice(ordered, measured, 650.0, 50.0) == ordered[2:5]
    assert acc.next_slice(ordered, measured, 1.0, 50.0) == ordered[2:3]
    assert acc.next_slice(ordered, {}, 120.0, 50.0) == ordered[:2]  # the default before any measurement
    assert acc.next_slice(ordered, dict.fromkeys(ordered, 1.0), 1e9, 50.0) == []


def test_the_estimate_prefers_runs_that_differ_only_in_the_seed():
    measured = {"t=a/s=1": 10.0, "t=a/s=2": 30.0, "t=b/s=1": 1000.0}
    assert acc.estimate_cpu_s("t=a/s=3", measured, 5.0) == 20.0
    assert acc.estimate_cpu_s("t=c/s=1", measured, 5.0) == pytest.approx(1040 / 3)
    assert acc.estimate_cpu_s("t=c/s=1", measured, 900.0) == 900.0  # never below the documented average
    assert acc.estimate_cpu_s("t=c/s=1", {}, 5.0) == 5.0


def test_the_figure_uses_complete_blocks_only_and_the_report_says_how_many_runs_are_in(tmp_path):
    spec = fig8_spec(seeds=(1, 2, 3))
    units = FIG8.ordered_units(spec)
    commit(tmp_path, spec, units[:7] + units[14:17])  # seed 1 complete, seed 3 begun, seed 2 missing
    loaded = acc.load(FIG8, spec, tmp_path, acc.spec_digest(spec, REPO_ROOT))
    assert loaded.spec.seeds == (1,)
    assert sorted(loaded.metrics) == sorted(units[:7])
    assert (loaded.progress.done, loaded.progress.planned, loaded.progress.cpu_s) == (10, 21, 100.0)
    line = loaded.progress.line("seed")
    assert "10/21 planned runs are in" in line and "complete seeds only: 1 (1/3)" in line
    report = acc.with_progress("# Title\n\nbody\n", line)
    assert report.startswith("# Title\n\n**Partial: 10/21") and report.endswith("\nbody\n")


def test_summaries_of_an_edited_config_are_stale_not_used(tmp_path):
    spec = fig8_spec()
    units = FIG8.ordered_units(spec)
    commit(tmp_path, spec, units, digest="0123456789abcdef")
    loaded = acc.load(FIG8, spec, tmp_path, acc.spec_digest(spec, REPO_ROOT))
    assert loaded.spec is None and loaded.metrics == {}
    assert loaded.progress.stale == 14 and loaded.progress.done == 0
    assert "14 summaries of an earlier configuration are ignored" in loaded.progress.line("seed")
    one = tmp_path / "one"
    commit(one, spec, units[:1], digest="0123456789abcdef")
    alone = acc.load(FIG8, spec, one, acc.spec_digest(spec, REPO_ROOT))
    assert "1 summary of an earlier configuration is ignored" in alone.progress.line("seed")


def test_a_complete_plan_says_so(tmp_path):
    spec = fig8_spec()
    commit(tmp_path, spec, FIG8.units(spec))
    loaded = acc.load(FIG8, spec, tmp_path, acc.spec_digest(spec, REPO_ROOT))
    assert loaded.spec == spec
    assert loaded.progress.line("seed").startswith("**Complete: 14/14 planned runs**")


def test_a_summary_under_the_wrong_name_is_an_error(tmp_path):
    spec = fig8_spec()
    unit = FIG8.units(spec)[0]
    acc.write_summary(acc.summary_path(tmp_path, unit), "something/else", "d", {}, 1.0)
    with pytest.raises(UserError, match="holds unit 'something/else'"):
        acc.scan(FIG8, spec, tmp_path, "d")


def test_seed004_blocks_are_hpl_sizes_over_both_node_models():
    spec = Seed004Spec(sizes=(16, 32), configurations=("hpl-only", "single", "lustre"), placements=("all",),
                       node_models=("spread", "pinned"), request_costs_us=(1.0,), idle_fractions=(0.01,),
                       idle_periods=(1.0,), iterations=2, seeds=(1,))  # fmt: skip
    seed004 = artifact("seed004_interference").accumulating
    units = seed004.ordered_units(spec)
    assert [u.split("/")[1] for u in units] == ["n=16"] * 6 + ["n=32"] * 6
    restricted = seed004.restrict(spec, [16])
    assert restricted.sizes == (16,) and [c.path for c in restricted.cases()] == units[:6]
    quick_like = seed004.restrict(Seed004Spec(**{**restricted.__dict__, "sizes": (16, 64), "ior_sizes": (64,)}), [16])
    assert quick_like.configurations == ("hpl-only",) and quick_like.sizes == (16,)


def test_fig7_blocks_are_storage_assignments_and_restrict_the_flow_subset():
    """A Fig. 7 block is one STG-k over every I/O model, policy, remote share and sharing unit
    (each run is judged against NP at its STG-k); restricted to STG-k it keeps only the per-flow
    points of those STG-k, and none at all when they share none."""
    fig7 = ARTIFACTS["seed000_fig7"].accumulating
    spec = Fig7Spec(platform=Path("p.xml"), tasks=8, n_phases=2, seed=1, stg_k=(1, 4), ba_levels=(5.0, 85.0),
                    remote_levels=(0.0, 100.0), flow=FlowGrid((4,), (5.0,), (100.0,)),
                    io_models=("none-8", "per_task-6"))  # fmt: skip
    units = fig7.ordered_units(spec)
    assert sorted(units) == sorted(r.path for r in spec.runs())
    blocks = [fig7.block(u) for u in units]
    assert blocks == sorted(blocks) and set(blocks) == {1, 4}  # STG-1 complete before STG-4 starts
    only1 = fig7.restrict(spec, [1])
    assert only1.stg_k == (1,) and only1.flow == FlowGrid() and only1.sharing == ("activity",)
    assert [r.path for r in only1.runs()] == [u for u in units if fig7.block(u) == 1]
    only4 = fig7.restrict(spec, [4])
    assert only4.flow == spec.flow and {r.path for r in only4.runs()} == {u for u in units if fig7.block(u) == 4}


def test_fig10_blocks_are_seeds_over_both_io_models():
    fig10 = ARTIFACTS["seed000_fig10"].accumulating
    spec = Fig10Spec(topology="small", platform=Path("p.xml"), n_apps=4, n_phases=2, seeds=(2, 1),
                     policies=("np", "fp"), io_distributions=("none", "per_task"))  # fmt: skip
    units = fig10.ordered_units(spec)
    assert [fig10.block(u) for u in units] == [2] * 4 + [1] * 4
    assert [r.path for r in fig10.restrict(spec, [1]).runs()] == units[4:]


def test_config_accumulate_names_configured_artifacts_only():
    data = yaml.safe_load((REPO_ROOT / "config" / "test.yaml").read_text())
    with pytest.raises(UserError, match="accumulate: seed000_fig8 not configured under artifacts"):
        load_config({**data, "accumulate": ["seed000_fig8"]}, source="t.yaml")
    with pytest.raises(UserError, match=r"accumulate\[0\]|accumulate.0|is not one of"):
        load_config({**data, "accumulate": ["policies_on_traces"]}, source="t.yaml")


def test_the_full_config_accumulates_the_expensive_variants(monkeypatch):
    exp = load_config_file(REPO_ROOT / "config" / "full.yaml")
    assert exp.accumulate == (
        "seed000_fig7",
        "seed000_fig8",
        "seed000_fig9",
        "seed000_fig10",
        "seed002_twins",
        "seed004_interference",
        "daemons_on_nodes",
        "burst_buffers",
    )
    # As on a clone where nothing is committed yet: Fig. 9's own runs are all in (since
    # 2026-11-27), and the slice planned from the committed state would then be empty.
    monkeypatch.setattr(reproduce_slice, "scan", lambda *args: ({}, 0))
    groups, lines = plan(exp, ["seed000_fig9"], 2 * 3600.0)
    targets = [t for group in groups for t in group]
    assert targets and all(t.startswith("paper-artifacts/seed000-storage/fig9-full/runs/") for t in targets)
    assert "0/600 planned runs committed" in lines[0]


def test_the_quick_config_does_not_accumulate():
    exp = load_config_file(REPO_ROOT / "config" / "quick.yaml")
    assert exp.accumulate == ()
    with pytest.raises(UserError, match="--only seed000_fig9: this config does not accumulate it"):
        plan(exp, ["seed000_fig9"], None)


def test_reproduce_rejects_a_budget_without_an_artifact(capsys):
    assert reproduce_main(["--full", "--max-cpu-hours", "2"]) == 2
    assert "--max-cpu-hours needs --only ARTIFACT" in capsys.readouterr().err
    assert reproduce_main(["--full", "--only", "seed000_fig9", "--max-cpu-hours", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err


def test_cluster_arguments_are_recognised():
    assert uses_cluster(["--executor", "slurm"]) and uses_cluster(["--profile", "profiles/local-slurm"])
    assert not uses_cluster(["-j", "4"])


def test_cost_files_round_trip(tmp_path):
    path = acc.write_cost(tmp_path / "cost.json", 12.34)
    assert acc.read_cost(path) == 12.3
    assert json.loads(path.read_text()) == {"cpu_s": 12.3}
    assert acc.cpu_seconds() > 0


def test_a_slice_runs_its_blocks_one_snakemake_call_after_another(tmp_path):
    """Snakemake orders a call's jobs itself: one call per block (here a workload seed of a
    14-run Fig. 8 grid with seed 1 begun), in plan order, then the artifact's call; a slice cut
    short therefore leaves whole blocks. The Snakemake command is a stand-in that logs its targets."""
    config = yaml.safe_load((REPO_ROOT / "config" / "test.yaml").read_text())
    platforms = {"small": "platforms/catalog/small-test-unified.xml"}
    config["artifacts"]["seed000_fig8"] = {
        "dir": str(tmp_path / "fig8"),
        "platforms": platforms,
        "n_apps": 4,
        "n_phases": 4,
        "seeds": [1, 2, 3],
        "san_k": 1,
    }
    config["accumulate"] = ["seed000_fig8"]
    exp = load_config(config)
    spec = ARTIFACTS["seed000_fig8"].spec(exp)
    commit(tmp_path / "fig8", spec, FIG8.ordered_units(spec)[:3])
    log = tmp_path / "calls.jsonl"
    fake = ["python3", "-c", f"import json, sys; open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + chr(10))"]
    assert run_slice(exp, ["seed000_fig8"], None, 2, fake, []) == 0
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls[-1] == ["seed000_fig8"]  # the artifact, from whatever is committed
    runs = [[t for t in call if t.endswith(".json")] for call in calls[:-1]]
    assert [len(r) for r in runs] == [4, 7, 7]  # seed 1's four missing runs, then seeds 2 and 3
    assert [{t.rsplit("seed=", 1)[1] for t in r} for r in runs] == [{"1.json"}, {"2.json"}, {"3.json"}]
    assert all(call[:2] == ["--keep-going", "--force"] for call in calls[:-1])


def test_the_wall_guard_stops_gracefully_even_where_the_shell_ignored_sigint(tmp_path):
    """A background job (``nohup … &``) starts with SIGINT ignored; the guard's SIGINT must still
    reach the child as an interrupt (Snakemake then ends its jobs), not wait 120 s for SIGTERM."""
    marker = tmp_path / "interrupted"
    child = "\n".join(
        [
            "import time",
            "try:",
            "    time.sleep(60)",
            "except KeyboardInterrupt:",
            f"    open({str(marker)!r}, 'w').close()",
        ]
    )
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert run_guarded([sys.executable, "-c", child], 2.0) == 1
    finally:
        signal.signal(signal.SIGINT, previous)
    assert marker.exists()
