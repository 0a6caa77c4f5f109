"""Seed 000 §5's routing, as SimGrid computes it on our platforms: Valiant on the dragonfly
(platforms/dragonfly.py), static destination-based routing on the fat-tree, dimension-order
routing (DOR) on the torus. Routes come from SimGrid (the engine's --inspect or sgprobe);
what they must be is worked out here from the topology alone."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

import pytest

from datasched.platforms import (
    DragonflyParams,
    FatTreeParams,
    InterconnectParams,
    SystemParams,
    TorusParams,
    generate,
    naming,
    write,
)
from datasched.platforms import dragonfly as df
from datasched.platforms.catalog import catalog_path

pytestmark = pytest.mark.engine


def routes(inspect_platform, path, pairs) -> list[list[str]]:
    info = inspect_platform(path, pairs)
    by_pair = {(r["src"], r["dst"]): [link["name"] for link in r["links"]] for r in info["routes"]}
    return [by_pair[pair] for pair in pairs]


def system(tmp_path, topology, name="t", **interconnect) -> tuple:
    params = SystemParams(name=name, interconnect=InterconnectParams(topology=topology, **interconnect))
    return write(generate(params), tmp_path / f"{name}.xml"), topology.node_count


# --------------------------------------------------------------------------- dragonfly


def expected_dragonfly_route(p, a, h, groups, routing, seed, x, y) -> list[str]:
    """node link up, the router-level path of platforms/dragonfly.py, node link down (SimGrid
    names a SPLITDUPLEX half <link>_UP / <link>_DOWN)."""
    (gx, rx), sx = divmod(x // p, a), x % p
    (gy, ry), sy = divmod(y // p, a), y % p
    if x == y:
        return [f"ic_{naming.node_name(x, p * a * groups)}_loopback"]
    middle = df.router_path((gx, rx), (gy, ry), h, groups, routing, seed)
    return [
        f"ic_g{gx}_r{rx}_n{sx}_UP",
        *(f"{link}_{direction}" for link, direction in middle),
        f"ic_g{gy}_r{ry}_n{sy}_DOWN",
    ]


PAIRS_72 = [(0, 1), (0, 2), (0, 7), (0, 8), (0, 71), (9, 40), (15, 16), (33, 66), (70, 3), (40, 9)]


def test_catalog_dragonfly_routes_are_valiant(inspect_platform):
    """The catalog's 72-node dragonfly (seed 000's) routes every pair as platforms/dragonfly.py
    says with its seed 1: node, [local], global, [local], global, [local], node between groups
    (two global links), node, local, node inside a group."""
    path = catalog_path("seed000-dragonfly-2-4-2-unified")
    n = 72
    names = [(naming.node_name(x, n), naming.node_name(y, n)) for x, y in PAIRS_72]
    got = routes(inspect_platform, path, names)
    for (x, y), links in zip(PAIRS_72, got, strict=True):
        assert links == expected_dragonfly_route(2, 4, 2, 9, "valiant", 1, x, y), (x, y)
        assert sum(link.startswith("ic_global_") for link in links) == 2 * (x // 8 != y // 8)


def test_minimal_catalog_dragonfly_still_routes_minimally(inspect_platform):
    path = catalog_path("seed000-dragonfly-2-4-2-minimal-unified")
    names = [(naming.node_name(x, 72), naming.node_name(y, 72)) for x, y in PAIRS_72]
    for (x, y), links in zip(PAIRS_72, routes(inspect_platform, path, names), strict=True):
        assert links == expected_dragonfly_route(2, 4, 2, 9, "minimal", 1, x, y), (x, y)


def test_single_flow_path_length_minimal_3_valiant_7(tmp_path, inspect_platform):
    """(p, a, h) = (1, 2, 1), 3 groups (test_dragonfly_routing: worked by hand): node 0
    (group 0, router 0) to node 2 (group 1, router 0) is node + global + node = 3 links
    minimally, and node + local + global + local + global + local + node = 7 with Valiant
    (group 2 is the only intermediate)."""
    lengths = {}
    for routing in ("minimal", "valiant"):
        path, n = system(tmp_path, DragonflyParams(p=1, a=2, h=1, routing=routing), name=routing)
        (links,) = routes(inspect_platform, path, [(naming.node_name(0, n), naming.node_name(2, n))])
        lengths[routing] = len(links)
    assert lengths == {"minimal": 3, "valiant": 7}


def test_adversarial_pattern_spreads_over_global_links(tmp_path, inspect_platform):
    """Every node of group 0 to every node of group 1 on the (2,4,2) dragonfly (64 flows,
    4 per router pair). SimGrid's routes give: minimal, all 64 on global link g0-g1;
    Valiant, none there and 4 * n_k on g0 -> k, n_k = the router pairs drawing k
    (dragonfly.valiant_intermediate); the largest load is below 64."""
    loads = {}
    for routing in ("minimal", "valiant"):
        path, n = system(tmp_path, DragonflyParams(p=2, a=4, h=2, routing=routing), name=routing)
        pairs = [(naming.node_name(x, n), naming.node_name(y, n)) for x in range(8) for y in range(8, 16)]
        count: Counter = Counter()
        for links in routes(inspect_platform, path, pairs):
            count.update(link for link in links if link.startswith("ic_global_"))
        loads[routing] = count
    assert loads["minimal"] == {"ic_global_g0_g1_UP": 64}
    n_k = Counter(df.valiant_intermediate((0, r), (1, t), 9, 1) for r in range(4) for t in range(4))
    assert "ic_global_g0_g1_UP" not in loads["valiant"]
    assert {link: v for link, v in loads["valiant"].items() if link.startswith("ic_global_g0_")} == {
        f"ic_global_g0_g{k}_UP": 4 * c for k, c in n_k.items()
    }
    assert max(loads["valiant"].values()) == 4 * max(n_k.values()) < 64


# --------------------------------------------------------------------------- torus: DOR


def _torus_walk(links: list[str]) -> list[int]:
    """Ranks visited along SimGrid torus links ``ic_link_from_A_to_B_{UP,DOWN}`` (UP: A -> B)."""
    ranks: list[int] = []
    for link in links:
        m = re.fullmatch(r"ic_link_from_(\d+)_to_(\d+)_(UP|DOWN)", link)
        assert m, link
        a, b = int(m.group(1)), int(m.group(2))
        src, dst = (a, b) if m.group(3) == "UP" else (b, a)
        assert not ranks or ranks[-1] == src, links
        ranks += [src] if not ranks else []
        ranks.append(dst)
    return ranks


def _coords(rank: int, dims) -> list[int]:
    out = []
    for d in dims:
        rank, c = divmod(rank, d)
        out.append(c)
    return out


def test_torus_routes_are_dimension_ordered(tmp_path, inspect_platform):
    """4x4x4 torus, node 0 to every node: the walk corrects dimension 0 first, then 1, then
    2 (dimension-order routing), one ring step at a time, the short way round each ring
    (+ at exactly half a ring): steps in dimension i = min(delta_i, 4 - delta_i)."""
    dims = (4, 4, 4)
    path, n = system(tmp_path, TorusParams(dims=dims))
    targets = list(range(1, 64))
    got = routes(inspect_platform, path, [(naming.node_name(0, n), naming.node_name(t, n)) for t in targets])
    for target, links in zip(targets, got, strict=True):
        walk = _torus_walk(links)
        assert walk[0] == 0 and walk[-1] == target
        order = []
        for u, v in pairwise(walk):
            cu, cv = _coords(u, dims), _coords(v, dims)
            (dim,) = [i for i in range(3) if cu[i] != cv[i]]
            step = (cv[dim] - cu[dim]) % dims[dim]
            delta = _coords(target, dims)[dim]
            assert step == (1 if delta <= dims[dim] // 2 else dims[dim] - 1), (target, walk)
            order.append(dim)
        assert order == sorted(order), (target, walk)
        assert len(links) == sum(min(c, 4 - c) for c in _coords(target, dims))


# --------------------------------------------------------------------------- fat-tree: static


def test_fat_tree_routing_is_static_and_destination_based(tmp_path, inspect_platform):
    """4:3 fat-tree (SimGrid FAT_TREE): routes do not depend on load or time (asking twice
    gives the same links), and they are destination-based (D-mod-k): two routes to one
    destination that meet on a link continue identically; from node 0, the first up-link
    out of its leaf switch depends on the destination only through d mod 4 (4 up-links,
    each used by the destinations of one residue)."""
    path, n = system(tmp_path, FatTreeParams(k=4, levels=3))
    sources = list(range(0, 64, 5))
    dst = naming.node_name(63, n)
    pairs = [(naming.node_name(s, n), dst) for s in sources]
    first, again = routes(inspect_platform, path, pairs), routes(inspect_platform, path, pairs)
    assert first == again
    for a in first:
        for b in first:
            shared = [i for i, link in enumerate(a) if link in b]
            if shared:
                i = shared[0]
                assert a[i:] == b[b.index(a[i]) :]
    far = list(range(4, 64))  # outside node 0's leaf switch
    out = routes(inspect_platform, path, [(naming.node_name(0, n), naming.node_name(d, n)) for d in far])
    up_by_residue: dict[int, set[str]] = {}
    for d, links in zip(far, out, strict=True):
        up_by_residue.setdefault(d % 4, set()).add(links[1])
    assert all(len(links) == 1 for links in up_by_residue.values())
    assert len(set().union(*up_by_residue.values())) == 4
