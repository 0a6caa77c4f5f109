"""Traffic classes against closed-form dates, through the engine: NP, BA:X, FP and
weights on the activity shapes that matter (one flow per class, a 3-flow IPC activity,
striped storage, a chain of single-flow activities of unequal weights), each with no
link latency and with 1 ms on the contended links, in both sharing modes.

The rule every formula follows (execution/traffic.hpp): the units limited by one link
share it in proportion to their weights. A unit is an activity (``--sharing activity``,
the default: a phase's flows of one tier together) or a flow (``--sharing flow``). Under
NP every unit weighs the same, so a class's part of a link is its number of units there
over the total; under ba:X / fp / weights the classes get X : 100 - X, 1e6 : 1, A : B,
each class's part split equally among its units there. A latency lambda common to every
route is paid first by every activity, so each date is lambda + its latency-free value
(1 GB flows and lambda = 1 ms keep L07's TCP-gamma bound, 4 MiB / (2 lambda bytes),
above 2 GB/s, so it never binds). FP's 1e6:1 leaves storage 1e-6 of the link:
tolerances of 1e-5 s.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.storage.conftest import (
    GB,
    communicate,
    descriptor,
    dumbbell_platform,
    line_platform,
    phases_profile,
    read,
    resource_ids,
)

pytestmark = pytest.mark.engine
TOL = 1e-5
LATENCIES = [0.0, 1e-3]
POLICIES = ["np", "ba:75", "fp", "weights:ipc=1,storage=3"]


def shares(policy: str, ipc_units: int = 1, storage_units: int = 1) -> tuple[float, float]:
    """(IPC class's part, storage class's part) of a link carrying ``ipc_units`` IPC and
    ``storage_units`` storage units (activities or flows, by sharing mode)."""
    if policy == "np":
        total = ipc_units + storage_units
        return ipc_units / total, storage_units / total
    if policy == "fp":
        return 1e6 / (1e6 + 1), 1 / (1e6 + 1)
    if policy.startswith("ba:"):
        x = float(policy[3:]) / 100
        return x, 1 - x
    weights = dict(item.split("=") for item in policy.split(":")[1].split(","))
    ipc, storage = float(weights["ipc"]), float(weights["storage"])
    return ipc / (ipc + storage), storage / (ipc + storage)


def two_on_one_link(ipc_bytes: float, storage_bytes: float, parts: tuple[float, float]) -> tuple[float, float]:
    """The IPC and storage classes move ``ipc_bytes`` and ``storage_bytes`` over one
    1 GB/s link with parts (a, b) of it (each class's units symmetric, each alone
    elsewhere): the first class to finish does at bytes / (part x 1 GB/s); the other has
    moved part x that time and moves the rest alone at 1 GB/s."""
    a, b = parts
    t_ipc, t_sto = ipc_bytes / (a * GB), storage_bytes / (b * GB)
    if t_ipc <= t_sto:
        return t_ipc, t_ipc + (storage_bytes - b * GB * t_ipc) / GB
    return t_sto + (ipc_bytes - a * GB * t_sto) / GB, t_sto


@pytest.fixture(params=["activity", "flow"])
def sharing(request) -> str:
    return request.param


def units(sharing: str, ipc_flows: int, storage_flows: int) -> tuple[int, int]:
    """Units of each class on the contended link: one activity each, or their flows."""
    return (1, 1) if sharing == "activity" else (ipc_flows, storage_flows)


@pytest.fixture(scope="module", params=LATENCIES, ids=lambda lat: f"lat{lat:g}")
def dumbbell4(request, tmp_path_factory, engine):
    """The dumbbell with 4 nodes a side and ``mid`` latency 0 or 1 ms."""
    lat = request.param
    path = dumbbell_platform(tmp_path_factory.mktemp("db") / "db.xml", side=4, mid_latency=lat)
    return path, resource_ids(engine, path), lat


@pytest.fixture(scope="module", params=LATENCIES, ids=lambda lat: f"lat{lat:g}")
def chain(request, tmp_path_factory, engine):
    """A line of 4 links (1 GB/s, 0 or 1 ms each): a0 at S0, bn at S1, a1 and c0 at S2,
    b at S3, c1 at S4. Flows: a0 <-> a1 cross c1, c2; bn's NVM -> b crosses c2, c3;
    c0 <-> c1 cross c3, c4. So A (IPC) and B (storage) share c2 UP, B and C (IPC) c3 UP."""
    lat = request.param
    positions = {"a0": 0, "bn": 1, "a1": 2, "c0": 2, "b": 3, "c1": 4}
    path = line_platform(tmp_path_factory.mktemp("line") / "line.xml", positions, latency=lat)
    return path, resource_ids(engine, path), lat


def ipc_profile(nodes: int, nbytes: float) -> dict:
    return phases_profile(nodes, descriptor(), [communicate(nbytes)])


def storage_profile(nbytes: float) -> dict:
    return phases_profile(1, descriptor("external", remote=100), [read(nbytes)])


def run_pair(run_phases, platform, ids, policy, sharing, ipc_nodes, reader, devices, ipc_bytes, storage_bytes):
    """Job 0: an all-to-all among ``ipc_nodes`` in which each node sends ``ipc_bytes``
    (split evenly over the others: workloads/README.md); job 1 on
    ``reader`` reads ``storage_bytes`` striped over the NVMs of ``devices``."""
    jobs = [
        {"id": 0, "subtime": 0, "res": len(ipc_nodes), "profile": "ipc"},
        {"id": 1, "subtime": 0, "res": 1, "profile": "io"},
    ]
    profiles = {"ipc": ipc_profile(len(ipc_nodes), ipc_bytes), "io": storage_profile(storage_bytes)}
    r = run_phases(
        platform,
        jobs,
        profiles,
        policy=policy,
        alloc={"0": " ".join(str(ids[n]) for n in ipc_nodes), "1": str(ids[reader])},
        storage={"1": {"devices": [ids[f"{d}-nvm"] for d in devices]}},
        engine_args=["--sharing", sharing],
    )
    assert {r.jobs[j]["final_state"] for j in ("0", "1")} == {"COMPLETED_SUCCESSFULLY"}
    return r


@pytest.mark.parametrize("policy", POLICIES)
def test_one_flow_per_class(run_phases, dumbbell4, policy, sharing):
    """IPC L0 <-> R0 (1 GB each way; L0 -> R0 on mid UP) and a read of 2 GB by R1 from
    L1's NVM (mid UP), one flow each there: two_on_one_link(1 GB, 2 GB, shares(policy)).
    NP: 2 s / 3 s; BA:75: 4/3 s / 3 s; FP: ~1 s / 3 s; weights 1:3: IPC 3 s, storage
    8/3 s. Plus the latency; the same in both sharing modes."""
    platform, ids, lat = dumbbell4
    r = run_pair(run_phases, platform, ids, policy, sharing, ["L0", "R0"], "R1", ["L1"], 1 * GB, 2 * GB)
    expected = two_on_one_link(1 * GB, 2 * GB, shares(policy))
    assert (r.runtime("0"), r.runtime("1")) == pytest.approx(tuple(lat + t for t in expected), abs=TOL)
    assert r.io["1"]["remote_nvm_bytes"] == 2 * GB


@pytest.mark.parametrize("policy", POLICIES)
def test_three_flow_ipc_activity_against_storage(run_phases, dumbbell4, policy, sharing):
    """IPC among L0, L1, L2, R0 (each node sends 3 GB, 1 GB to each other node): three
    flows L_i -> R0 cross mid UP
    (3 GB; the other flows are alone or on 100 GB/s links); storage: R1 reads 2 GB from
    L3's NVM. two_on_one_link(3 GB, 2 GB, parts), parts by units: activity mode NP
    5 s / 4 s (one share each); flow mode NP 4 s / 5 s (3 IPC flows against 1); BA:75
    4 s / 5 s and FP ~3 s / 5 s in both."""
    platform, ids, lat = dumbbell4
    r = run_pair(run_phases, platform, ids, policy, sharing, ["L0", "L1", "L2", "R0"], "R1", ["L3"], 3 * GB, 2 * GB)
    expected = two_on_one_link(3 * GB, 2 * GB, shares(policy, *units(sharing, 3, 1)))
    assert (r.runtime("0"), r.runtime("1")) == pytest.approx(tuple(lat + t for t in expected), abs=TOL)


@pytest.mark.parametrize("policy", POLICIES)
def test_striped_storage_against_ipc(run_phases, dumbbell4, policy, sharing):
    """Storage striped over two NVMs (L1's and L2's, 1 GB each of a 2 GB read by R1):
    two storage flows on mid UP; IPC L0 <-> R0, 1 GB. two_on_one_link(1 GB, 2 GB, parts):
    activity mode NP 2 s / 3 s; flow mode NP 3 s / 3 s (1 IPC flow against 2). SimGrid
    3.32's BMF aborted on this shape."""
    platform, ids, lat = dumbbell4
    r = run_pair(run_phases, platform, ids, policy, sharing, ["L0", "R0"], "R1", ["L1", "L2"], 1 * GB, 2 * GB)
    expected = two_on_one_link(1 * GB, 2 * GB, shares(policy, *units(sharing, 1, 2)))
    assert (r.runtime("0"), r.runtime("1")) == pytest.approx(tuple(lat + t for t in expected), abs=TOL)
    assert r.io["1"]["remote_nvm_bytes"] == 2 * GB


