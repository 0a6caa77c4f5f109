"""The remote-tier link loads behind Figure 6's report (analysis/seed000/fig6/links.py), by hand.

72 tasks on the (2,4,2) dragonfly, one task per node, R remote bytes per task."""

from __future__ import annotations

import pytest

from datasched.analysis.seed000.fig6 import links


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
    """STG-64 at 100 % remote: Disperse's reads are limited by a device's node link minimally
    (1.125 R, test above) and by a global link with Valiant; Affinity with devices in their
    groups by its 2-task groups' NVM (R read locally + R served = 2 R at 2 GB/s = 1.25 units)."""
    rows = {(r["stg"], r["routing"], r["op"], r["access"]): r for r in links.table([64], remote=1.0)}
    assert rows[("stg-64", "minimal", "read", "D")]["limit"] == "node link"
    assert rows[("stg-64", "minimal", "read", "D")]["time"] == pytest.approx(1.125)
    assert rows[("stg-64", "valiant", "read", "D")]["limit"] == "global link"
    spread = rows[("stg-64", "valiant", "read", "As")]
    assert spread["limit"] == "device NVM read" and spread["time"] == pytest.approx(1.25)
    disperse_time = float(rows[("stg-64", "valiant", "read", "D")]["time"])
    assert spread["vs_disperse"] == pytest.approx(1.25 / disperse_time)


def test_local_tier_counts_on_the_nvm_link():
    """50 % remote, STG-64 with devices in their groups: a 2-task group's device writes its own
    task's 0.5 + its remote 0.5 (read locally) + the other task's 0.5 = 1.5 at 1 GB/s, i.e.
    1.875 units of 1.25 GB/s; Disperse's device nodes take 0.5 + 0.5 x (8/64 + 63/63) = 1.0625."""
    spread = links.bottleneck(links.phase_loads(64, "affinity", "spread", 0.5, "write", "minimal"), "write")
    disperse = links.bottleneck(links.phase_loads(64, "disperse", "first", 0.5, "write", "minimal"), "write")
    assert spread.device == pytest.approx(1.5) and spread.time == pytest.approx(1.875)
    assert disperse.device == pytest.approx(1.0625)
