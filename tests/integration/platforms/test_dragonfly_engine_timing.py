"""Closed-form timings of minimal and Valiant dragonfly routing through the engine: jobs whose
`parallel` profile moves bytes between nodes, started by a scripted decision process. The
routes are worked out by hand in tests/unit/platforms/test_dragonfly_routing.py; SimGrid does
the sharing (ptask_L07: a parallel task pays its longest route's latency, then its flows
advance together at the rate its busiest link allows)."""

from __future__ import annotations

import json
import subprocess

import pytest

from datasched.engine import find_engine
from datasched.platforms import DragonflyParams, InterconnectParams, SystemParams, generate, naming, write
from datasched.platforms import dragonfly as df

pytestmark = pytest.mark.engine

BW = 1e9
TOL = 1e-6


def platform(tmp_path, routing: str, a: int, seed: int = 1, lat: float = 0.0):
    """(p, a, h) = (1, a, 1): a + 1 groups of a routers, one node per router (rank = g * a + r)."""
    topology = DragonflyParams(p=1, a=a, h=1, routing=routing, routing_seed=seed)
    params = SystemParams(
        name=f"df-{routing}", interconnect=InterconnectParams(topology=topology, link_bw=BW, link_lat=lat)
    )
    path = write(generate(params), tmp_path / f"{routing}-{a}-{seed}.xml")
    out = subprocess.run([str(find_engine()), "-p", str(path), "--inspect"], capture_output=True, text=True, check=True)
    ids = {h["name"]: h["id"] for h in json.loads(out.stdout)["hosts"]}
    return path, [ids[naming.node_name(rank, topology.node_count)] for rank in range(topology.node_count)]


def run_flows(scripted, path, ids, flows, nbytes) -> float:
    """One job on the hosts of ``flows`` (rank pairs), each pair moving ``nbytes`` from the
    first to the second, as one parallel task; returns its execution time."""
    hosts = sorted({rank for pair in flows for rank in pair})
    com = [0.0] * (len(hosts) ** 2)
    for src, dst in flows:
        com[hosts.index(src) * len(hosts) + hosts.index(dst)] = nbytes
    rows = scripted(
        [{"id": 0, "subtime": 0, "res": len(hosts), "profile": "t"}],
        {"t": {"type": "parallel", "cpu": [0] * len(hosts), "com": com}},
        platform=path,
        alloc={"0": " ".join(str(ids[rank]) for rank in hosts)},
    )
    return float(rows["0"]["execution_time"])


def test_single_flow_pays_3_links_minimal_and_7_valiant(scripted, tmp_path):
    """3 groups, 0.1 ms per link: node 0 (group 0) to node 2 (group 1), 1 GB at 1 GB/s:
    minimal = 3 links -> 1 s + 0.3 ms; Valiant (via group 2) = 7 links -> 1 s + 0.7 ms.
    (SimGrid also caps a flow at TCP-gamma / (2 x route latency) = 4 MiB / 1.4 ms = 3 GB/s,
    above the 1 GB/s links: longer latencies would make that cap the bottleneck.)"""
    times = {}
    for routing in ("minimal", "valiant"):
        path, ids = platform(tmp_path, routing, a=2, lat=1e-4)
        times[routing] = run_flows(scripted, path, ids, [(0, 2)], 1e9)
    assert times["minimal"] == pytest.approx(1.0 + 3e-4, abs=TOL)
    assert times["valiant"] == pytest.approx(1.0 + 7e-4, abs=TOL)


def _seed_with_two_intermediates() -> int:
    """The first seed for which the router pairs (g0 r0, g1 r0) and (g0 r1, g1 r1) of the
    4-group (1,3,1) dragonfly draw different intermediate groups (2 and 3 in some order)."""
    for seed in range(100):
        if df.valiant_intermediate((0, 0), (1, 0), 4, seed) != df.valiant_intermediate((0, 1), (1, 1), 4, seed):
            return seed
    raise AssertionError("no seed in 0..99 separates the two router pairs")


