"""The staging-aware allocation (schedulers/alloc_staging_spread.py): the job's lowest host, the
one its writes leave from, in the least busy staging server's group."""

from __future__ import annotations

from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from datasched.policy import PlatformView
from datasched.policy.allocation import AllocationRequest
from datasched.policy.events import JobInfo
from datasched.policy.platform import StagingServer, StagingServers, StorageView
from datasched.policy.registry import allocator_class


def staged(nb_hosts: int, nb_servers: int) -> PlatformView:
    """The engine's rule: compute host c of N writes through server floor(c * S / N)."""
    groups: list[list[int]] = [[] for _ in range(nb_servers)]
    for host in range(nb_hosts):
        groups[host * nb_servers // nb_hosts].append(host)
    servers = tuple(StagingServer(100 + s, f"stage-{s}", tuple(g)) for s, g in enumerate(groups))
    return PlatformView.uniform(nb_hosts, storage=StorageView(staging=StagingServers(servers, 1.0, 1.0)))


def choose(platform: PlatformView, free: tuple[int, ...], res: int) -> tuple[int, ...] | None:
    allocator = allocator_class("staging_spread")(allocator_class("staging_spread").Params())
    return allocator.choose(AllocationRequest(JobInfo("j", 0.0, res, 1.0), free, platform, 0.0))


def test_without_staging_servers_it_is_sequential():
    assert choose(PlatformView.uniform(8), (1, 2, 4, 5, 7), 3) == (1, 2, 4)


def test_an_idle_machine_starts_in_the_first_group():
    # 8 hosts, 4 servers of 2: every group 0 % busy, ties to the lowest index.
    assert choose(staged(8, 4), tuple(range(8)), 2) == (0, 1)


def test_the_next_job_writes_through_the_least_busy_server():
    # hosts 0-1 busy (group 0 100 % busy): group 1 (hosts 2-3) next; a job of 3 hosts takes
    # 2, 3 and then the least busy group above it, group 2 (4, 5 free; group 3 has 7 only).
    platform = staged(8, 4)
    assert choose(platform, (2, 3, 4, 5, 7), 1) == (2,)
    assert choose(platform, (2, 3, 4, 5, 7), 3) == (2, 3, 4)
    # group 1 half busy (3 taken), group 2 idle: the job starts at 4.
    assert choose(platform, (2, 4, 5, 6, 7), 2) == (4, 5)


def test_a_group_too_high_to_fit_the_job_gives_way_to_the_next():
    # Group 3 (hosts 6-7) is idle but a 4-host job cannot start there (only 7 lies above 6):
    # group 1 (2 free of 2... busy 0 %, index 1) comes next and fits with hosts above 2.
    platform = staged(8, 4)
    assert choose(platform, (0, 2, 3, 6, 7), 4) == (2, 3, 6, 7)


def test_too_few_free_hosts_is_none():
    assert choose(staged(8, 4), (0, 5), 3) is None


def test_the_engines_interval_sets_are_read():
    spread = StagingServers.from_config(
        {
            "datasched-staging-servers": {
                "servers": [{"id": 9, "name": "s", "nodes": "0-2 5 7-8"}],
                "block_size": 4,
                "buffer_bytes": 8,
            }
        }
    )
    assert spread is not None and spread.servers[0].nodes == (0, 1, 2, 5, 7, 8)
    servers = StagingServers.from_config(
        {
            "datasched-staging-servers": {
                "servers": [{"id": 9, "name": "s", "nodes": "0-1 3"}],
                "block_size": 4,
                "buffer_bytes": 8,
            }
        }
    )
    assert servers is not None and servers.server_of_host == MappingProxyType({0: 0, 1: 0, 3: 0})
    assert StagingServers.from_config({}) is None


@given(
    nb_hosts=st.integers(1, 24),
    nb_servers=st.integers(1, 6),
    free_mask=st.lists(st.booleans(), min_size=24, max_size=24),
    res=st.integers(1, 24),
)
def test_a_fitting_job_gets_distinct_free_hosts_its_lowest_in_a_least_busy_group_that_fits(
    nb_hosts, nb_servers, free_mask, res
):
    nb_servers = min(nb_servers, nb_hosts)
    platform = staged(nb_hosts, nb_servers)
    free = tuple(h for h in range(nb_hosts) if free_mask[h])
    chosen = choose(platform, free, res)
    if res > len(free):
        assert chosen is None
        return
    assert chosen is not None and len(chosen) == res == len(set(chosen)) and set(chosen) <= set(free)
    staging = platform.storage.staging
    assert staging is not None
    group = staging.server_of_host

    def busy(g: int) -> float:
        nodes = staging.servers[g].nodes
        return 1 - sum(1 for h in nodes if h in free) / len(nodes)

    def fits(g: int) -> bool:
        first = min(h for h in free if group[h] == g)
        return sum(1 for h in free if h >= first) >= res

    lowest = min(chosen)
    assert lowest == min(h for h in free if group[h] == group[lowest])  # the group's lowest free host
    groups = {group[h] for h in free}
    # no group that could start the job is less busy (or as busy with a lower index)
    for g in groups:
        if fits(g):
            assert (busy(g), g) >= (busy(group[lowest]), group[lowest])


@pytest.mark.parametrize("nb_hosts", [8, 64])
def test_jobs_of_one_host_arriving_one_by_one_use_every_server_before_any_twice(nb_hosts):
    platform = staged(nb_hosts, 4)
    free = list(range(nb_hosts))
    servers = []
    for _ in range(4):
        (host,) = choose(platform, tuple(free), 1) or ()
        free.remove(host)
        servers.append(platform.storage.staging.server_of_host[host])  # type: ignore[union-attr]
    assert sorted(servers) == [0, 1, 2, 3]
