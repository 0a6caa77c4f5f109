"""Closed-form cases of the I/O forwarding engine mode (seed 002).

Notation: ``L`` NIC bandwidth (B/s, per direction), ``λ`` per-NIC latency (a host-to-host route
crosses two NICs: 2λ), ``B`` the HDD bandwidth, ``S`` the request size, ``c`` the control message size (1 byte, the
default: a read request or a write acknowledgement costs 2λ + c/L per hop).
"""

from __future__ import annotations

import pytest

from tests.integration.forwarding.conftest import app, experiment, forwarding_platform

pytestmark = pytest.mark.engine

L = 1.25e9  # 10 Gbit/s
LAT = 10e-6
B = 150e6
S = 1_000_000
C = 1


@pytest.fixture
def one_of_each(tmp_path):
    return forwarding_platform(
        tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_bw=L, link_lat=LAT, hdd_read_bw=B, hdd_write_bw=B
    )


@pytest.mark.parametrize("operation", ["write", "read"])
def test_one_request_through_one_forwarder(one_of_each, run_forwarding, operation):
    """One client, one forwarder, one server, one request of S bytes.
    Write: data client→fwd (2λ + S/L), fwd→server (2λ + S/L), disk S/B, ack server→fwd
    (2λ + c/L), ack fwd→client (2λ + c/L). Read: the same with the data on the way back.
    Both: T = 8λ + 2S/L + S/B + 2c/L."""
    result = run_forwarding(one_of_each, experiment(applications=[app(operation=operation)]))
    expected = 8 * LAT + 2 * S / L + S / B + 2 * C / L
    assert result.makespan() == pytest.approx(expected, rel=1e-6)
    (fwd,) = result.table("forwarders")
    assert int(fwd["client_requests"]) == 1 and int(fwd["dispatches"]) == 1 and int(fwd["server_requests"]) == 1
    assert float(fwd["mean_dispatch_size"]) == S
    (srv,) = result.table("servers")
    assert int(srv["requests"]) == 1 and int(srv["bytes"]) == S


def test_a_long_run_of_requests_through_one_worker_is_each_request_in_turn(one_of_each, run_forwarding):
    """N = 200 sequential writes of S bytes by one process, one dispatch in flight: more
    than the dispatches one worker actor serves before a fresh actor takes its slot
    (forwarding::Service, 64; a SimGrid 3.32 list leak made them quadratic). Each request
    is the single-request case, so T = N · (8λ + 2S/L + S/B + 2c/L), and all N reach the
    server."""
    n = 200
    doc = experiment(applications=[app(bytes_per_process=n * S)], forwarding={"max_in_flight": 1})
    result = run_forwarding(one_of_each, doc)
    assert result.makespan() == pytest.approx(n * (8 * LAT + 2 * S / L + S / B + 2 * C / L), rel=1e-6)
    (fwd,) = result.table("forwarders")
    assert int(fwd["dispatches"]) == n
    (srv,) = result.table("servers")
    assert int(srv["requests"]) == n and int(srv["bytes"]) == n * S


def test_one_request_without_forwarding(one_of_each, run_forwarding):
    """Direct mode: data client→server (2λ + S/L), disk S/B, ack (2λ + c/L):
    T = 4λ + S/L + S/B + c/L; no forwarder row."""
    result = run_forwarding(one_of_each, experiment(mode="direct", applications=[app()]))
    assert result.makespan() == pytest.approx(4 * LAT + S / L + S / B + C / L, rel=1e-6)
    assert result.table("forwarders") == []


