"""The seek-aware HDD curve (``servers.hdd_seek_scale``; sim/src/services/hdd.hpp): the
contention term is weighted by the seek spread σ = min(1, mean gap / scale) of the requests on
the disk, B_eff(n) = B / (1 + α (n − 1) σ).

Two processes on one client node write one request of S each, without forwarding, to one
server; both requests reach it at a = 2λ + 2S/L (they share the client's up-link), then share
the disk (each B_eff/2, so both end 2S/B_eff later), then the server acknowledges
(two control messages, 2λ + 2c/L). Makespan = a + 2S/B_eff + 2λ + 2c/L, with n = 2 and α = 1.
"""

from __future__ import annotations

import pytest

from tests.integration.forwarding.conftest import app, experiment, forwarding_platform

pytestmark = pytest.mark.engine

L = 1.25e9
LAT = 10e-6
B = 150e6
S = 1_000_000
C = 1


def makespan(sigma: float) -> float:
    b_eff = B / (1 + 1.0 * (2 - 1) * sigma)
    return 2 * LAT + 2 * S / L + 2 * S / b_eff + 2 * LAT + 2 * C / L


@pytest.mark.parametrize(
    ("pattern", "seek_scale", "sigma"),
    [
        ("shared_contiguous", 0, 1.0),  # option off: the count-only curve
        ("shared_contiguous", 4 * S, 0.25),  # object offsets 0 and S: gap S, σ = S / 4S
        ("shared_contiguous", S / 2, 1.0),  # a gap beyond the scale: σ capped at 1
        ("file_per_process", 4 * S, 1.0),  # two files: a file change counts as a whole scale
    ],
)
def test_seek_spread_weighs_the_contention(tmp_path, run_forwarding, pattern, seek_scale, sigma):
    platform = forwarding_platform(
        tmp_path / "p.xml", clients=1, forwarders=1, servers=1, link_lat=LAT, hdd_read_bw=B, hdd_write_bw=B
    )
    doc = experiment(
        mode="direct",
        ppn=2,
        stripe_size=8 * S,  # both requests in the first stripe of the one server
        hdd_alpha=1.0,
        applications=[app(processes=2, pattern=pattern, request_size=S, bytes_per_process=S)],
    )
    if seek_scale:
        doc["servers"]["hdd_seek_scale"] = seek_scale
    result = run_forwarding(platform, doc)
    assert result.makespan() == pytest.approx(makespan(sigma), rel=1e-6)
