"""Closed forms of the request pace at the data servers (``_servers.csv``: per operation, how many
server requests arrived and when the first and the last did; sim/src/forwarding/README.md).

Notation as tests/integration/forwarding/test_server_cache.py: ``L`` NIC bandwidth (here so fast
that λ = 0 and only its bandwidth terms remain), ``B`` the HDD bandwidth, ``S`` the request size,
``c`` the control message size.
"""

from __future__ import annotations

import pytest

from tests.integration.forwarding.conftest import app, experiment, forwarding_platform

pytestmark = pytest.mark.engine

B = 100e6
S = 1_000_000
C = 1
FAST = 1e12
N = 12


@pytest.fixture
def fast_network(tmp_path):
    return forwarding_platform(
        tmp_path / "fast.xml", clients=1, forwarders=1, servers=1, link_bw=FAST, link_lat=0, hdd_read_bw=B,
        hdd_write_bw=B,
    )  # fmt: skip


def pace(server: dict[str, str], op: str) -> tuple[int, float, float]:
    """(requests, first arrival, mean gap (last − first) / (requests − 1))."""
    count = int(server[f"{op}_requests"])
    first, last = float(server[f"first_{op}_arrival"]), float(server[f"last_{op}_arrival"])
    return count, first, (last - first) / (count - 1)


@pytest.mark.parametrize("op", ["read", "write"])
def test_one_process_in_a_closed_loop_arrives_every_request_round_trip(fast_network, run_forwarding, op):
    """One process sends N requests of S, one at a time, straight to one server (direct mode).
    A read's request (c) arrives, the HDD reads S (S/B), the reply carries S back (S/L) and the
    next request goes out (c/L): arrivals a_j = c/L + j·(S/B + S/L + c/L). A write's data arrives
    (S/L), the HDD writes (S/B), the acknowledgement returns (c/L): a_j = S/L + j·(S/L + S/B + c/L).
    Both: N requests, mean gap (a_{N−1} − a_0)/(N − 1) = S/B + S/L + c/L; none of the other
    operation (count 0, times 0)."""
    doc = experiment(mode="direct", applications=[app(operation=op, bytes_per_process=N * S, request_size=S)])
    (server,) = run_forwarding(fast_network, doc).table("servers")
    count, first, gap = pace(server, op)
    assert count == N
    assert first == pytest.approx(C / FAST if op == "read" else S / FAST, rel=1e-6, abs=1e-12)
    assert gap == pytest.approx(S / B + S / FAST + C / FAST, rel=1e-6)
    other = "write" if op == "read" else "read"
    assert (server[f"{other}_requests"], float(server[f"first_{other}_arrival"])) == ("0", 0.0)


def test_two_processes_sharing_the_disk_arrive_in_pairs(fast_network, run_forwarding):
    """Two processes (one node, ppn 2) read N requests each from the one server. The HDD shares B
    between the two (α = 0: total B) and the node's NIC shares L, so both requests of a round
    arrive together and the rounds are 2S/B + 2S/L + 2c/L apart: 2N arrivals spanning N − 1
    rounds, mean gap (N − 1)·(2S/B + 2S/L + 2c/L) / (2N − 1)."""
    doc = experiment(
        mode="direct", ppn=2, applications=[app(processes=2, operation="read", bytes_per_process=N * S, request_size=S)]
    )
    (server,) = run_forwarding(fast_network, doc).table("servers")
    count, _, gap = pace(server, "read")
    assert count == 2 * N
    assert gap == pytest.approx((N - 1) * (2 * S / B + 2 * S / FAST + 2 * C / FAST) / (2 * N - 1), rel=1e-6)
