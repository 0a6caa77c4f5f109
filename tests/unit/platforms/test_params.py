"""Bad parameters are rejected with a message naming the parameter."""

import pytest

from datasched.errors import UserError
from datasched.platforms import DragonflyParams, FatTreeParams, SystemParams, TorusParams, parse_params


def error_of(data: dict) -> str:
    with pytest.raises(UserError) as info:
        parse_params(data, source="p.yaml")
    return str(info.value)


def test_negative_bandwidth_names_the_parameter():
    msg = error_of({"interconnect": {"link_bw": -1}})
    assert "p.yaml" in msg and "interconnect.link_bw" in msg and "greater than or equal to 1" in msg


def test_negative_nvm_bandwidth_names_the_parameter():
    assert "node.nvm_read_bw" in error_of({"node": {"nvm_read_bw": -2e9}})


def test_topology_that_cannot_produce_the_node_count():
    msg = error_of({"node_count": 100, "interconnect": {"topology": {"kind": "torus", "dims": [4, 4, 4]}}})
    assert "node_count=100" in msg and "produces 64" in msg


def test_zero_io_servers_in_san_mode():
    msg = error_of({"storage_mode": "san", "storage": {"io_servers": 0}})
    assert "storage" in msg and "io_servers" in msg and "1..128" in msg


def test_too_many_io_servers():
    assert "io_servers" in error_of({"storage": {"io_servers": 129}})


def test_unknown_key_is_an_error_naming_it():
    msg = error_of({"node": {"nvm_raed_bw": 1e9}})
    assert "node.nvm_raed_bw" in msg


def test_unknown_topology_kind():
    assert "interconnect.topology" in error_of({"interconnect": {"topology": {"kind": "hypercube"}}})


def test_dragonfly_with_more_groups_than_ports():
    msg = error_of({"interconnect": {"topology": {"kind": "dragonfly", "p": 2, "a": 4, "h": 2, "groups": 10}}})
    assert "groups=10" in msg and "a*h+1=9" in msg


@pytest.mark.parametrize(
    ("topology", "fragment"),
    [
        # found by bench/fuzz (platform_params): k**levels for levels = 10**12 never finished
        ({"kind": "fat_tree", "k": 5, "levels": 10**12}, "5**1000000000000"),
        ({"kind": "fat_tree", "k": 2, "levels": 24}, "16,777,216 nodes"),
        ({"kind": "torus", "dims": [1000, 1000, 11]}, "11,000,000 nodes"),
        ({"kind": "dragonfly", "p": 1000, "a": 100, "h": 1, "groups": 101}, "10,100,000 nodes"),
    ],
)
def test_a_topology_beyond_ten_million_nodes_is_refused_at_once(topology, fragment):
    """MAX_TOPOLOGY_NODES = 10**7 (platforms/params.py); the largest allowed still parses."""
    msg = error_of({"interconnect": {"topology": topology}})
    assert "interconnect.topology" in msg and fragment in msg and "10,000,000" in msg


def test_the_largest_allowed_topologies_parse():
    assert FatTreeParams(k=10, levels=7).node_count == 10**7
    assert TorusParams(dims=(1000, 1000, 10)).node_count == 10**7


def test_seed_sizes():
    assert DragonflyParams(p=2, a=4, h=2).node_count == 72
    assert DragonflyParams(p=4, a=6, h=4).node_count == 600
    assert FatTreeParams(k=4, levels=3).node_count == 64
    assert FatTreeParams(k=8, levels=3).node_count == 512
    assert TorusParams(dims=(8, 8, 8)).node_count == 512


def test_defaults_are_the_seed_values():
    params = parse_params({})
    assert isinstance(params, SystemParams)
    assert params.node.nvm_read_bw == 2e9 and params.node.nvm_write_bw == 1e9
    assert params.node.dram_bw == 10e9
    assert params.storage.node_nic_bw == 10e9 / 8 and params.storage.backend_bw == 40e9 / 8


def test_torus_ring_of_one_is_rejected():
    assert "interconnect.topology.dims.1" in error_of({"interconnect": {"topology": {"kind": "torus", "dims": [4, 1]}}})


def test_unknown_dragonfly_routing_is_an_error_naming_it():
    msg = error_of({"interconnect": {"topology": {"kind": "dragonfly", "routing": "ugal"}}})
    assert "interconnect.topology.routing" in msg and "'minimal' or 'valiant'" in msg


def test_valiant_needs_an_intermediate_group():
    msg = error_of({"interconnect": {"topology": {"kind": "dragonfly", "a": 1, "h": 1, "routing": "valiant"}}})
    assert "routing=valiant needs at least 3 groups" in msg and "got 2" in msg


def test_routing_is_a_dragonfly_option_only():
    assert "interconnect.topology.routing" in error_of(
        {"interconnect": {"topology": {"kind": "torus", "routing": "valiant"}}}
    )


def test_dragonfly_routing_defaults_to_minimal():
    """Parameter files written before the option keep their meaning (seed 000's catalog
    entries ask for Valiant explicitly)."""
    assert DragonflyParams().routing == "minimal"