def test_two_flows_between_two_groups_share_one_global_link_minimally_and_none_with_valiant(scripted, tmp_path):
    """(1,3,1): 4 groups of 3 routers, no latency. Flows g0 r0 -> g1 r0 and g0 r1 -> g1 r1,
    1 GB each, in one parallel task. Minimal: both cross global link g0-g1 (1 GB/s shared)
    -> 2 GB / 1 GB/s = 2 s. Valiant with intermediates 2 and 3: g0 r0 -> g1 r0 is
    local(g0 r0-r1), global(g0-g2), local(g2 r0-r1), global(g2-g1), local(g1 r1-r0) and the
    other flow uses local(g0 r1-r2), global(g0-g3), local(g3 r0-r1), global(g3-g1),
    local(g1 r2-r1) (or the mirror assignment, also disjoint): no link is shared -> 1 s."""
    seed = _seed_with_two_intermediates()
    flows = [(0, 3), (1, 4)]  # ranks: g * 3 + r
    times = {}
    for routing in ("minimal", "valiant"):
        path, ids = platform(tmp_path, routing, a=3, seed=seed)
        times[routing] = run_flows(scripted, path, ids, flows, 1e9)
    assert times["minimal"] == pytest.approx(2.0, abs=TOL)
    assert times["valiant"] == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize("routing", ["minimal", "valiant"])
@pytest.mark.parametrize("pattern", ["D", "A", "As"])
@pytest.mark.parametrize(("remote", "op"), [(100, "read"), (50, "read"), (50, "write")])
def test_fig6_io_phase_takes_its_busiest_link(scripted, routing, pattern, remote, op):
    """Figure 6's explanation checked through the engine: one I/O phase of 72 tasks, STG-64,
    0 % memory hits, 1.25 GB per task, on the catalog's 72-node dragonfly (Valiant seed 1, or
    the minimal copy); Disperse and Affinity on the first 64 nodes, Affinity with each device
    on its group's first task ("As"). max over links (bytes / capacity), as
    analysis/seed000/fig6/links.py computes it from the routes counting the local tier's
    bytes on each NVM link, bounds its time from below, and is its time when the local and
    remote tiers do not both crowd the busiest link: e.g. minimal D at 100 % remote,
    1.125 x 1.25 GB through a device's node link = 1.125 s; minimal As at 50 % remote, a
    2-task group's device reads 0.5 + 0.5 (its own task) + 0.5 (the other) = 1.5 x 1.25 GB
    at 2 GB/s = 0.9375 s. Otherwise the two tiers (two parallel tasks, each advancing all its
    flows at one rate) leave the busiest link idle for a while: measured up to 3 % above the
    bound (D at 50 % remote). The route latency (< 10 us) is within the tolerance."""
    from datasched.analysis.seed000.fig6 import links
    from datasched.platforms.catalog import catalog_path

    name = "seed000-dragonfly-2-4-2-unified" if routing == "valiant" else "seed000-dragonfly-2-4-2-minimal-unified"
    path = catalog_path(name)
    out = subprocess.run([str(find_engine()), "-p", str(path), "--inspect"], capture_output=True, text=True, check=True)
    ids = {h["name"]: h["id"] for h in json.loads(out.stdout)["hosts"]}
    access = "disperse" if pattern == "D" else "affinity"
    placement = "spread" if pattern == "As" else "first"
    profile = {
        "type": "datasched_phases",
        "version": 1,
        "res": 72,
        "io_tasks": 72,
        "storage": {
            "allocation": "internal",
            "stg_k": 64,
            "mem_hit_pct": 0,
            "remote_pct": remote,
            "access": access,
            "san_k": 4,
        },
        "phases": [{"kind": op, "bytes": 1.25e9, "nominal_seconds": 1.0}],
    }
    devices = [ids[naming.nvm_name(naming.node_name(rank, 72))] for rank in links.device_nodes(64, 72, placement)]
    rows = scripted(
        [{"id": 0, "subtime": 0, "res": 72, "profile": "r"}],
        {"r": profile},
        platform=path,
        alloc={"0": " ".join(str(ids[naming.node_name(rank, 72)]) for rank in range(72))},
        storage={"0": {"devices": devices, "access": access}},
    )
    bound = links.bottleneck(links.phase_loads(64, access, placement, remote / 100, op, routing), op).time
    measured = float(rows["0"]["execution_time"])
    assert bound - 1e-5 <= measured <= 1.04 * bound
    if pattern != "D" or remote == 100:
        assert measured == pytest.approx(bound, abs=1e-5)
    if (routing, pattern, remote, op) == ("minimal", "D", 100, "read"):
        assert measured == pytest.approx(1.125, abs=1e-5)
    if (routing, pattern, remote, op) == ("minimal", "As", 50, "read"):
        assert measured == pytest.approx(0.9375, abs=1e-5)
