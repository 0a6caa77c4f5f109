"""The queue policies decide exactly as before their free-host set became a HostSet.

Reference: the structure it replaced, a ``sortedcontainers.SortedSet`` behind the same
interface. Every queue policy, with every allocator, on random workloads (some jobs
overrun their walltime, some are too wide), must give every job the same start,
hosts, end and state with either structure."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sortedcontainers import SortedSet

from datasched.policy import PlatformView, create_policy
from datasched.policy import queue as queue_module
from datasched.policy.driver import InMemoryDriver
from tests.strategies import allocation_names, sim_workloads


class ReferenceHostSet:
    """The pre-HostSet free-host set: a SortedSet, with HostSet's constructors."""

    def __init__(self, nb_hosts: int, hosts: Iterable[int] = ()) -> None:
        self._set = SortedSet(hosts)

    @classmethod
    def full(cls, nb_hosts: int) -> ReferenceHostSet:
        return cls(nb_hosts, range(nb_hosts))

    def ascending(self) -> tuple[int, ...]:
        return tuple(self._set)

    def update(self, hosts):
        self._set.update(hosts)

    def difference_update(self, hosts):
        self._set.difference_update(hosts)

    def __len__(self):
        return len(self._set)

    def __iter__(self):
        return iter(self._set)

    def __contains__(self, host):
        return host in self._set


def _outcomes(policy_name, allocation, nb_hosts, jobs):
    policy = create_policy(policy_name, {"allocation": allocation})
    result = InMemoryDriver(PlatformView.uniform(nb_hosts), jobs).run(policy)
    return {o.job_id: (o.start, o.hosts, o.finish, o.state) for o in result.outcomes.values()}


@settings(deadline=None)
@given(
    workload=sim_workloads(max_hosts=10, max_jobs=16, oversized=True),
    policy_name=st.sampled_from(["fcfs", "sjf", "easy", "conservative"]),
    allocation=allocation_names,
)
def test_same_decisions_as_with_the_sorted_set(workload, policy_name, allocation):
    nb_hosts, jobs = workload
    fast = _outcomes(policy_name, allocation, nb_hosts, jobs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(queue_module, "HostSet", ReferenceHostSet)
        reference = _outcomes(policy_name, allocation, nb_hosts, jobs)
    assert fast == reference
