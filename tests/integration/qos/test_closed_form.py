"""Closed-form cases of the QoS data-staging engine mode (seed 003). Notation in conftest.py;
``g`` is the arbitration granularity (a low-table flow moves in pieces of at most g bytes, each
paying the route latency 2λ)."""

from __future__ import annotations

import math

import pytest

from tests.integration.qos.conftest import LAT, MIB, MU, STAGING, L, R, S, W, staging_platform

pytestmark = pytest.mark.engine

G = 65536
# Times are written with 9 decimals: compare them to ±2 ns.


def flow(name, src, dst, nbytes, sl, start=0.0):
    return {"name": name, "src": src, "dst": dst, "bytes": nbytes, "sl": sl, "start": start}


def test_message_latency_is_route_latency_plus_size_over_bandwidth(platform, run_qos):
    """osu_latency alone: one-way time = Σ link latencies + size / bandwidth = 2λ + s / L,
    for every size (ping-pong: elapsed / (2 × iterations))."""
    sizes = [1, 4096, 1 << 20, 4 << 20]
    bench = {"kind": "latency", "hosts": ["client-0", "client-1"], "sizes": sizes, "iterations": 5, "warmup": 1}
    result = run_qos(platform, {"benchmark": bench})
    got = {int(r["size"]): float(r["latency"]) for r in result.table("benchmark")}
    for size in sizes:
        assert got[size] == pytest.approx(2 * LAT + size / L, rel=1e-6, abs=2e-9), size


def test_bandwidth_benchmark_window_then_ack(platform, run_qos):
    """osu_bw alone: a window of n messages back to back, then a 4-byte ack:
    bandwidth = n s / (n (2λ + s/L) + 2λ + 4/L)."""
    n, s = 8, 1 << 20
    bench = {"kind": "bandwidth", "hosts": ["client-0", "client-1"], "sizes": [s], "iterations": 3, "window": n}
    (row,) = run_qos(platform, {"benchmark": bench}).table("benchmark")
    expected = n * s / (n * (2 * LAT + s / L) + 2 * LAT + 4 / L)
    assert float(row["bandwidth"]) == pytest.approx(expected, rel=1e-6)


def test_two_flows_of_one_table_share_by_weight(platform, run_qos):
    """Two high-table flows of N bytes on one link (stg-0's DOWN) with VL weights 40:10: shares
    4/5 and 1/5 of L. The heavy one ends at 2λ + N / (0.8 L); the light one, alone after that,
    at 2λ + 2N / L (work-conserving). Weights are in play: the weighted solver runs."""
    n = 1e9
    doc = {
        "arbitration": {"vlarb_high": "0:40,1:10"},
        "transfers": [flow("heavy", "client-0", "stg-0", n, 0), flow("light", "client-1", "stg-0", n, 1)],
    }
    result = run_qos(platform, doc)
    ends = result.ends()
    assert ends["heavy"] == pytest.approx(2 * LAT + n / (0.8 * L), rel=1e-6)
    assert ends["light"] == pytest.approx(2 * LAT + 2 * n / L, rel=1e-6)
    assert result.table("summary")[0]["solver"] == "fair_bottleneck_weighted"


def test_low_table_weights_w1_w2(platform, run_qos):
    """The paper's low table: SL1 weight 2 against SL2 weight 4 → shares 1/3 and 2/3. With one
    piece per flow (g ≥ N), SL2's flow ends at 2λ + N / (2L/3), SL1's at 2λ + 2N / L."""
    n = 1e9
    doc = {
        "arbitration": {"granularity": 2 * n},
        "transfers": [flow("sl1", "client-0", "stg-0", n, 1), flow("sl2", "client-1", "stg-0", n, 2)],
    }
    ends = run_qos(platform, doc).ends()
    assert ends["sl2"] == pytest.approx(2 * LAT + n / (2 * L / 3), rel=1e-6)
    assert ends["sl1"] == pytest.approx(2 * LAT + 2 * n / L, rel=1e-6)


