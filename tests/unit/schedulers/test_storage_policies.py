"""Storage-assignment policies (schedulers/storage_*.py) and the data-aware allocator on a
small hand-built platform whose answers are worked out by hand.

Platform: compute hosts 0..7 on two switches, A = {0, 1, 2, 3} and B = {4, 5, 6, 7};
distance 2 within a switch, 4 across. Host h's NVM endpoint is resource 100 + h; the
I/O servers are 200, 201, 202.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from datasched.errors import UserError
from datasched.policy import JobInfo, PlatformView
from datasched.policy.allocation import AllocationChoice, AllocationRequest, DataLocations
from datasched.policy.platform import StorageView
from datasched.policy.storage import StorageOption, StorageRequest
from datasched.policy.topology import HostDistances
from datasched.schedulers.storage_internal import group_leaders

NVM = {h: 100 + h for h in range(8)}
SERVERS = (200, 201, 202)


def two_switches() -> PlatformView:
    switch = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    matrix = np.where(switch[:, None] == switch[None, :], 2, 4)
    np.fill_diagonal(matrix, 0)
    return PlatformView.uniform(
        8, HostDistances(matrix, "two switches"), StorageView(MappingProxyType(dict(NVM)), SERVERS)
    )


def phase_job(res: int, *, stg_k: int = 2, san_k: int = 2, io_tasks: int | None = None, job_id: str = "j") -> JobInfo:
    profile = {
        "type": "datasched_phases",
        "res": res,
        "io_tasks": io_tasks or res,
        "storage": {"allocation": "internal", "stg_k": stg_k, "san_k": san_k, "access": "disperse"},
        "phases": [{"kind": "read", "bytes": 1.0, "data": ["d1"]}],
    }
    return JobInfo(job_id, 0.0, res, 10.0, "p", profile)


def assign(option, hosts, *, load=None, job=None, busy=()):
    assigner = StorageOption.model_validate(option).build()
    request = StorageRequest(
        job=job or phase_job(len(hosts)),
        hosts=tuple(hosts),
        platform=two_switches(),
        now=0.0,
        device_load=MappingProxyType(load or {}),
        busy_hosts=frozenset(busy),
    )
    return assigner.assign(request)


def test_cache_puts_each_tasks_data_on_its_own_nvm():
    choice = assign("cache", (2, 5))
    assert (choice.allocation, choice.devices) == ("cache", (102, 105))


def test_internal_first_takes_the_first_k_hosts_of_the_allocation():
    choice = assign({"name": "internal", "k": 2}, (4, 5, 6, 7))
    assert (choice.allocation, choice.devices) == ("internal", (104, 105))


def test_internal_spread_puts_each_device_in_its_affinity_group():
    """4 I/O tasks, k = 2: tasks 0-1 use device 0, tasks 2-3 device 1 (floor(i*k/m)),
    so the devices go to allocation positions 0 and 2: hosts 4 and 6."""
    choice = assign({"name": "internal", "k": 2, "placement": "spread", "access": "affinity"}, (4, 5, 6, 7))
    assert choice.devices == (104, 106) and choice.access == "affinity"


def test_internal_k_defaults_to_the_profiles_stg_k():
    assert assign("internal", (0, 1, 2), job=phase_job(3, stg_k=3)).devices == (100, 101, 102)


def test_external_least_loaded_skips_the_busy_device_then_takes_the_nearest():
    """Job on 0, 1 (switch A). Outside: 2, 3 (distance 2+2 = 4 each) and 4..7 (8 each).
    NVM 102 holds another job's data: least loaded gives 103 (free, near), then 104
    (free, far, lowest id) before 102."""
    choice = assign({"name": "external", "k": 2}, (0, 1), load={102: 1})
    assert (choice.allocation, choice.devices) == ("external", (103, 104))


def test_external_nearest_prefers_distance_over_load():
    choice = assign({"name": "external", "k": 2, "placement": "nearest"}, (0, 1), load={102: 1})
    assert choice.devices == (103, 102)


def test_external_idle_nodes_keeps_data_off_nodes_other_jobs_compute_on():
    """Job on 0, 1; other jobs compute on 2 and 4. Idle outside nodes 3, 5, 6, 7 come
    first: 103 (near), then 105 (far, lowest id) — least_loaded would take 102, 103."""
    choice = assign({"name": "external", "k": 2, "placement": "idle_nodes"}, (0, 1), busy=(2, 4))
    assert choice.devices == (103, 105)
    assert assign({"name": "external", "k": 2}, (0, 1), busy=(2, 4)).devices == (102, 103)


def test_external_idle_nodes_ranks_busy_nodes_by_load_when_no_idle_one_is_left():
    """Every outside node busy: least loaded, then nearest: 103 (free device, near) then 104."""
    choice = assign({"name": "external", "k": 2, "placement": "idle_nodes"}, (0, 1), load={102: 1}, busy=range(2, 8))
    assert choice.devices == (103, 104)


def test_external_completes_with_the_jobs_own_nvms_when_too_few_are_outside():
    choice = assign({"name": "external", "k": 3}, (0, 1, 2, 3, 4, 5, 6))
    assert choice.devices == (107, 100, 101)


def test_san_first_and_least_loaded():
    assert assign({"name": "san", "k": 2}, (0,)).devices == (200, 201)
    busy = assign({"name": "san", "k": 2, "placement": "least_loaded"}, (0,), load={200: 2, 201: 1})
    assert (busy.allocation, busy.devices) == ("san", (202, 201))


@pytest.mark.parametrize(
    ("option", "hosts", "job", "message"),
    [
        ({"name": "internal", "k": 3}, (0, 1), None, "only 2 nodes"),
        ({"name": "external", "k": 9}, (0,), None, "8 node NVMs"),
        ({"name": "san", "k": 4}, (0,), None, "the platform has 3"),
        ("internal", (0, 1), JobInfo("bare", 0.0, 2, 1.0), "stg_k"),
    ],
)
def test_impossible_choices_are_errors_naming_the_job(option, hosts, job, message):
    with pytest.raises(UserError, match=message) as error:
        assign(option, hosts, job=job)
    assert repr(job.id if job else "j") in str(error.value)


def test_a_platform_without_node_nvm_is_named():
    assigner = StorageOption.model_validate("cache").build()
    request = StorageRequest(phase_job(1), (0,), PlatformView.uniform(2), 0.0)
    with pytest.raises(UserError, match="no NVM endpoint"):
        assigner.assign(request)


@given(
    kind=st.sampled_from(["cache", "internal", "external", "san"]),
    placement_spread=st.booleans(),
    hosts=st.lists(st.integers(0, 7), min_size=1, max_size=8, unique=True),
    k=st.integers(1, 8),
    loads=st.dictionaries(st.sampled_from([*NVM.values(), *SERVERS]), st.integers(0, 3)),
)
def test_devices_are_storage_endpoints_never_more_than_k(kind, placement_spread, hosts, k, loads):
    option: dict = {"name": kind}
    if kind != "cache":
        option["k"] = k
    if kind == "internal" and placement_spread:
        option["placement"] = "spread"
    try:
        choice = assign(option, hosts, load=loads)
    except UserError:
        limit = {"internal": len(hosts), "external": 8, "san": len(SERVERS)}[kind]
        assert k > limit  # only an impossible k is refused
        return
    allowed = set(SERVERS) if kind == "san" else set(NVM.values())
    assert set(choice.devices) <= allowed
    assert len(set(choice.devices)) == len(choice.devices)
    assert len(choice.devices) == (len(hosts) if kind == "cache" else k)
    if kind in ("cache", "internal"):
        assert {d - 100 for d in choice.devices} <= set(hosts)  # on the job's own nodes


@given(m=st.integers(1, 200), k=st.integers(1, 200))
def test_affinity_groups_partition_the_tasks(m, k):
    """The engine maps task i of m to device floor(i*k/m): every task is in exactly one
    group, groups are contiguous, and group j's leader (where 'spread' puts device j)
    belongs to group j whenever k <= m."""
    groups = [i * k // m for i in range(m)]
    assert groups == sorted(groups) and all(0 <= g < k for g in groups)
    if k <= m:
        assert sorted(set(groups)) == list(range(k))  # no empty group
        for j, leader in enumerate(group_leaders(k, m)):
            assert groups[leader] == j and (leader == 0 or groups[leader - 1] == j - 1)


def data_aware(request: AllocationRequest):
    return AllocationChoice.model_validate("data_aware").build().choose(request)


def allocation_request(job, free, *, data=None, load=None) -> AllocationRequest:
    return AllocationRequest(
        job=job,
        free_hosts=tuple(free),
        platform=two_switches(),
        now=0.0,
        data=DataLocations(MappingProxyType(data or {})),
        storage_load=MappingProxyType(load or {}),
    )


@pytest.mark.parametrize(("holder", "expected"), [(3, (0, 1)), (7, (4, 5))])
def test_data_aware_picks_the_free_block_nearer_the_data(holder, expected):
    """Free blocks {0, 1} (switch A) and {4, 5} (switch B), equally compact; item d1 on
    host ``holder``: the block on the holder's switch is 2 hops from it, the other 4."""
    request = allocation_request(phase_job(2), (0, 1, 4, 5), data={"d1": (holder,)})
    assert data_aware(request) == expected


