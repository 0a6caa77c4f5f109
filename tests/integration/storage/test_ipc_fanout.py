"""The approximate all-to-all (engine option --ipc-fanout, sim/src/execution/phase_plan.hpp
and ipc_sampling.hpp) against closed-form dates.

Platform: platforms/' ring, a 1-D torus of 8 nodes (SimGrid TORUS cluster, dimension-order
routing, SPLITDUPLEX links of 1 GB/s each way, no latency). Node i reaches i+1..i+4
rightwards and i+5..i+7 leftwards (the shortest way, ties to the right). In the exact
all-to-all of 8 nodes sending S bytes each (S/7 per pair), each rightward link carries
the pairs at distance 1..4 that cross it, 1+2+3+4 = 10 of them, a leftward one 1+2+3 = 6:
t = 10 S / 7 / 1 GB/s. With fanout D < 7 each node sends S/D to the nodes at offsets
1 + floor((2k+1) 7 / 2D); the engine scales those flows so that the busiest link carries
what it carries in the exact pattern, so the date is the same."""

from __future__ import annotations

import pytest

from tests.integration.storage.conftest import GB, communicate, descriptor, phases_profile, resource_ids

pytestmark = pytest.mark.engine
TOL = 1e-6
S = 7 * GB


@pytest.fixture(scope="module")
def ring(tmp_path_factory, engine):
    from datasched.platforms import InterconnectParams, SystemParams, TorusParams, generate, write

    params = SystemParams(
        storage_mode="unified",
        interconnect=InterconnectParams(topology=TorusParams(dims=(8,)), link_bw=1 * GB, link_lat=0),
        storage={"io_servers": 1, "frontend_lat": 0, "backend_lat": 0},
    )
    path = write(generate(params), tmp_path_factory.mktemp("ring") / "ring.xml")
    return path, resource_ids(engine, path)


def all_to_all(run_phases, ring, nodes: int, fanout: int | None, background: bool = False):
    """One job of `nodes` nodes (node-10 onwards) exchanging S each; with `background`, a
    second job exchanging S between node-16 and node-17, on links the first job's
    wrap-around pairs also cross."""
    platform, ids = ring
    first, last = ids["node-10"], ids[f"node-{10 + nodes - 1}"]  # the generator numbers nodes from 10
    jobs = [{"id": 0, "subtime": 0, "res": nodes, "profile": "p"}]
    profiles = {"p": phases_profile(nodes, descriptor(), [communicate(S)])}
    alloc = {"0": f"{first}-{last}"}
    if background:
        jobs.append({"id": 1, "subtime": 0, "res": 2, "profile": "q"})
        profiles["q"] = phases_profile(2, descriptor(), [communicate(S)])
        alloc["1"] = f"{ids['node-16']}-{ids['node-17']}"
    args = ["--ipc-fanout", str(fanout)] if fanout is not None else []
    return run_phases(platform, jobs, profiles, alloc=alloc, engine_args=args)


@pytest.mark.parametrize("fanout", [None, 0, 1, 2, 3, 6])
def test_sampled_exchange_takes_as_long_as_the_exact_one_alone(run_phases, ring, fanout):
    """t = 10 S / 7 GB/s whatever the fanout; the bytes counted stay 8 S."""
    r = all_to_all(run_phases, ring, 8, fanout)
    assert r.runtime("0") == pytest.approx(10 * S / 7 / GB, abs=TOL)
    assert r.io["0"]["network_bytes"] == pytest.approx(8 * S)
    assert r.io["0"]["network_seconds"] == pytest.approx(10 * S / 7 / GB, abs=TOL)


@pytest.mark.parametrize(("nodes", "fanout"), [(3, 2), (8, 7), (8, 100)])
def test_fanout_of_n_minus_1_or_more_plans_the_exact_pattern(run_phases, ring, nodes, fanout):
    """Identical dates, to the last printed digit."""
    exact = all_to_all(run_phases, ring, nodes, None)
    same = all_to_all(run_phases, ring, nodes, fanout)
    assert same.jobs["0"]["execution_time"] == exact.jobs["0"]["execution_time"]


def test_shares_under_contention_stay_close(run_phases, ring):
    """6 nodes with fanout 2 (offsets 2 and 4) beside a 2-node exchange on links the
    6-node job's wrap-around pairs cross. Under contention the sampled pattern's loads
    need not match the exact one's, so dates may differ (README section 3 measures by
    how much on seed 000 workloads); on this ring they stay within 25 % (they coincide
    today: 11.2 s and 9.333333 s)."""
    exact = all_to_all(run_phases, ring, 6, None, background=True)
    sampled = all_to_all(run_phases, ring, 6, 2, background=True)
    for job in ("0", "1"):
        assert sampled.runtime(job) == pytest.approx(exact.runtime(job), rel=0.25)


def test_run_simulation_passes_the_fanout_to_the_engine(ring, tmp_path):
    """datasched.runner.run_simulation(ipc_fanout=2): the engine gets --ipc-fanout 2 and
    the 8-node exchange takes the closed-form 10 S / 7 GB/s."""
    import csv
    import json

    from datasched.runner import run_simulation
    from tests.conftest import TEST_DATA

    platform, ids = ring
    workload = tmp_path / "w.json"
    profile = phases_profile(8, descriptor(), [communicate(S)])
    workload.write_text(
        json.dumps(
            {"nb_res": 8, "jobs": [{"id": 0, "subtime": 0, "res": 8, "profile": "p"}], "profiles": {"p": profile}}
        )
    )
    options = {"alloc": {"0": f"{ids['node-10']}-{ids['node-17']}"}, "storage": {}, "kill_at": {}}
    result = run_simulation(
        platform,
        workload,
        str(TEST_DATA / "scriptedSched.py"),
        tmp_path / "out",
        scheduler_options=options,
        decision_timeout=60,
        traffic_policy="np",
        ipc_fanout=2,
    )
    assert result.engine_command[result.engine_command.index("--ipc-fanout") + 1] == "2"
    with open(result.jobs_csv, newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert float(row["execution_time"]) == pytest.approx(10 * S / 7 / GB, abs=TOL)
