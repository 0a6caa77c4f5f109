"""I/O tasks that distribute what they read (profile ``io_distribution: per_task``), through
the engine, against closed-form dates.

Seed 000 5.1: I/O tasks read the data "and distribute it to the rest of the computing tasks",
and INRFlow keeps causal order between flows. Per I/O task X: X's read, then X sends each
non-I/O task amount / n bytes (n = the job's nodes); a write gathers first, then writes. One
task's distribution (IPC) may thus run while another task still reads (storage).

Platform: the star of ``conftest.star_platform`` (X -> Y over X's up-link and Y's down-link,
``link`` GB/s each; NVM 2 GB/s read, 1 GB/s write; no latency). Node 10 holds the device.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.storage.conftest import (
    GB,
    descriptor,
    phases_profile,
    read,
    resource_ids,
    star_platform,
    write_phase,
)

pytestmark = pytest.mark.engine
TOL = 1e-6


def distributed(res: int, io_tasks: int, storage: dict[str, Any], phases: list[dict[str, Any]]) -> dict[str, Any]:
    return {**phases_profile(res, storage, phases, io_tasks=io_tasks), "io_distribution": "per_task"}


@pytest.fixture(scope="module")
def slow_star(tmp_path_factory, engine):
    path = star_platform(tmp_path_factory.mktemp("slow") / "slow.xml", link_bw=0.5 * GB)
    return path, resource_ids(engine, path)


def run_one(run_phases, platform, ids, nodes, profile, policy="np", engine_args=None):
    result = run_phases(
        platform,
        [{"id": 0, "subtime": 0, "res": profile["res"], "profile": "p"}],
        {"p": profile},
        alloc={"0": " ".join(str(ids[f"node-1{i}"]) for i in range(nodes))},
        storage={"0": {"devices": [ids["node-10-nvm"]]}},
        policy=policy,
        engine_args=engine_args,
    )
    assert result.jobs["0"]["final_state"] == "COMPLETED_SUCCESSFULLY"
    return result


def test_read_then_distribute_in_sequence(run_phases, star):
    """res 2, one I/O task reading S = 4 GB from its own NVM (S / 2 GB/s = 2 s), then sending
    the other task S / 2 = 2 GB over 1 GB/s (2 s): T = 2 + 2 = 4 s, not max(2, 2)."""
    platform, ids = star
    profile = distributed(2, 1, descriptor(), [read(4 * GB)])
    r = run_one(run_phases, platform, ids, 2, profile)
    assert r.runtime("0") == pytest.approx(4.0, abs=TOL)
    assert r.io["0"]["network_bytes"] == pytest.approx(2 * GB, rel=1e-12)
    assert r.io["0"]["local_nvm_bytes"] == pytest.approx(4 * GB, rel=1e-12)


def test_gather_then_write_in_sequence(run_phases, star):
    """res 2, one I/O task writing S = 2 GB: first it gathers S / 2 = 1 GB from the other task
    (1 GB/s: 1 s), then writes S to its NVM at 1 GB/s (2 s): T = 3 s."""
    platform, ids = star
    profile = distributed(2, 1, descriptor(), [write_phase(2 * GB)])
    r = run_one(run_phases, platform, ids, 2, profile)
    assert r.runtime("0") == pytest.approx(3.0, abs=TOL)
    assert r.io["0"]["network_bytes"] == pytest.approx(1 * GB, rel=1e-12)


def test_each_task_distributes_when_its_own_read_ends(run_phases, star):
    """res 3, I/O tasks A (node 10, holds the device) and B (node 11), S = 4 GB, 50 % remote.
    A reads all S from its NVM (its remote share has no other device); B reads S/2 from its
    own NVM (2 GB/s: 1 s) and S/2 from A's over A's up-link. A and B's remote part share A's
    NVM (2 GB/s) equally: 1 GB/s each, so B's read ends at t = 2 and A, alone from then at
    2 GB/s, at t = 2 + 2/2 = 3. B sends C (node 12) S/3 from t = 2 at 1 GB/s; from t = 3 A's
    S/3 shares C's down-link with B's last 1/3 GB (0.5 GB/s each: B ends at 3 + 2/3), then A
    finishes its last 1 GB alone: T = 3 + 2/3 + 1 = 14/3 s. (Distributing only after every
    read, both S/3 through C's down-link after t = 3: 3 + 8/3 = 17/3 s.)"""
    platform, ids = star
    profile = distributed(3, 2, descriptor(remote=50), [read(4 * GB)])
    r = run_one(run_phases, platform, ids, 3, profile)
    assert r.runtime("0") == pytest.approx(14 / 3, abs=TOL)
    assert r.io["0"]["network_bytes"] == pytest.approx(2 * 4 / 3 * GB, rel=1e-12)


@pytest.mark.parametrize(("groups", "expected"), [(1, 17 / 3), (2, 14 / 3), (5, 14 / 3)])
def test_task_groups_keep_causal_order_between_groups_only(run_phases, star, groups, expected):
    """The previous case with --io-groups G. G = 2 (or more than the 2 I/O tasks) is the
    per-task plan: 14/3 s. G = 1 puts A and B in one group: its local-tier activity (A's
    4 GB, B's 2 GB) and B's remote read share A's NVM equally (1 GB/s each), the remote read
    ends at t = 2, the local tier alone at 2 GB/s at t = 3; only then does the group send C
    its 2 x 4/3 GB through C's down-link: T = 3 + 8/3 = 17/3 s."""
    platform, ids = star
    profile = distributed(3, 2, descriptor(remote=50), [read(4 * GB)])
    r = run_one(run_phases, platform, ids, 3, profile, engine_args=["--io-groups", str(groups)])
    assert r.runtime("0") == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("policy", ["np", "fp", "ba:85"])
def test_a_distribution_shares_the_link_of_another_tasks_remote_read(run_phases, slow_star, policy):
    """0.5 GB/s links, res 3, I/O tasks A (node 10, device) and B, S = 3 GB, 100 % remote.
    A reads S locally at 2 - 0.5 = 1.5 GB/s (t = 2) while B's remote read is held to 0.5 GB/s
    by A's up-link; from t = 2 A's distribution (S/3 = 1 GB, IPC) and B's read (2 GB left,
    storage) share that up-link: the policy decides who goes first, but the link stays busy
    until it has carried both, t = 2 + 3/0.5 = 8; then B sends C its 1 GB at 0.5 GB/s:
    T = 10 s under every policy (work conservation on A's up-link)."""
    platform, ids = slow_star
    profile = distributed(3, 2, descriptor(remote=100), [read(3 * GB)])
    r = run_one(run_phases, platform, ids, 3, profile, policy=policy)
    assert r.runtime("0") == pytest.approx(10.0, abs=1e-4)


def test_every_task_doing_io_distributes_nothing(run_phases, star):
    """io_tasks = res: nobody to distribute to; one task reading 4 GB locally: 2 s."""
    platform, ids = star
    profile = distributed(1, 1, descriptor(), [read(4 * GB)])
    r = run_one(run_phases, platform, ids, 1, profile)
    assert r.runtime("0") == pytest.approx(2.0, abs=TOL)
    assert r.io["0"]["network_bytes"] == 0


def test_unknown_io_distribution_is_refused(run_phases, star, tmp_path):
    platform, ids = star
    profile = {**distributed(2, 1, descriptor(), [read(GB)]), "io_distribution": "broadcast"}
    with pytest.raises(Exception, match="io_distribution 'broadcast'"):
        run_one(run_phases, platform, ids, 2, profile)
