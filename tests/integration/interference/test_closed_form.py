"""Closed-form cases of the storage-daemon interference engine mode (seed 004).

Notation: a node has ``C`` cores of speed ``s`` (flop/s); the HPL-like job computes ``F``
flops per node and iteration, split over its ``C`` rank threads; a storage service thread
spends ``W`` flops on the node (``W = r·flops_per_request + b·flops_per_byte`` for ``r``
requests carrying ``b`` bytes).

SimGrid's sharing here — under both of the mode's models (``simgrid_model``: ptask_L07 with
its fair-bottleneck solver, or Cas01 CPU and CM02 network; every case runs under each): each
of the ``C + k`` threads on a node (``C`` ranks, ``k`` service threads) gets ``C·s/(C + k)``
flop/s while they all run (each thread is also capped at one core, ``s``). The node's CPU is never
idle while there is work, so the rank threads finish exactly when all the work of the node,
``F + W``, is done at ``C·s``: the iteration lasts ``(F + W)/(C·s)`` — later by exactly
``W/(C·s)`` — provided the service work ends before the ranks' (it does in every case below:
a service thread works at ``C·s/(C+k)``, much faster than it needs to).
"""

from __future__ import annotations

import pytest

from tests.integration.interference.conftest import ondemand_platform

pytestmark = pytest.mark.engine


@pytest.fixture(params=["ptask_L07", "cas01_cm02"])
def model(request):
    """Each case under each of the engine's SimGrid models (sim/src/interference/README.md)."""
    return request.param


S = 1e9  # flop/s per core
LINK = 12.5e9  # B/s per NIC direction (EDR)
LAT = 1e-6  # per NIC: a host-to-host route has latency 2·LAT


def _platform(tmp_path, cores, nodes=4):
    return ondemand_platform(tmp_path / f"p{cores}.xml", nodes=nodes, pfs_servers=1, cores=cores, speed=S)


def _experiment(hpl_hosts, *, model, flops, iterations=1, ior=None, storage=(), metadata=(), costs=None, **services):
    doc = {
        "simgrid_model": model,
        "hpl": {"hosts": list(hpl_hosts), "iterations": iterations, "flops_per_iteration": flops},
        "services": {"storage": list(storage), "metadata": list(metadata)} | services,
        "daemon_costs": costs or {},
    }
    if ior:
        doc["ior"] = ior
    return doc


@pytest.mark.parametrize("cores", [1, 4])
@pytest.mark.parametrize("batch", [1, 4])
def test_served_bytes_delay_compute_by_exactly_the_daemon_work(tmp_path, run_interference, model, cores, batch):
    """One IOR process on node-1 writes 4 requests of b/4 bytes to the storage target on the
    HPL node node-0 (metadata on node-2, costs nothing). W = 4·c_req + b·c_byte;
    HPL makespan = (F + W)/(C·s), whether the 4 requests are simulated one by one or as one
    batch."""
    platform = _platform(tmp_path, cores)
    b, c_byte, c_req, F = 4_000_000, 25.0, 1e6, 4e9 * cores
    doc = _experiment(
        ["node-0"],
        model=model,
        flops=F,
        ior={
            "hosts": ["node-1"],
            "transfer_size": b // 4,
            "requests_per_process": 4,
            "requests_per_batch": batch,
        },
        storage=["node-0"],
        metadata=["node-2"],
        chunk_size=b,
        costs={"flops_per_byte": c_byte, "flops_per_request": c_req},
    )
    result = run_interference(platform, doc)
    W = 4 * c_req + b * c_byte
    assert result.makespan() == pytest.approx((F + W) / (cores * S), rel=1e-9)
    (storage, _) = result.table("services")
    assert int(storage["requests"]) == 4 and int(storage["bytes"]) == b
    assert float(storage["request_flops"]) == pytest.approx(W)
    alone = run_interference(platform, doc | {"ior": doc["ior"] | {"hosts": []}}, name="alone")
    assert alone.makespan() == pytest.approx(F / (cores * S), rel=1e-12)


def test_metadata_operations_cost_the_metadata_host(tmp_path, run_interference, model):
    """The metadata service on the HPL node: the file's creation (1 operation) plus
    4 requests x 0.5 operations = 3 operations of c_md flops: makespan (F + 3·c_md)/(C·s);
    the storage target (node-2) is off the HPL node and costs it nothing."""
    cores, F, c_md = 4, 8e9, 1e8
    doc = _experiment(
        ["node-0"],
        model=model,
        flops=F,
        ior={"hosts": ["node-1"], "transfer_size": 1000, "requests_per_process": 4, "metadata_ops_per_request": 0.5},
        storage=["node-2"],
        metadata=["node-0"],
        chunk_size=1000,
        costs={"flops_per_metadata_op": c_md},
    )
    result = run_interference(_platform(tmp_path, cores), doc)
    assert result.makespan() == pytest.approx((F + 3 * c_md) / (cores * S), rel=1e-9)
    md = next(r for r in result.table("services") if r["service"] == "metadata")
    assert float(md["metadata_ops"]) == 3


