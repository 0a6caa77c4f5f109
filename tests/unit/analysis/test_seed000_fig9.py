"""Seed 000 Figure 9's run grid, platforms and verdict rules on hand-made numbers."""

from __future__ import annotations

import pytest

from datasched.analysis import seed000_fig9 as fig9

SPEC = fig9.Fig9Spec(
    topologies={"dragonfly-72": "seed000-dragonfly-2-4-2", "torus-64": "seed000-torus-4x4x4"},
    servers=(1, 4, 16, 64),
    n_apps=3,
    n_phases=2,
    seeds=(1,),
)


def test_grid_paths_and_options():
    runs = SPEC.runs()
    # topologies x (I-A and Cache under 2 staging models + SAN once) x servers
    assert len(runs) == 2 * (2 * 2 + 1) * 4 == len(set(runs))
    for run in runs:
        assert fig9.Fig9Run.from_path(run.path) == run
    assert {r.staging for r in runs if r.series == "SAN"} == {"io_volume"}
    san = fig9.Fig9Run("torus-64", "SAN", 16, 1)
    assert san.platform_path == "topology=torus-64/mode=san/servers=16"
    assert san.scheduler_options(SPEC)["storage"] == {"name": "san", "k": 16}
    ia = fig9.Fig9Run("torus-64", "I-A", 16, 1, "io_volume")
    assert ia.platform_path == "topology=torus-64/mode=unified/servers=16"
    assert ia.scheduler_options(SPEC)["storage"] == {"name": "internal", "access": "affinity"}
    assert ia.workload_path == san.workload_path  # one workload per topology, server count and seed


@pytest.mark.parametrize("mode", ["unified", "san"])
def test_platforms_are_the_catalogue_systems_with_n_servers(mode):
    params = fig9.platform_params(SPEC, "dragonfly-72", mode, 16)
    assert params.storage.io_servers == 16 and params.storage_mode == mode
    assert params.name == f"seed000-dragonfly-2-4-2-{mode}-io16"


def test_workload_stages_over_every_server():
    params = fig9.markov_params(SPEC, 3, 64, 72, "dataset")
    assert params["san_k_choices"] == [64] and params["staging"] == "dataset" and params["max_tasks"] == 72


def rows_for(san: dict[int, float], ia: dict[int, float], cache: dict[int, float]):
    """The same I-A and Cache curves under both staging models."""
    results = {}
    for tp in SPEC.topologies:
        for series, curve in (("SAN", san), ("I-A", ia), ("Cache", cache)):
            for staging in SPEC.stagings(series):
                for n, v in curve.items():
                    results[fig9.Fig9Run(tp, series, n, 1, staging)] = (v, 0.0)
    return fig9.table_rows(SPEC, results)


def verdict(rows, start):
    return next(v for v in fig9.verdicts(rows) if v.claim.startswith(start))


def test_verdicts_follow_their_rules():
    paper_like = rows_for(
        {1: 1000, 4: 300, 16: 100, 64: 95}, {1: 60, 4: 52, 16: 50, 64: 50}, {1: 40, 4: 36, 16: 35, 64: 35}
    )
    assert verdict(paper_like, "Fig. 9b: SAN with one").verdict == "reproduced in magnitude"
    assert verdict(paper_like, "Fig. 9b: SAN beyond 16").verdict == "reproduced"
    assert verdict(paper_like, "Fig. 9: Cache with 1 server(s) against SAN with 64 (staging dataset)").verdict == (
        "reproduced"
    )
    assert verdict(paper_like, "Fig. 9a: I-A improves").verdict == "reproduced"
    weak = rows_for(
        {1: 150, 4: 120, 16: 100, 64: 99}, {1: 200, 4: 150, 16: 120, 64: 100}, {1: 40, 4: 36, 16: 35, 64: 35}
    )
    assert verdict(weak, "Fig. 9b: SAN with one").verdict == "reproduced in direction"
    assert verdict(weak, "Fig. 9: I-A with 1").verdict == "not reproduced"  # 200 s against SAN-64's 99 s
    assert verdict(weak, "Fig. 9a: I-A improves").verdict == "partly"  # 20 % spread from 16 up