def test_each_flow_carries_its_lanes_weight(platform, run_qos):
    """Per flow, not per lane (flows.hpp): two SL1 flows (VL1, weight 2: priority 1/2) and one
    SL2 flow (VL2, weight 4: priority 1), N bytes each from three clients into stg-0, whose
    DOWN link they are all limited by: shares 1/4, 1/4, 1/2. SL2 ends at 2λ + N / (L/2) =
    2λ + 2N/L, when each SL1 flow has moved N/2; the two then share L: 2λ + 2N/L + (N/2) / (L/2)
    = 2λ + 3N/L. (Lane shares, 1/6, 1/6, 2/3, would end SL2 at 2λ + 1.5 N/L.)"""
    n = 1e9
    doc = {
        "arbitration": {"granularity": 2 * n},
        "transfers": [
            flow("sl1-a", "client-0", "stg-0", n, 1),
            flow("sl1-b", "client-1", "stg-0", n, 1),
            flow("sl2", "client-2", "stg-0", n, 2),
        ],
    }
    ends = run_qos(platform, doc).ends()
    assert ends["sl2"] == pytest.approx(2 * LAT + 2 * n / L, rel=1e-6)
    assert ends["sl1-a"] == pytest.approx(2 * LAT + 3 * n / L, rel=1e-6)
    assert ends["sl1-b"] == pytest.approx(2 * LAT + 3 * n / L, rel=1e-6)


def test_strict_priority_high_finishes_as_if_alone(platform, run_qos):
    """SL0 (high) and SL1 (low) from client-0 at t = 0, sharing client-0's UP link; the high flow
    registers first. High: 2λ + H / L, as if alone. Low: waits for it, then ⌈N/g⌉ pieces of
    2λ + g / L each. The default solver runs (one weight per table in use)."""
    h, pieces = 400e6, 100
    doc = {
        "transfers": [
            flow("high", "client-0", "client-1", h, 0),
            flow("low", "client-0", "stg-0", pieces * G, 1),
        ]
    }
    result = run_qos(platform, doc)
    ends = result.ends()
    high_end = 2 * LAT + h / L
    assert ends["high"] == pytest.approx(high_end, abs=2e-9)
    assert ends["low"] == pytest.approx(high_end + pieces * (2 * LAT + G / L), abs=2e-9)
    assert result.table("summary")[0]["solver"] == "fair_bottleneck"


def test_strict_priority_high_arriving_during_a_piece_waits_at_most_that_piece(platform, run_qos):
    """A high flow starting while a low piece is on the wire shares the link with it until the
    piece ends (no pre-emption): 2λ + H/L ≤ its time ≤ 2λ + H/L + g/L."""
    h, start = 100e6, 1e-3
    doc = {
        "transfers": [
            flow("low", "client-0", "stg-0", 1000 * G, 1),
            flow("high", "client-0", "client-1", h, 0, start=start),
        ]
    }
    took = run_qos(platform, doc).ends()["high"] - start
    alone = 2 * LAT + h / L
    assert alone - 1e-12 <= took <= alone + G / L + 1e-12
    assert took > alone + 1e-9  # this start falls inside a piece


def test_strict_priority_by_solver_priority_is_pre_emptive(platform, run_qos):
    """``across_tables: priority``: the low flow moves whole at 1e-6 of a high flow's priority.
    A high flow starting at t0 while the low one runs takes the link's share 1 / (1 + 1e-6)
    of L at once (no piece to wait for): its time is 2λ + H (1 + 1e-6) / L, below the pieces
    model's bound. The low flow, alone before t0 and after the high one, has moved at L except
    1e-6 of it during the high flow: it ends at 2λ + (N + H) / L (work-conserving), to the ns.
    The weighted solver runs (priorities are set)."""
    h, start, n = 100e6, 1e-3, 1000 * G
    doc = {
        "arbitration": {"across_tables": "priority"},
        "transfers": [
            flow("low", "client-0", "stg-0", n, 1),
            flow("high", "client-0", "client-1", h, 0, start=start),
        ],
    }
    result = run_qos(platform, doc)
    ends = result.ends()
    assert ends["high"] - start == pytest.approx(2 * LAT + h * (1 + 1e-6) / L, abs=2e-9)
    assert ends["low"] == pytest.approx(2 * LAT + (n + h) / L, abs=2e-9)
    assert result.table("summary")[0]["solver"] == "fair_bottleneck_weighted"