def test_a_long_run_of_direct_requests_by_one_process_is_each_request_in_turn(one_of_each, run_forwarding):
    """Direct mode, N = 200 sequential writes of S bytes by one process: more than the
    requests one client actor makes before a fresh actor on its host goes on (64; the
    SimGrid 3.32 list leak of Service::kDispatchesPerWorkerActor). Each request is the
    single direct request, so T = N · (4λ + S/L + S/B + c/L), and all N reach the server."""
    n = 200
    doc = experiment(mode="direct", applications=[app(bytes_per_process=n * S)])
    result = run_forwarding(one_of_each, doc)
    assert result.makespan() == pytest.approx(n * (4 * LAT + S / L + S / B + C / L), rel=1e-6)
    (srv,) = result.table("servers")
    assert int(srv["requests"]) == n and int(srv["bytes"]) == n * S
    (application,) = result.table("applications")
    assert int(application["requests"]) == n


def _three_arrivals(tmp_path, run_forwarding, scheduler):
    """Three one-read applications on three clients of one forwarder with one request in
    flight, starting at 0, 1 µs and 2 µs, files 0, 1, 2 (all on the one server)."""
    platform = forwarding_platform(
        tmp_path / "p3.xml", clients=3, forwarders=1, servers=1, link_bw=L, link_lat=LAT, hdd_read_bw=B
    )
    apps = [app(name, start=i * 1e-6, operation="read") for i, name in enumerate("ABC")]
    doc = experiment(
        nodes=3,
        scheduler=scheduler,
        applications=apps,
        forwarding={"max_in_flight": 1},
        outputs={"dispatch_trace": True},
    )
    return run_forwarding(platform, doc)


@pytest.mark.parametrize("scheduler", ["fifo", "hbrr"])
def test_fifo_order_with_one_request_in_flight(tmp_path, run_forwarding, scheduler):
    """Read requests reach the forwarder at a_i = t_i + 2λ + c/L (t_i = 0, 1, 2 µs). With one
    dispatch in flight, each takes D = (2λ + c/L) + S/B + (2λ + S/L) (request to the server,
    disk read, data back), so dispatch k starts at a_0 + k·D in arrival order (HBRR: three
    files served round-robin in order of first arrival: the same order), and application k
    ends at a_0 + (k+1)·D + 2λ + S/L (data to the client), i.e. makespan_k = that − t_k."""
    result = _three_arrivals(tmp_path, run_forwarding, scheduler)
    a0 = 2 * LAT + C / L
    d = 4 * LAT + C / L + S / B + S / L
    trace = result.table("dispatches")
    assert [float(r["start"]) for r in trace] == pytest.approx([a0, a0 + d, a0 + 2 * d], rel=1e-6, abs=2e-9)
    for k, name in enumerate("ABC"):
        assert result.makespan(name) + k * 1e-6 == pytest.approx(a0 + (k + 1) * d + 2 * LAT + S / L, rel=1e-6)


def test_hbrr_aggregates_two_contiguous_requests(tmp_path, run_forwarding):
    """Application X (1 request, file 0) occupies the only in-flight slot; meanwhile the two
    processes of application Y (shared_contiguous, one request of S each: rank r at r·S)
    queue [0, S) and [S, 2S) of file 1. HBRR merges them into one dispatch of 2S; FIFO sends
    two. With the HBRR merge, Y's dispatch takes (2λ + 2S/L) + 2S/B + (2λ + c/L) (stripe
    4 MB: one server request)."""
    platform = forwarding_platform(
        tmp_path / "p.xml", clients=3, forwarders=1, servers=1, link_bw=L, link_lat=LAT, hdd_write_bw=B
    )
    apps = [app("X"), app("Y", processes=2, pattern="shared_contiguous", start=1e-6)]

    def run(scheduler):
        doc = experiment(
            nodes=3,
            scheduler=scheduler,
            applications=apps,
            stripe_size=4_000_000,
            forwarding={"max_in_flight": 1},
            outputs={"dispatch_trace": True},
        )
        return run_forwarding(platform, doc, name=scheduler)

    hbrr = run("hbrr")
    (fwd,) = hbrr.table("forwarders")
    assert int(fwd["client_requests"]) == 3
    assert int(fwd["dispatches"]) == 2
    assert float(fwd["mean_dispatch_size"]) == pytest.approx((S + 2 * S) / 2)
    merged = hbrr.table("dispatches")[1]
    assert int(merged["client_requests"]) == 2 and int(merged["bytes"]) == 2 * S
    assert float(merged["end"]) - float(merged["start"]) == pytest.approx(
        4 * LAT + 2 * S / L + 2 * S / B + C / L, rel=1e-6
    )
    fifo = run("fifo")
    assert int(fifo.table("forwarders")[0]["dispatches"]) == 3


