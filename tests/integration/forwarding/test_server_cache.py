"""Closed forms of the data servers' memory cache (sim/src/services/server_cache.hpp):
write-behind and read-ahead, and of HBRR's aggregation of contiguous requests.

Notation as tests/integration/forwarding/test_closed_form.py: ``L`` NIC bandwidth, ``λ`` per-NIC
latency, ``B`` the HDD bandwidth, ``M`` the server's memory bandwidth, ``S`` the request size,
``c`` the control message size, ``D`` the dirty threshold, ``W`` the read-ahead window.
"""

from __future__ import annotations

import math

import pytest

from tests.integration.forwarding.conftest import app, experiment, forwarding_platform

pytestmark = pytest.mark.engine

L = 1.25e9
LAT = 10e-6
B = 100e6
M = 10e9
S = 1_000_000
C = 1
FAST = 1e12  # a network too fast to matter next to the disks (λ = 0)


def _cache(**fields) -> dict:
    return {"memory_bandwidth": M} | fields


def _with_cache(doc: dict, **fields) -> dict:
    doc["servers"]["cache"] = _cache(**fields)
    return doc


@pytest.fixture
def one_of_each(tmp_path):
    return forwarding_platform(
        tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_bw=L, link_lat=LAT, hdd_read_bw=B, hdd_write_bw=B
    )


@pytest.fixture
def fast_network(tmp_path):
    return forwarding_platform(
        tmp_path / "fast.xml",
        clients=1,
        forwarders=1,
        servers=1,
        link_bw=FAST,
        link_lat=0,
        hdd_read_bw=B,
        hdd_write_bw=B,
    )


def test_one_write_below_the_dirty_threshold_completes_at_memory_speed(one_of_each, run_forwarding):
    """One write of S < D through one forwarder: the disk step is a copy into the server's
    memory (S/M) instead of the HDD write (S/B): T = 8λ + 2S/L + S/M + 2c/L. Without
    write-behind the same write takes S/B there (the closed form of test_closed_form.py)."""
    doc = _with_cache(experiment(applications=[app()]), write_behind=4 * S)
    result = run_forwarding(one_of_each, doc)
    assert result.makespan() == pytest.approx(8 * LAT + 2 * S / L + S / M + 2 * C / L, rel=1e-6)
    (server,) = result.table("servers")
    assert int(server["requests"]) == 1 and int(server["cache_hits"]) == 1
    plain = run_forwarding(one_of_each, experiment(applications=[app()]), name="plain")
    assert plain.makespan() == pytest.approx(8 * LAT + 2 * S / L + S / B + 2 * C / L, rel=1e-6)


@pytest.mark.parametrize("k", [2, 4])
def test_a_write_stream_beyond_the_threshold_settles_at_the_hdd_rate(fast_network, run_forwarding, k):
    """One process writes N = 20 requests of S straight to one server with D = k·S (direct
    mode, λ = 0). The first k writes are admitted at once and copied (S/M each); one flusher
    writes the dirty requests to the HDD one at a time (S/B each) from the end of the first
    copy on, and write j > k is admitted when flush j − k ends. So the last write is admitted
    at S/L + S/M + (N − k)·S/B, copied and acknowledged:
    T = S/L + 2·S/M + (N − k)·S/B + c/L — the stream runs at the HDD rate once the cache is full.
    (The flusher never idles when a copy is shorter than k − 1 flushes: S/M ≤ (k − 1)·S/B, k ≥ 2.)"""
    n = 20
    doc = _with_cache(
        experiment(mode="direct", applications=[app(bytes_per_process=n * S, request_size=S)]), write_behind=k * S
    )
    result = run_forwarding(fast_network, doc)
    expected = S / FAST + 2 * S / M + (n - k) * S / B + C / FAST
    assert result.makespan() == pytest.approx(expected, rel=1e-6)
    (server,) = result.table("servers")
    assert int(server["cache_hits"]) == n  # every write was acknowledged from memory
    assert int(server["device_requests"]) >= n - k  # the flushes that had ended (the run stops at the last ack)