@pytest.mark.parametrize(
    ("high_limit", "mtu", "low_share"),
    [(3, 4096, 1 / 4), (0, 2048, 1 / 2), (1, 2048, 1 / 3)],
    ids=["3x4KiB-vs-4KiB", "one-packet-each", "4KiB-vs-2KiB"],
)
def test_bounded_high_limit_gives_the_low_table_one_packet_per_burst(platform, run_qos, high_limit, mtu, low_share):
    """A bounded qos_ca_high_limit h: the high table sends max(mtu, h x 4096) bytes, then the
    low table one packet (mtu bytes). Backlogged on one link, the low table gets
    mtu / (mtu + max(mtu, 4096 h)) of L: h = 3, mtu 4 KiB: 1/4; h = 0 (one packet each):
    1/2; h = 1, mtu 2 KiB: 2/6 = 1/3. High (H) and low (N = H) flows from client-0 at t = 0:
    the high one ends at 2λ + H / ((1 - share) L); the low one, work-conserving, at
    2λ + (H + N) / L."""
    h = 400e6
    doc = {
        "arbitration": {"high_limit": high_limit, "mtu": mtu},
        "transfers": [flow("high", "client-0", "client-1", h, 0), flow("low", "client-0", "stg-0", h, 1)],
    }
    result = run_qos(platform, doc)
    ends = result.ends()
    assert ends["high"] == pytest.approx(2 * LAT + h / ((1 - low_share) * L), abs=2e-9)
    assert ends["low"] == pytest.approx(2 * LAT + 2 * h / L, abs=2e-9)
    assert result.table("summary")[0]["solver"] == "fair_bottleneck_weighted"


def _write(nbytes, start=0.0, sl=0):
    return {"host": "client-0", "bytes": nbytes, "block_size": MIB, "sl": sl, "start": start}


def test_staging_write_then_lazy_drain_waits_for_idle(platform, run_qos):
    """One client writes k blocks of b = 1 MiB on SL0: block i is in server memory at
    i (2λ + b/L); the SSD writes them one after another from the first's arrival:
    the last is on the SSD at t_s = (2λ + b/L) + k b / W (W < L). The mover waits until the
    server has been idle τ, then drains chunks of c bytes: each an SSD read c / R, then
    port → PFS 2μ + c / S. Drained at t_s + τ + (k b / c)(c/R + 2μ + c/S)."""
    k, tau, chunk = 8, 1e-3, 4 * MIB
    doc = {
        "staging": STAGING | {"idle_seconds": tau, "drain_chunk": chunk},
        "writes": [_write(k * MIB)],
    }
    result = run_qos(platform, doc)
    (w,) = result.table("writes")
    block = 2 * LAT + MIB / L
    assert float(w["absorbed"]) == pytest.approx(k * block, abs=2e-9)
    t_ssd = block + k * MIB / W
    drained = t_ssd + tau + (k * MIB / chunk) * (chunk / R + 2 * MU + chunk / S)
    assert float(w["drained"]) == pytest.approx(drained, abs=2e-9)
    (stg,) = result.table("staging")
    assert float(stg["first_drain"]) == pytest.approx(t_ssd + tau, abs=2e-9)
    assert int(stg["chunks"]) == 2 and int(stg["forced_chunks"]) == 0
    assert float(stg["drained_bytes"]) == k * MIB and float(stg["staged_at_end"]) == 0