def test_twins_serves_only_its_windows_server_and_rotates(tmp_path, run_forwarding):
    """Two forwarders, four servers, window W: forwarder f may start a dispatch at time t
    only to server (f + ⌊t/W⌋) mod 4. So every dispatch of the trace obeys that formula,
    the two forwarders never serve the same server in one window, and each visits all four
    servers (it rotates at window ends). Requests: 8 clients (4 per forwarder) writing
    file_per_process with 64 KiB stripes over all servers."""
    window = 0.002
    platform = forwarding_platform(
        tmp_path / "p.xml", clients=8, forwarders=2, servers=4, link_bw=L, link_lat=LAT, hdd_write_bw=B
    )
    a = app(processes=8, request_size=65536, bytes_per_process=16 * 65536)
    doc = experiment(
        nodes=8,
        forwarders=2,
        servers=4,
        scheduler="twins",
        applications=[a],
        forwarding={"window": window, "max_in_flight": 2},
        outputs={"dispatch_trace": True},
    )
    result = run_forwarding(platform, doc)
    trace = result.table("dispatches")
    assert len(trace) == 8 * 16
    seen: dict[str, set[int]] = {}
    busy: dict[tuple[int, int], str] = {}
    for r in trace:
        f = int(r["source"].rsplit("-", 1)[1])
        k = int(float(r["start"]) / window + 1e-9)
        assert int(r["server"]) == (f + k) % 4, r
        assert busy.setdefault((k, int(r["server"])), r["source"]) == r["source"], r
        seen.setdefault(r["source"], set()).add(int(r["server"]))
    assert all(s == {0, 1, 2, 3} for s in seen.values()), seen
    # Longer windows change the makespan: the window length is really used.
    doc["forwarding"]["window"] = 0.02
    assert run_forwarding(platform, doc, name="long").makespan() != pytest.approx(result.makespan(), rel=1e-3)


@pytest.mark.parametrize("alpha", [0.0, 0.5])
def test_hdd_curve_on_1_2_4_interleaved_streams(tmp_path, run_forwarding, alpha):
    """n clients write S bytes each straight to one server at once (direct mode, λ = 0,
    L = 1e12 B/s). The n writes share the server's down-link (n·S/L), then the disk runs n
    activities at once delivering B/(1 + α(n−1)) in total, so all end together, then the n
    acknowledgements share the server's up-link (n·c/L):
    T(n) = n·S/L + n·S·(1 + α(n−1))/B + n·c/L. α = 0.5, B = 100 MB/s, S = 1 MB: 0.01, 0.03, 0.1 s."""
    big = 1e12
    disk = 100e6
    platform = forwarding_platform(
        tmp_path / "p.xml", clients=4, forwarders=1, servers=1, link_bw=big, link_lat=0, hdd_write_bw=disk
    )
    for n in (1, 2, 4):
        doc = experiment(mode="direct", nodes=n, applications=[app(processes=n)], hdd_alpha=alpha)
        result = run_forwarding(platform, doc, name=f"n{n}")
        expected = n * S / big + n * S * (1 + alpha * (n - 1)) / disk + n * C / big
        assert result.makespan() == pytest.approx(expected, rel=1e-6), n
        # The server's occupancy: busy for the disk stage, n activities all along.
        (server,) = result.table("servers")
        assert float(server["busy_time"]) == pytest.approx(n * S * (1 + alpha * (n - 1)) / disk, rel=1e-6, abs=2e-9)
        assert float(server["mean_concurrency"]) == pytest.approx(n) and int(server["max_concurrency"]) == n