def test_a_write_larger_than_the_threshold_goes_through_to_the_hdd(fast_network, run_forwarding):
    """S > D: the write cannot be cached; it is an HDD write, T = S/L + S/B + c/L (λ = 0)."""
    doc = _with_cache(experiment(mode="direct", applications=[app()]), write_behind=S // 2)
    result = run_forwarding(fast_network, doc)
    assert result.makespan() == pytest.approx(S / FAST + S / B + C / FAST, rel=1e-6)
    (server,) = result.table("servers")
    assert int(server["cache_hits"]) == 0 and int(server["device_requests"]) == 1


@pytest.mark.parametrize("window", [4 * S, S])
def test_read_ahead_issues_ceil_ks_over_w_device_reads(fast_network, run_forwarding, window):
    """One process reads k = 10 sequential requests of S from one server (direct, λ = 0) with
    read-ahead window W (a multiple of S): a miss reads W from the HDD (W/B) and the next W/S − 1
    requests are copies out of memory (S/M), so the server issues m = ⌈k·S/W⌉ device reads and
    T = k·(c/L + S/L) + m·W/B + (k − m)·S/M."""
    k = 10
    doc = _with_cache(
        experiment(mode="direct", applications=[app(operation="read", bytes_per_process=k * S)]), read_ahead=window
    )
    result = run_forwarding(fast_network, doc)
    m = math.ceil(k * S / window)
    (server,) = result.table("servers")
    assert int(server["device_requests"]) == m
    assert int(server["cache_hits"]) == k - m
    expected = k * (C / FAST + S / FAST) + m * window / B + (k - m) * S / M
    assert result.makespan() == pytest.approx(expected, rel=1e-6)


def test_flushes_compete_with_reads_on_the_hdd(tmp_path, run_forwarding):
    """Write-behind takes the HDD write out of the writer's way, not off the HDD. A writer
    (one write of S, D = S) and a reader (one read of S) of one server start together (direct,
    λ = 0, α = 0, so two activities share B equally). The read starts at c/L, alone; the write
    is acknowledged at t_f = S/L + S/M + c/L and its flush starts at t_f − c/L; from then the
    read gets B/2. So the read's HDD step ends at t_r = t_f' + 2·(S − B·(t_f' − c/L))/B with
    t_f' = S/L + S/M, and the reader's makespan is t_r + S/L (the data back) — later than a read
    alone (c/L + S/B + S/L)."""
    platform = forwarding_platform(
        tmp_path / "p2.xml", clients=2, forwarders=1, servers=1, link_bw=FAST, link_lat=0, hdd_read_bw=B, hdd_write_bw=B
    )
    apps = [app("W"), app("R", operation="read")]
    doc = _with_cache(experiment(mode="direct", nodes=2, applications=apps), write_behind=S)
    result = run_forwarding(platform, doc)
    assert result.makespan("W") == pytest.approx(S / FAST + S / M + C / FAST, rel=1e-6)
    flush_start = S / FAST + S / M
    read_end = flush_start + 2 * (S - B * (flush_start - C / FAST)) / B
    assert result.makespan("R") == pytest.approx(read_end + S / FAST, rel=1e-6)
    assert result.makespan("R") > C / FAST + S / B + S / FAST


def _hbrr_queue(tmp_path, run_forwarding, pattern, n, limit, bytes_per_process):
    """Application X (one 1 MB write) holds the only dispatch slot of one HBRR forwarder while
    the n processes of application Y (one S_y = 64 KiB write each, ``pattern``) queue theirs."""
    platform = forwarding_platform(
        tmp_path / f"{pattern}.xml", clients=n + 1, forwarders=1, servers=1, link_bw=L, link_lat=LAT, hdd_write_bw=B
    )
    size = 65536
    apps = [
        app("X"),
        app("Y", processes=n, pattern=pattern, start=1e-6, request_size=size, bytes_per_process=bytes_per_process),
    ]
    doc = experiment(
        nodes=n + 1,
        scheduler="hbrr",
        applications=apps,
        stripe_size=64 * 2**20,
        forwarding={"max_in_flight": 1, "aggregation_limit": limit},
        outputs={"dispatch_trace": True},
    )
    return run_forwarding(platform, doc, name=pattern), size


@pytest.mark.parametrize(("n", "limit"), [(6, 4), (3, 16)])
def test_hbrr_aggregates_n_contiguous_strided_requests_up_to_its_limit(tmp_path, run_forwarding, n, limit):
    """A shared 1D-strided file: request 0 of rank r is at r·s, so the n queued requests are
    contiguous across processes and HBRR merges them into dispatches of at most `limit`
    requests: ⌈n/limit⌉ dispatches, of limit·s bytes and the remainder (n mod limit)·s."""
    result, s = _hbrr_queue(tmp_path, run_forwarding, "shared_strided", n, limit, 65536)
    merged = [r for r in result.table("dispatches") if int(r["bytes"]) != S]
    expected = [limit * s] * (n // limit) + ([(n % limit) * s] if n % limit else [])
    assert sorted(int(r["bytes"]) for r in merged) == sorted(expected)
    assert sorted(int(r["client_requests"]) for r in merged) == sorted(b // s for b in expected)
    (fwd,) = result.table("forwarders")
    assert int(fwd["dispatches"]) == 1 + math.ceil(n / limit)


def test_hbrr_does_not_merge_requests_that_are_not_contiguous(tmp_path, run_forwarding):
    """Queued requests that are not contiguous are not merged. A shared contiguous file of 2
    requests per process: while X holds the slot, the ranks' first requests queue at r·2s,
    never adjacent, so the first dispatch after X is one request of s. (Later a rank's second
    request, at r·2s + s, does meet rank r + 1's first and they merge: contiguity, not the
    process, decides.) One file per process: n requests in n files, n dispatches of s."""
    n = 4
    result, s = _hbrr_queue(tmp_path, run_forwarding, "shared_contiguous", n, 16, 2 * 65536)
    first = next(r for r in result.table("dispatches") if int(r["bytes"]) != S)
    assert int(first["bytes"]) == s and int(first["client_requests"]) == 1
    result, s = _hbrr_queue(tmp_path, run_forwarding, "file_per_process", n, 16, 65536)
    ys = [r for r in result.table("dispatches") if int(r["bytes"]) != S]
    assert [int(r["bytes"]) for r in ys] == [s] * n and all(int(r["client_requests"]) == 1 for r in ys)
