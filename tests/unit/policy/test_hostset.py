"""HostSet (the free hosts of queue policies) behaves as a sorted set of ints.

Reference: a plain Python ``set``; after every random operation the HostSet must
report the same length, truth value, membership and ``sorted(reference)`` as its
ascending order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from datasched.policy.hostset import HostSet

CAPACITY = 40

_hosts = st.lists(st.integers(0, CAPACITY - 1), max_size=12)
_operations = st.lists(st.tuples(st.sampled_from(["add", "remove"]), _hosts), max_size=40)


@given(initial=_hosts, operations=_operations, probes=st.lists(st.integers(-3, CAPACITY + 3), max_size=10))
def test_host_set_matches_a_python_set(initial, operations, probes):
    hosts, reference = HostSet(CAPACITY, initial), set(initial)
    for kind, batch in operations:
        if kind == "add":
            hosts.update(batch)
            reference.update(batch)
        else:
            hosts.difference_update(batch)
            reference.difference_update(batch)
        assert len(hosts) == len(reference)
        assert bool(hosts) == bool(reference)
        assert hosts.ascending() == tuple(sorted(reference))
        assert list(hosts) == sorted(reference)
    for probe in probes:
        assert (probe in hosts) == (probe in reference)


def test_full_holds_every_host():
    hosts = HostSet.full(5)
    assert hosts.ascending() == (0, 1, 2, 3, 4) and len(hosts) == 5
    hosts.difference_update((1, 3))
    assert hosts.ascending() == (0, 2, 4) and 3 not in hosts and "x" not in hosts


@pytest.mark.parametrize("bad", [[-1], [5], [0, 7]])
def test_out_of_range_ids_are_refused_not_wrapped(bad):
    """NumPy would read -1 as the last host: the set refuses it instead."""
    hosts = HostSet(5)
    with pytest.raises(ValueError, match=r"host ids must be in 0\.\.4"):
        hosts.update(bad)
    assert len(hosts) == 0