@pytest.mark.parametrize("policy", POLICIES)
def test_chain_of_single_flow_activities_with_unequal_weights(run_phases, chain, policy, sharing):
    """A (IPC a0 <-> a1) and B (storage, b reads 1 GB from bn's NVM) share c2; B and C
    (IPC c0 <-> c1) share c3; 1 GB per flow; the route latency is 2 lambda for every flow.
    Each link splits a : b between an IPC unit and B (shares()), B is limited to b on
    both, so A and C end at 1 / a s and B at two_on_one_link(1 GB, 1 GB)'s storage date.
    NP: 2 / 2 / 2 s; BA:75: 4/3, 2, 4/3 s; FP: ~1, 2, ~1 s; weights 1:3: 2, 4/3, 2 s; the
    same in both modes (one flow per unit on c2 and c3). SimGrid 3.32's BMF found no
    allocation for this shape with unequal weights."""
    platform, ids, lat = chain
    jobs = [
        {"id": 0, "subtime": 0, "res": 2, "profile": "ipc"},
        {"id": 1, "subtime": 0, "res": 1, "profile": "io"},
        {"id": 2, "subtime": 0, "res": 2, "profile": "ipc"},
    ]
    profiles = {"ipc": ipc_profile(2, 1 * GB), "io": storage_profile(1 * GB)}
    alloc = {"0": f"{ids['a0']} {ids['a1']}", "1": str(ids["b"]), "2": f"{ids['c0']} {ids['c1']}"}
    r = run_phases(
        platform,
        jobs,
        profiles,
        policy=policy,
        alloc=alloc,
        storage={"1": {"devices": [ids["bn-nvm"]]}},
        engine_args=["--sharing", sharing],
    )
    ipc, storage = two_on_one_link(1 * GB, 1 * GB, shares(policy))
    expected = (2 * lat + ipc, 2 * lat + storage, 2 * lat + ipc)
    assert (r.runtime("0"), r.runtime("1"), r.runtime("2")) == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("policy", ["ba:50", "weights:ipc=2,storage=2"])
