"""Seed 002's full variant accumulates (analysis/seed002/units.py on analysis/accumulate.py): a
unit is a case or a scheduling run, a block a parameter set (or the scheduling section); the
artifact drawn from committed summaries of complete sets equals the artifact of a config that
sweeps only those sets, and one run in pieces equals one run at once."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

from datasched.analysis import accumulate as acc
from datasched.analysis.accumulating_artifacts import ARTIFACTS
from datasched.analysis.csv_rows import write_csv
from datasched.analysis.experiment_config import REPO_ROOT
from datasched.analysis.seed002 import scheduling, units
from datasched.analysis.seed002.runs import CASE_COLUMNS
from datasched.analysis.seed002.scheduling import RUN_COLUMNS, SchedulingSpec
from datasched.analysis.seed002.spec import CONFIGURATIONS, MIB, CacheSetting, Case, Seed002Spec

SEED002 = ARTIFACTS["seed002_twins"]

SPEC = Seed002Spec(
    scale=1 / 64,
    patterns=("shared_strided",),
    operations=("read", "write"),
    request_sizes=(32768,),
    configurations=tuple(CONFIGURATIONS),
    hdd_alpha=(0.0, 0.5),
    hdd_seek_scale=(0.0, float(MIB)),
    server_caches=(CacheSetting("small", 2**26, 2**17),),
    seeds=(1, 2, 3),
    ifer_dt=(0.0,),
    scheduling=SchedulingSpec(("fifo", "twins-8ms"), (1, 2), n_apps=4, n_phases=2, io_bytes=1e6, mean_interarrival=1.0),
)
#: The parameter sets of SPEC, in sweep order (a seek scale only with α > 0, a cache only on the
#: count-only curve): 2 + 3.
SETS = ["[α = 0]", "[α = 0, cache small]", "[α = 0.5]", "[α = 0.5, cache small]", "[α = 0.5, seek scale 1 MiB]"]
PER_SET = 2 + 1  # one pattern x two operations, and one IFER offset


def write_sims(sims: Path, spec: Seed002Spec) -> None:
    """Made-up but varied runs.csv files for every unit of ``spec``, as the jobs write them."""
    for k, case in enumerate(spec.cases()):
        rows = []
        for c, configuration in enumerate(spec.configurations):
            for seed in spec.seeds:
                for application in ("A", "B") if case.kind == "ifer" else ("A",):
                    base = 10.0 + 3 * c + case.hdd_alpha * 20 + k / 7
                    size = 32768.0 + k
                    gap = (2e-5 if case.operation == "read" else 4e-5) * (1 + seed / 50)
                    rows.append({"configuration": configuration, "seed": seed, "application": application,
                                 "makespan": base * (1 + 0.01 * seed) + (0.5 if application == "B" else 0.0),
                                 "mean_client_request_size": size, "mean_dispatch_size": size * (1 + c / 5),
                                 "mean_server_request_size": 30000.0 + c + k, "mean_queue_wait": 0.001 * seed,
                                 "server_concurrency": 4.0 + c, "server_balance": 0.9,
                                 "mean_arrival_gap": gap})  # fmt: skip
        write_csv(sims / "cases" / case.path / "runs.csv", CASE_COLUMNS, rows)
    assert spec.scheduling is not None
    for configuration, seed in spec.scheduling.runs():
        row: dict[str, Any] = {column: float(seed + len(configuration)) for column in RUN_COLUMNS}
        row |= {"configuration": configuration, "seed": seed}
        scheduling.write_rows(
            sims / "scheduling" / f"configuration={configuration}" / f"seed={seed}" / "runs.csv", [row]
        )


def commit(folder: Path, sims: Path, spec: Seed002Spec, chosen: list[str]) -> None:
    """The summaries of ``chosen`` units, as rules/accumulate.smk writes them."""
    digest = acc.spec_digest(spec, REPO_ROOT)
    for unit in chosen:
        metrics = SEED002.metrics(sims / unit / SEED002.result)
        acc.write_summary(acc.summary_path(folder, unit), unit, digest, metrics, 150.0)


NAMES = ("seed002_twins.png", "seed002_twins_ifer.png", "seed002_twins_sizes.png", "seed002_twins_plotted.csv",
         "seed002_twins_scheduling.csv", "report.md")  # fmt: skip


def build(folder: Path, spec: Seed002Spec, sims: Path, *, accumulate: bool) -> dict[str, bytes]:
    folder.mkdir(parents=True, exist_ok=True)
    outputs = tuple(folder / name for name in NAMES)
    units.build(spec, outputs, "full", accumulate=accumulate, sims=sims)  # type: ignore[arg-type]
    return {name: (folder / name).read_bytes() for name in NAMES}


def without_progress(report: bytes) -> bytes:
    """The report without the progress paragraph that follows the title."""
    title, _, rest = report.decode().partition("\n\n")
    return (title + "\n" + rest.split("\n", 1)[1]).encode()


@pytest.fixture(scope="module")
def sims(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sims")
    write_sims(path, SPEC)
    return path


def test_units_run_set_by_set_then_the_scheduling_section():
    ordered = SEED002.accumulating.ordered_units(SPEC)
    blocks = list(dict.fromkeys(SEED002.accumulating.block(u) for u in ordered))
    assert blocks == [*SETS, "[scheduling]"]
    assert [SEED002.accumulating.block(u) for u in ordered] == [b for b in SETS for _ in range(PER_SET)] + [
        "[scheduling]"
    ] * 4
    assert sorted(ordered) == sorted(SEED002.accumulating.units(SPEC)) and len(set(ordered)) == len(ordered)
    first = Case.from_path(ordered[0].removeprefix("cases/"))
    assert (first.hdd_alpha, first.hdd_seek_scale, first.cache) == (0.0, 0.0, "none")


def test_restricting_to_sets_a_config_can_state_gives_that_configs_spec():
    restricted = SEED002.accumulating.restrict(SPEC, SETS[2:])
    as_config = dataclasses.replace(SPEC, hdd_alpha=(0.5,), scheduling=None)
    assert restricted == as_config  # same spec, so the same digest, cases and report
    with_scheduling = SEED002.accumulating.restrict(SPEC, [SETS[0], "[scheduling]"])
    assert with_scheduling == dataclasses.replace(SPEC, hdd_alpha=(0.0,), hdd_seek_scale=(0.0,), server_caches=())


def test_restricting_to_sets_no_config_can_state_keeps_exactly_those():
    """α = 0 (count-only) and α = 0.5 with the seek scale: the product of (0, 0.5) x (0, 1 MiB)
    would also hold α = 0.5 count-only, so the spec lists its sets."""
    restricted = SEED002.accumulating.restrict(SPEC, [SETS[0], SETS[4]])
    assert restricted.parameter_sets() == [(0.0, 0.0, "none"), (0.5, float(MIB), "none")]
    assert [c.path for c in restricted.cases()] == [
        u.removeprefix("cases/") for u in SEED002.accumulating.units(SPEC) if units.block(u) in (SETS[0], SETS[4])
    ]


@pytest.mark.slow
def test_the_report_from_complete_sets_is_the_report_of_a_config_with_those_sets(sims, tmp_path):
    """α = 0.5 complete (with its seek and cache sets), α = 0 (count-only) begun, the scheduling
    section in: the artifact is byte for byte that of a config sweeping α = 0.5 only, but for the
    progress paragraph, which counts every unit in."""
    ordered = SEED002.accumulating.ordered_units(SPEC)
    complete = {*SETS[2:], "[scheduling]"}
    chosen = [u for u in ordered if units.block(u) in complete]
    half = [u for u in ordered if units.block(u) == SETS[0]][:2]
    folder = tmp_path / "accumulated"
    commit(folder, sims, SPEC, chosen + half)
    got = build(folder, SPEC, sims, accumulate=True)
    config = dataclasses.replace(SPEC, hdd_alpha=(0.5,))
    want = build(tmp_path / "configured", config, sims, accumulate=False)
    report = got["report.md"].decode()
    assert f"**Partial: {len(chosen) + 2}/{len(ordered)} planned jobs are in**" in report
    assert f"complete parameter sets only: {', '.join(SETS[2:])}, [scheduling] (4/6)" in report
    assert without_progress(got["report.md"]) == want["report.md"]
    for name in NAMES[:-1]:
        assert got[name] == want[name], name
    assert "## HDD contention α = 0\n" not in report and "## HDD contention α = 0.5, cache small" in report


@pytest.mark.slow
def test_a_run_interrupted_after_k_units_and_resumed_elsewhere_equals_an_uninterrupted_run(sims, tmp_path):
    ordered = SEED002.accumulating.ordered_units(SPEC)
    whole = tmp_path / "whole"
    commit(whole, sims, SPEC, ordered)
    uninterrupted = build(whole, SPEC, sims, accumulate=True)
    assert b"**Complete: 19/19 planned jobs**" in uninterrupted["report.md"]

    first = tmp_path / "first"
    commit(first, sims, SPEC, ordered[:4])  # one set complete, the next begun
    partial = build(first, SPEC, sims, accumulate=True).get("report.md", b"").decode()
    assert "**Partial: 4/19 planned jobs are in**" in partial
    assert "complete parameter sets only: [α = 0] (1/6)" in partial
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(first / "runs", elsewhere / "runs")  # only the committed summaries travel
    commit(elsewhere, sims, SPEC, ordered[4:])
    assert build(elsewhere, SPEC, sims, accumulate=True) == uninterrupted


def test_no_complete_set_gives_placeholders_and_the_count(sims, tmp_path):
    ordered = SEED002.accumulating.ordered_units(SPEC)
    folder = tmp_path / "few"
    commit(folder, sims, SPEC, ordered[:2] + ordered[-4:])  # two cases and the whole scheduling section
    got = build(folder, SPEC, sims, accumulate=True)
    assert b"**Partial: 6/19 planned jobs are in**" in got["report.md"]
    assert got["seed002_twins_plotted.csv"].count(b"\n") == 1  # the header only
    assert got["seed002_twins_scheduling.csv"] == b",".join(c.encode() for c in RUN_COLUMNS) + b"\n"
    assert got["seed002_twins_ifer.png"] == got["seed002_twins.png"]


@pytest.mark.slow
def test_the_quick_route_reads_the_same_numbers_through_the_same_function(sims, tmp_path):
    """Not accumulating (the quick variant), the artifact is read from the jobs' runs.csv by the
    function that writes a summary: the same files as from every unit's committed summary."""
    ordered = SEED002.accumulating.ordered_units(SPEC)
    folder = tmp_path / "accumulated"
    commit(folder, sims, SPEC, ordered)
    accumulated = build(folder, SPEC, sims, accumulate=True)
    direct = build(tmp_path / "direct", SPEC, sims, accumulate=False)
    assert without_progress(accumulated["report.md"]) == direct["report.md"]
    assert all(accumulated[n] == direct[n] for n in NAMES[:-1])
    assert b"Partial" not in direct["report.md"] and b"Complete" not in direct["report.md"]
