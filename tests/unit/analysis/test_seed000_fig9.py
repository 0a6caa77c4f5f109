"""Seed 000 Figure 9's run grid, platforms and verdict rules on hand-made numbers."""

from __future__ import annotations

import pytest

from datasched.analysis.seed000.fig9 import central_traffic
from datasched.analysis.seed000.fig9 import claims as fig9_claims
from datasched.analysis.seed000.fig9 import spec as fig9_spec
from datasched.analysis.seed000.fig9 import table as fig9_table
from datasched.analysis.verdicts import Word

SPEC = fig9_spec.Fig9Spec(
    topologies={"dragonfly-72": "seed000-dragonfly-2-4-2", "torus-64": "seed000-torus-4x4x4"},
    servers=(1, 4, 16, 64),
    n_apps=3,
    n_phases=2,
    seeds=(1, 2),
)


def test_grid_paths_and_options():
    runs = SPEC.runs()
    # topologies x (I-A and Cache under 2 staging models + SAN once) x servers
    assert len(runs) == 2 * (2 * 2 + 1) * 4 * len(SPEC.seeds) == len(set(runs))
    for run in runs:
        assert fig9_spec.Fig9Run.from_path(run.path) == run
    assert {r.staging for r in runs if r.series == "SAN"} == {"io_volume"}
    san = fig9_spec.Fig9Run("torus-64", "SAN", 16, 1)
    assert san.platform_path == "topology=torus-64/mode=san/servers=16"
    assert san.scheduler_options(SPEC)["storage"] == {"name": "san", "k": 16}
    ia = fig9_spec.Fig9Run("torus-64", "I-A", 16, 1, "io_volume")
    assert ia.platform_path == "topology=torus-64/mode=unified/servers=16"
    assert ia.scheduler_options(SPEC)["storage"] == {"name": "internal", "access": "affinity"}
    assert ia.workload_path == san.workload_path  # one workload per topology, server count and seed


@pytest.mark.parametrize("mode", ["unified", "san"])
def test_platforms_are_the_catalogue_systems_with_n_servers(mode):
    params = fig9_spec.platform_params(SPEC, "dragonfly-72", mode, 16)
    assert params.storage.io_servers == 16 and params.storage_mode == mode
    assert params.name == f"seed000-dragonfly-2-4-2-{mode}-io16"


def test_workload_stages_over_every_server():
    params = fig9_spec.markov_params(SPEC, 3, 64, 72, "dataset")
    assert params["san_k_choices"] == [64] and params["staging"] == "dataset" and params["max_tasks"] == 72


def rows_for(san: dict[int, float], ia: dict[int, float], cache: dict[int, float]):
    """The same I-A and Cache curves under both staging models."""
    results = {}
    for tp in SPEC.topologies:
        for series, curve in (("SAN", san), ("I-A", ia), ("Cache", cache)):
            for staging in SPEC.stagings(series):
                for n, v in curve.items():
                    for seed, noise in zip(SPEC.seeds, (0.999, 1.001), strict=True):
                        results[fig9_spec.Fig9Run(tp, series, n, seed, staging)] = (v * noise, 0.0)
    return fig9_table.table_rows(SPEC, results)


def verdict(rows, start):
    return next(v for v in fig9_claims.verdicts(rows) if v.claim.startswith(start))


def test_verdicts_follow_the_shared_rules():
    paper_like = rows_for(
        {1: 1000, 4: 300, 16: 100, 64: 95}, {1: 60, 4: 52, 16: 50, 64: 50}, {1: 40, 4: 36, 16: 35, 64: 35}
    )
    assert verdict(paper_like, "Fig. 9b: SAN with one").judgement.word is Word.REPRODUCED  # x10
    assert verdict(paper_like, "Fig. 9b: SAN beyond 16").judgement.word is Word.REPRODUCED
    cache = "Fig. 9: Cache with 1 server(s) against SAN with 64 (staging dataset)"
    assert verdict(paper_like, cache).judgement.word is Word.REPRODUCED
    assert verdict(paper_like, "Fig. 9a: I-A improves").judgement.word is Word.REPRODUCED
    weak = rows_for(
        {1: 150, 4: 120, 16: 100, 64: 99}, {1: 200, 4: 150, 16: 120, 64: 100}, {1: 40, 4: 36, 16: 35, 64: 35}
    )
    assert verdict(weak, "Fig. 9b: SAN with one").judgement.word is Word.IN_DIRECTION  # x1.5
    assert verdict(weak, "Fig. 9: I-A with 1").judgement.word is Word.NOT_REPRODUCED  # 200 s against SAN-64's 99 s
    assert verdict(weak, "Fig. 9a: I-A improves").judgement.word is Word.NOT_REPRODUCED  # -17 % from 16 up


