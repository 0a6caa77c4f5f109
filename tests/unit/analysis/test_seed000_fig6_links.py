"""The remote-tier link loads behind Figure 6's report (analysis/seed000_fig6_links.py), by hand.

72 tasks on the (2,4,2) dragonfly, one task per node, R remote bytes per task."""

from __future__ import annotations

import pytest

from datasched.analysis import seed000_fig6_links as links


def loads(k, access, routing, placement="first"):
    return links.link_loads(links.remote_flows(k, access, placement=placement), routing)


@pytest.mark.parametrize("routing", ["minimal", "valiant"])
def test_disperse_device_load_stg16(routing):
    """STG-16 on nodes 0..15: the 56 other tasks read R/16 from each device, the 15 other
    device nodes R/15: 56/16 + 15/15 = 4.5 R through each device's NVM and node link."""
    b = links.bottleneck(loads(16, "disperse", routing))
    assert b.device == pytest.approx(4.5) and b.node == pytest.approx(4.5)


@pytest.mark.parametrize("routing", ["minimal", "valiant"])
def test_affinity_with_devices_in_their_groups_loads_no_link_above_r(routing):
    """STG-64, spread placement: each device sits on its group's first task; groups are 1 or
    2 tasks (72 over 64), so at most one task reads R from a device, through links no other
    flow uses: every load is at most R, whatever the routing."""
    b = links.bottleneck(loads(64, "affinity", routing, placement="spread"))
    assert max(b.device, b.node, b.local, b.global_) == pytest.approx(1.0)


def test_disperse_stg64_global_load_under_minimal_routing():
    """Minimal: global link gi -> gj carries what gj's 8 tasks read from gi's 8 devices; for
    i, j <= 7 the readers are device nodes reading R/63 from each: 8 * 8 / 63 = 1.016 R."""
    assert links.bottleneck(loads(64, "disperse", "minimal")).global_ == pytest.approx(64 / 63)


@pytest.mark.parametrize("k", [4, 16, 64])
def test_valiant_doubles_the_global_bytes(k):
    """Every inter-group flow crosses one global link minimally and two with Valiant."""

    def global_bytes(routing):
        return sum(v for (link, _), v in loads(k, "disperse", routing).items() if link.startswith("ic_global_"))

    assert global_bytes("valiant") == pytest.approx(2 * global_bytes("minimal"))


def test_table_names_the_limiting_link():
    rows = {(r["stg"], r["routing"], r["access"]): r for r in links.table([64])}
    assert rows[("stg-64", "minimal", "D")]["limit"] == "node link"
    assert rows[("stg-64", "valiant", "D")]["limit"] == "global link"
    assert rows[("stg-64", "valiant", "As")]["vs_disperse"] == pytest.approx(
        1.0 / rows[("stg-64", "valiant", "D")]["time"]
    )