def test_iteration_is_bound_by_its_slowest_node(tmp_path, run_interference, model):
    """HPL on node-0 and node-1, 2 iterations, ring exchange of B bytes per node and
    iteration. Three IOR processes on node-2 write one request each (stripe_count 1: file
    f on target f mod 2), so node-0's service does 2W and node-1's W, both in the first
    iteration. Iteration 1 lasts (F + 2W)/(C·s) (node-0, the slowest), iteration 2 F/(C·s);
    each ring step costs 2λ + B/L (node-0 -> node-1 and node-1 -> node-0 on separate NIC
    directions): makespan = (2F + 2W)/(C·s) + 2(2λ + B/L)."""
    cores, F, b, c_byte, B = 4, 8e9, 1_000_000, 100.0, 50_000_000
    doc = _experiment(
        ["node-0", "node-1"],
        model=model,
        flops=F,
        iterations=2,
        ior={"hosts": ["node-2"], "processes_per_node": 3, "transfer_size": b, "requests_per_process": 1},
        storage=["node-0", "node-1"],
        metadata=["node-3"],
        stripe_count=1,
        chunk_size=b,
        costs={"flops_per_byte": c_byte},
    )
    doc["hpl"]["bytes_per_iteration"] = B
    result = run_interference(_platform(tmp_path, cores), doc)
    W = b * c_byte
    ring = 2 * LAT + B / LINK
    assert result.makespan() == pytest.approx((2 * F + 2 * W) / (cores * S) + 2 * ring, rel=1e-6)
    first, second = result.table("iterations")
    assert first["slowest_host"] == "node-0"
    assert float(first["compute_end"]) - float(first["start"]) == pytest.approx((F + 2 * W) / (cores * S), rel=1e-9)
    assert float(second["compute_end"]) - float(second["start"]) == pytest.approx(F / (cores * S), rel=1e-9)


def test_idle_overhead_aligned(tmp_path, run_interference, model):
    """Idle services, bursts aligned at 0, P, 2P...: each burst of r·P flops delays the node
    by r·P/(C·s). F = 40e9 on 4 x 1e9 (10 s alone), r = 1e8/s, P = 1 s: k bursts start
    before the end T = (F + k·r·P)/(C·s) -> k = 11 (at 0..10 s), T = 10.275 s. Two HPL
    nodes each with their own idle service: aligned bursts cost the same as one node's."""
    cores, F = 4, 40e9
    costs = {"idle_flops_per_second": 1e8, "idle_period": 1.0, "idle_phase": "aligned"}
    one = run_interference(
        _platform(tmp_path, cores),
        _experiment(["node-0"], model=model, flops=F, storage=["node-0"], costs=costs),
        name="one",
    )
    assert one.makespan() == pytest.approx(10.275, rel=1e-9)
    two = run_interference(
        _platform(tmp_path, cores),
        _experiment(
            ["node-0", "node-1"], model=model, flops=F / 10, iterations=10, storage=["node-0", "node-1"], costs=costs
        ),
        name="two",
    )
    assert two.makespan() == pytest.approx(10.275, rel=1e-9)


def test_unaligned_idle_noise_grows_with_the_number_of_nodes(tmp_path, run_interference, model):
    """Random phases: each iteration waits for every node that had a burst during it, so
    with more nodes more iterations are hit. Bounds: one node -> at least the aligned
    cost of its bursts; 16 nodes -> at least one node's cost and at most
    iterations x (one burst delay) more than alone; and strictly more than one node."""
    cores, F, iterations = 4, 4e8, 100  # 0.1 s per iteration alone, 10 s in all
    costs = {"idle_flops_per_second": 1e7, "idle_period": 1.0}  # bursts of 1e7 flops: 2.5 ms each
    platform = _platform(tmp_path, cores, nodes=16)
    makespans = {}
    for n in (1, 16):
        hosts = [f"node-{i:02d}" for i in range(n)]  # 16 nodes: two-digit names
        doc = _experiment(hosts, model=model, flops=F, iterations=iterations, storage=hosts, costs=costs) | {"seed": 3}
        makespans[n] = run_interference(platform, doc, name=f"n{n}").makespan()
    burst_delay = 1e7 / (cores * S)
    alone = iterations * F / (cores * S)
    assert makespans[1] >= alone + 10 * burst_delay * (1 - 1e-9)
    assert makespans[16] > makespans[1] * (1 + 1e-6)
    assert makespans[16] <= alone + iterations * burst_delay * (1 + 1e-9)