def test_even_weights_are_np(run_phases, dumbbell4, policy):
    """Equal class weights on a link with one activity of each class: the NP dates
    (two_on_one_link(1 GB, 2 GB, (1/2, 1/2)) = 2 s / 3 s)."""
    platform, ids, lat = dumbbell4
    r = run_pair(run_phases, platform, ids, policy, "activity", ["L0", "R0"], "R1", ["L1"], 1 * GB, 2 * GB)
    assert (r.runtime("0"), r.runtime("1")) == pytest.approx((lat + 2.0, lat + 3.0), abs=TOL)


# ---- properties over random pairs ----------------------------------------------------------


@pytest.fixture(scope="module")
def dumbbell_no_latency(tmp_path_factory, engine):
    path = dumbbell_platform(tmp_path_factory.mktemp("dbp") / "db.xml", side=4)
    return path, resource_ids(engine, path)


@st.composite
def ipc_against_storage(draw):
    """An IPC all-to-all among 1-3 left nodes and R0 (each sends 0.1-2 GB) and a read of
    0.1-4 GB by R1 striped over 1-2 left NVMs, and a policy that favours IPC (ba:X with
    X >= 50, fp, or weights with ipc >= storage)."""
    lefts = draw(st.lists(st.sampled_from(["L0", "L1", "L2", "L3"]), min_size=1, max_size=3, unique=True))
    devices = draw(st.lists(st.sampled_from(["L0", "L1", "L2", "L3"]), min_size=1, max_size=2, unique=True))
    ipc_bytes = draw(st.floats(0.1, 2.0)) * GB
    storage_bytes = draw(st.floats(0.1, 4.0)) * GB
    policy = draw(
        st.one_of(
            st.integers(50, 99).map(lambda x: f"ba:{x}"),
            st.just("fp"),
            st.tuples(st.integers(1, 9), st.integers(0, 9)).map(lambda t: f"weights:ipc={t[0] + t[1]},storage={t[0]}"),
        )
    )
    return sorted(lefts) + ["R0"], devices, ipc_bytes, storage_bytes, policy


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=ipc_against_storage())
def test_favouring_ipc_never_delays_it_and_conserves_bytes(run_phases, dumbbell_no_latency, case):
    """Alone with one storage activity, an IPC activity given at least half of every link
    they share (activity mode: ba:X with X >= 50, weights ipc >= storage, fp) never ends
    later than under NP, where it gets exactly half; in flow mode only fp guarantees it
    (NP there gives IPC k / (k + m) of a link, which may exceed X %). Every byte asked is
    moved in both runs."""
    nodes, devices, ipc_bytes, storage_bytes, policy = case
    for sharing in ("activity", "flow"):
        if sharing == "flow" and policy != "fp":
            continue
        platform, ids = dumbbell_no_latency
        runs = {
            p: run_pair(run_phases, platform, ids, p, sharing, nodes, "R1", devices, ipc_bytes, storage_bytes)
            for p in ("np", policy)
        }
        assert runs[policy].runtime("0") <= runs["np"].runtime("0") + 1e-6, (sharing, runs)
        for r in runs.values():
            assert r.io["0"]["network_bytes"] == pytest.approx(len(nodes) * ipc_bytes, rel=1e-9)
            assert r.io["1"]["remote_nvm_bytes"] + r.io["1"]["local_nvm_bytes"] == pytest.approx(
                storage_bytes, rel=1e-9
            )