def test_drain_does_not_start_while_the_server_is_busy(platform, run_qos):
    """A second write (one block) arriving before the idle time pushes the drain back: it starts
    τ after the second block is on the SSD, at t2 + (2λ + b/L) + b/W + τ, where the SSD is free by
    then (t2 after the first write's last SSD write)."""
    k, tau = 8, 1e-3
    block = 2 * LAT + MIB / L
    t_ssd = block + k * MIB / W
    t2 = t_ssd + tau / 2
    doc = {
        "staging": STAGING | {"idle_seconds": tau},
        "writes": [_write(k * MIB), _write(MIB, start=t2)],
    }
    (stg,) = run_qos(platform, doc).table("staging")
    assert float(stg["first_drain"]) == pytest.approx(t2 + block + MIB / W + tau, abs=2e-9)


def test_full_staging_drains_even_when_busy(platform, run_qos):
    """Capacity 4 MiB, high watermark 0.5: a client writing 16 MiB fills it; the mover drains
    above the watermark without waiting for idleness (forced chunks), so the write completes."""
    doc = {
        "staging": STAGING | {"capacity": 4 * MIB, "high_watermark": 0.5, "drain_chunk": MIB, "idle_seconds": 1.0},
        "writes": [_write(16 * MIB)],
    }
    result = run_qos(platform, doc)
    (stg,) = result.table("staging")
    assert int(stg["forced_chunks"]) > 0
    assert float(stg["max_fill"]) <= 4 * MIB
    assert float(stg["drained_bytes"]) == 16 * MIB
    assert math.isfinite(float(result.table("writes")[0]["drained"]))


def test_stencil_iteration_is_compute_then_halo_exchange(platform, run_qos):
    """Stencil on a 3 × 1 × 1 node grid, no noise: the middle node sends h to each side on its UP
    link (L/2 each) and receives h from each side on its DOWN link: an iteration takes
    c + 2λ + 2h / L; the run k (c + 2λ + 2h / L), communication k (2λ + 2h / L)."""
    k, c, h = 5, 1e-3, 1 << 20
    bench = {
        "kind": "stencil",
        "hosts": ["client-0", "client-1", "client-2"],
        "grid": [3, 1, 1],
        "iterations": k,
        "compute_seconds": c,
        "halo_bytes": h,
    }
    (row,) = run_qos(platform, {"benchmark": bench}).table("benchmark")
    exchange = 2 * LAT + 2 * h / L
    assert float(row["runtime"]) == pytest.approx(k * (c + exchange), abs=2e-9)
    assert float(row["communication_time"]) == pytest.approx(k * exchange, abs=2e-9)


def test_cg_transpose_is_all_pairs(platform, run_qos):
    """CG on n = 3 nodes: every node sends x to each of the n − 1 others at once, so each UP and
    DOWN link carries n − 1 flows: an exchange takes 2λ + (n − 1) x / L."""
    k, x, n = 4, 150000, 3
    bench = {"kind": "cg", "hosts": ["client-0", "client-1", "client-2"], "iterations": k, "exchange_bytes": x}
    (row,) = run_qos(platform, {"benchmark": bench}).table("benchmark")
    assert float(row["communication_time"]) == pytest.approx(k * (2 * LAT + (n - 1) * x / L), abs=2e-9)


def test_bibw_both_windows_at_once(platform, run_qos):
    """osu_bibw alone: both ranks send a window of n messages at once, on disjoint links
    (A_UP → B_DOWN and B_UP → A_DOWN), then each acks the other's:
    bandwidth = 2 n s / (n (2λ + s/L) + 2λ + 4/L), twice osu_bw's."""
    n, s = 8, 1 << 20
    bench = {"kind": "bibw", "hosts": ["client-0", "client-1"], "sizes": [s], "iterations": 3, "window": n}
    (row,) = run_qos(platform, {"benchmark": bench}).table("benchmark")
    expected = 2 * n * s / (n * (2 * LAT + s / L) + 2 * LAT + 4 / L)
    assert float(row["bandwidth"]) == pytest.approx(expected, rel=1e-6)
    assert row["latency"] == ""