def test_data_aware_keeps_away_from_busy_storage():
    """No data location known; host 0's NVM serves a running job: {1, 2} is as compact
    as {0, 1} and pays no busy penalty."""
    request = allocation_request(phase_job(2), (0, 1, 2, 4), load={0: 1})
    assert data_aware(request) == (1, 2)


def test_data_aware_without_topology_takes_the_least_loaded_lowest_ids():
    job = phase_job(2)
    request = AllocationRequest(job, (0, 1, 2), PlatformView.uniform(3), 0.0, storage_load=MappingProxyType({0: 2}))
    assert data_aware(request) == (1, 2)


def test_queue_policies_track_which_hosts_serve_running_jobs_data():
    """FCFS with internal k = 1: job a on hosts 0, 1 keeps its data on NVM 100 (host 0),
    so the allocator of the next job sees host 0 busy with storage; once a completes,
    nothing is busy."""
    from datasched.policy import JobCompleted, JobSubmitted
    from datasched.policy.events import CompletionState
    from datasched.policy.registry import create_policy

    policy = create_policy("fcfs", {"storage": {"name": "internal", "k": 1}})
    policy.begin(two_switches(), 0.0)
    (start,) = policy.react(0.0, [JobSubmitted(0.0, phase_job(2, job_id="a"))])
    assert start.hosts == (0, 1) and start.storage.devices == (100,)
    assert dict(policy._host_storage_load()) == {0: 1}
    policy.react(1.0, [JobCompleted(1.0, "a", CompletionState.COMPLETED_SUCCESSFULLY)])
    assert dict(policy._host_storage_load()) == {}
