"""TWINS with ``forwarding.drain`` (sim/src/forwarding/README.md): at a window change a forwarder
first lets its dispatches to the previous server complete.

One client node with two processes (applications A and B, one write of S each, files 0 and 1
with a stripe larger than S: A's on server 0, B's on server 1), one forwarder with two workers,
two servers, window W with a < W ≤ a + D < 2W (so that A's dispatch ends within window 1,
server 1's). Notation of test_closed_form.py; both requests share the client's up-link, so
both arrive at the forwarder at a = 2λ + 2S/L; one dispatch (data fwd→server, disk,
acknowledgement) takes D = 4λ + S/L + S/B + c/L; the reply to the client ACK = 2λ + c/L.
Window 0 serves server 0, window 1 (from W) server 1.
  without drain: A = a + D + ACK, B = W + D + ACK (B's dispatch starts at W, A's still running);
  with drain:    A = a + D + ACK, B = a + 2D + ACK (B's waits for A's to complete).
"""

from __future__ import annotations

import pytest

from tests.integration.forwarding.conftest import app, experiment, forwarding_platform

pytestmark = pytest.mark.engine

L = 1.25e9
LAT = 10e-6
B = 150e6
S = 1_500_000
C = 1
W = 0.008


@pytest.mark.parametrize("drain", [False, True])
def test_drain_waits_for_the_previous_servers_dispatch(tmp_path, run_forwarding, drain):
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=2, link_lat=LAT)
    doc = experiment(
        ppn=2,
        servers=2,
        scheduler="twins",
        stripe_size=2 * S,  # a request lies in one stripe: on one server
        forwarding={"window": W, "max_in_flight": 2, "drain": drain},
        applications=[app("A", request_size=S, bytes_per_process=S), app("B", request_size=S, bytes_per_process=S)],
    )
    result = run_forwarding(platform, doc)
    a = 2 * LAT + 2 * S / L
    d = 4 * LAT + S / L + S / B + C / L
    ack = 2 * LAT + C / L
    assert a < W <= a + d < 2 * W
    assert result.makespan("A") == pytest.approx(a + d + ack, rel=1e-6)
    expected_b = a + 2 * d + ack if drain else W + d + ack
    assert result.makespan("B") == pytest.approx(expected_b, rel=1e-6)


def test_drain_with_another_scheduler_is_an_error(tmp_path, run_forwarding):
    """drain only applies to TWINS: exit 1, one line naming the field."""
    platform = forwarding_platform(tmp_path / "p.xml", clients=1, forwarders=1, servers=1)
    doc = experiment(scheduler="hbrr", forwarding={"drain": True}, applications=[app()])
    result = run_forwarding(platform, doc, check=False)
    assert result.proc.returncode == 1
    lines = result.proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "forwarding.drain" in lines[0] and "twins" in lines[0]
