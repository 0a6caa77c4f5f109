"""Service placements of an on-demand file system (schedulers/services_placement.py)."""

from __future__ import annotations

import pytest

from datasched.errors import UserError
from datasched.schedulers.services_placement import Allocation, place_services, placement_names

ALLOC = Allocation(spare=("s0",), compute=("c0", "c1"), io=("i0", "i1"), dedicated=("d0",))


def test_all_puts_storage_everywhere_and_metadata_on_the_lowest_node():
    """BeeOND as the paper deploys it: a target on every allocated node (dedicated ones
    are not part of that allocation's file system), metadata on the lowest."""
    placed = place_services("all", ALLOC)
    assert placed.storage == ("s0", "c0", "c1", "i0", "i1")
    assert placed.metadata == ("s0",)


def test_io_nodes_and_dedicated_keep_services_off_the_compute_nodes():
    for name, nodes in (("io_nodes", ("i0", "i1")), ("dedicated", ("d0",))):
        placed = place_services(name, ALLOC)
        assert placed.storage == nodes and placed.metadata == nodes[:1]
        assert not set(placed.storage + placed.metadata) & set(ALLOC.compute)


def test_io_nodes_without_an_io_job_runs_no_service():
    assert place_services("io_nodes", Allocation(spare=(), compute=("c0",), io=())).storage == ()


def test_unknown_or_impossible_placements_name_the_problem():
    with pytest.raises(UserError, match="unknown service placement 'nowhere'"):
        place_services("nowhere", ALLOC)
    with pytest.raises(UserError, match="at least one dedicated node"):
        place_services("dedicated", Allocation(spare=(), compute=("c0",), io=("i0",)))
    assert placement_names() == ["all", "dedicated", "io_nodes"]
