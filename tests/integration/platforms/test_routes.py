"""Routes computed by SimGrid versus hop counts computed by hand on small instances,
and the storage/interconnect separation of the two storage modes."""

from __future__ import annotations

import pytest

from datasched.platforms import (
    DragonflyParams,
    FatTreeParams,
    InterconnectParams,
    StorageNetworkParams,
    SystemParams,
    TorusParams,
    generate,
    naming,
    write,
)
from datasched.platforms.torus import torus_hops as _torus_hops

pytestmark = pytest.mark.engine


def build(tmp_path, topology, mode="unified", k=2):
    params = SystemParams(
        name="t",
        storage_mode=mode,
        interconnect=InterconnectParams(topology=topology),
        storage=StorageNetworkParams(io_servers=k),
    )
    model = generate(params)
    return model, write(model, tmp_path / "p.xml"), topology.node_count


def torus_hops(dims, a, b):
    """The package's one torus implementation, checked here against SimGrid's routes
    and against hop counts worked out by hand (test_torus_hop_counts)."""
    return _torus_hops(a, b, dims)


def fat_tree_hops(k, a, b):
    """Up to the lowest common ancestor switch level and back down."""
    level = 1
    while a // k**level != b // k**level:
        level += 1
    return 2 * level


def dragonfly_hops(p, a, h, src, dst):
    """node->router, [local to the port router], global, [local], router->node."""
    gs, rs = divmod(src // p, a)
    gd, rd = divmod(dst // p, a)
    if src // p == dst // p:
        return 2
    if gs == gd:
        return 3
    port_src = (gd if gd < gs else gd - 1) // h
    port_dst = (gs if gs < gd else gs - 1) // h
    return 2 + (rs != port_src) + 1 + (rd != port_dst)


def route_links(info):
    return [[link["name"] for link in r["links"]] for r in info["routes"]]


TORUS_PAIRS = [(0, 1), (0, 2), (0, 3), (0, 5), (0, 63), (0, 42), (21, 22), (17, 50)]


def test_torus_hop_counts(tmp_path, inspect_platform):
    dims = (4, 4, 4)
    model, path, n = build(tmp_path, TorusParams(dims=dims))
    pairs = [(naming.node_name(a, n), naming.node_name(b, n)) for a, b in TORUS_PAIRS]
    links = route_links(inspect_platform(path, pairs))
    assert [len(route) for route in links] == [torus_hops(dims, a, b) for a, b in TORUS_PAIRS]
    assert [torus_hops(dims, a, b) for a, b in TORUS_PAIRS] == [1, 2, 1, 2, 3, 6, 1, 3]


FT_PAIRS = [(0, 1), (0, 4), (0, 16), (0, 63), (5, 6), (20, 27)]


def test_fat_tree_hop_counts(tmp_path, inspect_platform):
    model, path, n = build(tmp_path, FatTreeParams(k=4, levels=3))
    pairs = [(naming.node_name(a, n), naming.node_name(b, n)) for a, b in FT_PAIRS]
    links = route_links(inspect_platform(path, pairs))
    assert [len(route) for route in links] == [fat_tree_hops(4, a, b) for a, b in FT_PAIRS]
    assert [fat_tree_hops(4, a, b) for a, b in FT_PAIRS] == [2, 4, 6, 6, 2, 4]


def test_dragonfly_hop_counts(tmp_path, inspect_platform):
    p, a, h = 2, 4, 2
    model, path, n = build(tmp_path, DragonflyParams(p=p, a=a, h=h))
    assert n == 72
    pairs = [(0, 1), (0, 2), (0, 7), (0, 8), (0, 71), (9, 40), (15, 16), (33, 66)]
    names = [(naming.node_name(x, n), naming.node_name(y, n)) for x, y in pairs]
    links = route_links(inspect_platform(path, names))
    expected = [dragonfly_hops(p, a, h, x, y) for x, y in pairs]
    assert [len(route) for route in links] == expected
    assert expected[:3] == [2, 3, 3] and max(expected) == 5
    # exactly one global link whenever the groups differ
    for (x, y), route in zip(pairs, links, strict=True):
        assert sum(name.startswith("ic_global_") for name in route) == (x // (p * a) != y // (p * a))


def test_loopback_route_is_one_link(tmp_path, inspect_platform):
    model, path, n = build(tmp_path, TorusParams(dims=(2, 2)))
    node = naming.node_name(1, n)
    assert len(route_links(inspect_platform(path, [(node, node)]))[0]) == 1


@pytest.mark.parametrize(
    "topology",
    [TorusParams(dims=(2, 2, 2)), FatTreeParams(k=2, levels=3), DragonflyParams(p=1, a=2, h=2)],
    ids=["torus", "fat_tree", "dragonfly"],
)
def test_san_storage_routes_never_cross_the_interconnect(tmp_path, inspect_platform, topology):
    model, path, n = build(tmp_path, topology, mode="san", k=3)
    storage_side = set(model.links["storage_frontend"]) | set(model.links["device"])
    nodes, servers = model.hosts_with("compute_node"), model.hosts_with("io_server")
    pairs = []
    for node in nodes:
        for server in servers:
            pairs += [(naming.dram_name(node), server), (server, naming.dram_name(node))]
    info = inspect_platform(path, pairs)
    for route in info["routes"]:
        names = [link["name"].removesuffix("_UP").removesuffix("_DOWN") for link in route["links"]]
        assert names and set(names) <= storage_side, (route["src"], route["dst"], names)
        assert not any(name in model.links["interconnect"] for name in names)
    # and IPC between two nodes uses none of the storage network
    ipc = inspect_platform(path, [(nodes[0], nodes[-1])])["routes"][0]
    assert not {link["name"].removesuffix("_UP").removesuffix("_DOWN") for link in ipc["links"]} & storage_side


@pytest.mark.parametrize(
    "topology",
    [TorusParams(dims=(2, 2, 2)), FatTreeParams(k=2, levels=3), DragonflyParams(p=1, a=2, h=2)],
    ids=["torus", "fat_tree", "dragonfly"],
)
def test_unified_storage_and_ipc_share_interconnect_links(tmp_path, inspect_platform, topology):
    model, path, n = build(tmp_path, topology, mode="unified")
    a, b = naming.node_name(0, n), naming.node_name(n - 1, n)
    info = inspect_platform(
        path, [(b, a), (naming.nvm_name(b), a), (a, naming.nvm_name(b)), (a, b), (naming.dram_name(b), a)]
    )
    ipc_ba, nvm_read, nvm_write, ipc_ab, dram_read = route_links(info)
    assert ipc_ba, "nodes must be connected by the interconnect"
    # remote NVM read = device read link + zero-cost bus + exactly the IPC path b -> a
    assert nvm_read == [f"{b}-nvm-read", f"{b}-bus"] + ipc_ba
    assert nvm_write == ipc_ab + [f"{b}-bus", f"{b}-nvm-write"]
    assert dram_read == [f"{b}-dram-link", f"{b}-bus"] + ipc_ba


def test_central_storage_reaches_nvm_over_ethernet(tmp_path, inspect_platform):
    model, path, n = build(tmp_path, TorusParams(dims=(2, 2)), mode="unified", k=2)
    node = naming.node_name(3, n)
    info = inspect_platform(path, [("io-0", naming.nvm_name(node)), ("io-0", "io-1")])
    stage_in, replication = route_links(info)
    assert stage_in == ["io-0-fe_UP", f"{node}-eth_DOWN", f"{node}-nvm-write"]
    assert replication == ["io-0-be_UP", "io-1-be_DOWN"]