def test_one_seed_gives_no_interval_so_every_difference_is_inconclusive():
    one = fig9_spec.Fig9Spec(topologies=SPEC.topologies, servers=SPEC.servers, n_apps=3, n_phases=2, seeds=(1,))
    results = {
        fig9_spec.Fig9Run(tp, series, n, 1, staging): (1000.0 / n if series == "SAN" else 10.0, 0.0)
        for tp in one.topologies
        for series in ("SAN", "I-A", "Cache")
        for staging in one.stagings(series)
        for n in one.servers
    }
    rows = fig9_table.table_rows(one, results)
    assert {v.judgement.word for v in fig9_claims.verdicts(rows) if "SAN with one" in v.claim} == {Word.INCONCLUSIVE}


def test_central_traffic_floor_is_bytes_over_servers_times_frontend():
    """Least server time = B / (k·F): 2 TB over 4 servers of 1.25 GB/s is 400 s."""
    t = central_traffic.CentralTraffic("t", (1,), (8e12,), {"dataset": (2e12,)}, 1.25e9)
    assert t.least_seconds(2e12, 4) == pytest.approx(400.0)
    assert t.staged_share("dataset") == pytest.approx(0.25)


def test_central_traffic_of_the_runs_workloads():
    """io_volume stages exactly SAN's bytes (its definition); dataset stages less; the staged
    bytes do not depend on the server count the workload was drawn with."""
    spec = fig9_spec.Fig9Spec(**{**SPEC.__dict__, "n_phases": 20})  # several read and write phases
    traffic = central_traffic.central_traffic(spec, "torus-64")
    assert traffic.staged_bytes["io_volume"] == pytest.approx(traffic.san_bytes)
    assert all(0 < d < s for d, s in zip(traffic.staged_bytes["dataset"], traffic.san_bytes, strict=True))
    other = fig9_spec.Fig9Spec(**{**spec.__dict__, "servers": (64,)})
    assert central_traffic.central_traffic(other, "torus-64").staged_bytes == traffic.staged_bytes
    assert traffic.frontend_bw == fig9_spec.platform_params(SPEC, "torus-64", "unified", 1).storage.server_frontend_bw


@pytest.mark.parametrize(("share", "side"), [(0.5, "above"), (0.001, "below")])
def test_traffic_section_says_which_side_of_one_over_the_server_ratio(share, side):
    """1 server against 64: near-data storage can win only below 1/64 of SAN's bytes."""
    t = central_traffic.CentralTraffic(
        "torus-64", (1, 2), (1e12, 1e12), {"io_volume": (2e12, 2e12), "dataset": (share * 1e12,) * 2}, 1e9
    )
    text = "\n".join(central_traffic.traffic_section(SPEC, [t]))
    assert "less than 1.6 % of SAN's bytes (1/64)" in text
    assert f"`dataset` stages {100 * share:.1f} % of SAN's bytes, {side} that line" in text
    assert "| torus-64 | 1.00 | 2.00 (200.0 %) |" in text


def test_equal_server_counts_compare_san_with_near_data_storage_count_by_count():
    """Ratio = SAN's mean total / the series' at the same count: 1000/100 = 10, 300/600 = 0.5, ..."""
    san = {1: 1000.0, 4: 300.0, 16: 200.0, 64: 100.0}
    cache = {1: 100.0, 4: 600.0, 16: 100.0, 64: 50.0}
    rows = rows_for(san, ia=dict.fromkeys(san, 1000.0), cache=cache)
    ratios = central_traffic.equal_count_ratios(rows, "Cache", "dataset")
    assert sorted(ratios) == pytest.approx(sorted([10.0, 0.5, 2.0, 2.0] * 2))  # two topologies
    text = "\n".join(central_traffic.equal_count_lines(rows, SPEC))
    assert "Cache with `dataset`: SAN takes ×0.5–×10 its time (SAN faster in 2 of 8)" in text
    assert "I-A with `dataset`: SAN takes ×0.1–×1 its time (SAN faster in 6 of 8)" in text