@pytest.mark.parametrize("n", [2, 4])
def test_alltoall_every_link_carries_n_minus_1_messages(tmp_path, run_qos, n):
    """osu_alltoall on n nodes of one switch, s bytes per ordered pair: each UP and each DOWN
    link carries n − 1 flows of s at once, so one alltoall takes 2λ + (n − 1) s / L
    (n = 2: a plain exchange, 2λ + s / L)."""
    s, k = 1 << 20, 3
    platform = staging_platform(tmp_path / "p.xml", clients=4)
    hosts = [f"client-{i}" for i in range(n)]
    bench = {"kind": "alltoall", "hosts": hosts, "sizes": [s], "iterations": k, "warmup": 1}
    (row,) = run_qos(platform, {"benchmark": bench}).table("benchmark")
    assert float(row["latency"]) == pytest.approx(2 * LAT + (n - 1) * s / L, rel=1e-6)


@pytest.mark.parametrize(
    ("algorithm", "size", "formula"),
    [
        # k = log2 4 = 2 rounds, each a pairwise exchange of the whole vector: 2 (2λ + s/L)
        ("recursive_doubling", 1 << 20, lambda s: 2 * (2 * LAT + s / L)),
        # reduce-scatter s/2, s/4, then allgather s/4, s/2: 4 × 2λ + 1.5 s / L
        ("rabenseifner", 1 << 20, lambda s: 4 * 2 * LAT + 1.5 * s / L),
        # auto: MPICH's rule, recursive doubling up to 2048 bytes, Rabenseifner above
        ("auto", 2048, lambda s: 2 * (2 * LAT + s / L)),
        ("auto", 4096, lambda s: 4 * 2 * LAT + 1.5 * s / L),
    ],
)
def test_allreduce_rounds_on_four_nodes(tmp_path, run_qos, algorithm, size, formula):
    """osu_allreduce on 4 nodes of one switch: each round is a pairwise exchange (every node
    sends one flow and receives one, on its own links), so a round of b bytes takes 2λ + b/L."""
    platform = staging_platform(tmp_path / "p.xml", clients=4)
    bench = {
        "kind": "allreduce",
        "hosts": [f"client-{i}" for i in range(4)],
        "sizes": [size],
        "iterations": 3,
        "algorithm": algorithm,
    }
    (row,) = run_qos(platform, {"benchmark": bench}).table("benchmark")
    assert float(row["latency"]) == pytest.approx(formula(size), rel=1e-6)


def test_alltoall_under_sl1_noise_meets_one_piece_per_iteration(tmp_path, run_qos):
    """Two ranks' MPI_Alltoall on SL0 (s ≥ g) while each node's dd thread streams to the staging
    server on SL1: both messages of an iteration end in one instant, which leaves the links
    without an SL0 flow for that instant, so a waiting piece of g bytes starts beside the next
    iteration's messages. The piece is held to L/2 by the server's DOWN link (two writers), the
    message gets L/2 of its UP link while the piece is in flight (2g/L), then L:
    latency = 2λ + 2g/L + (s − g)/L = 2λ + (s + g)/L — the residue is g/L per iteration."""
    s = 1 << 20
    platform = staging_platform(tmp_path / "p.xml", clients=2, ssd_write_bw=4e9)
    for g in (G, 4096):
        bench = {"kind": "alltoall", "hosts": ["client-0", "client-1"], "sizes": [s], "iterations": 5, "warmup": 1}
        doc = {
            "arbitration": {"granularity": g},
            "staging": STAGING,
            "noise": {"writers": ["client-0", "client-1"], "sl": 1, "block_size": MIB},
            "benchmark": bench | {"start": 0.001},
        }
        (row,) = run_qos(platform, doc, name=f"g{g}").table("benchmark")
        assert float(row["latency"]) == pytest.approx(2 * LAT + (s + g) / L, rel=1e-6), g
