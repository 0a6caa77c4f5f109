"""Minimal and Valiant routes of the dragonfly (platforms/dragonfly.py), checked by hand on
small cases, as properties over random dragonflies, and on the XML the generator writes.

Layout reminder: port q of group i (router q // h) leads to group ``q if q < i else q + 1``;
a SPLITDUPLEX link is traversed UP from its lower-numbered end."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from datasched.platforms import DragonflyParams, InterconnectParams, SystemParams, generate
from datasched.platforms import dragonfly as df


def test_valiant_path_by_hand_on_three_groups():
    """(p, a, h) = (1, 2, 1), 3 groups: group 0's router 0 owns the link to group 1, router 1
    the link to group 2 (the same in groups 1 and 2: router 0 towards the lower other group).
    Group 0 router 0 -> group 1 router 0: minimal = the global link g0-g1 alone; Valiant can
    only go through group 2: local r0->r1 in g0, global g0->g2 (arrives at g2's router 0),
    local r0->r1 in g2, global g2->g1 (arrives at g1's router 1), local r1->r0 in g1."""
    src, dst = (0, 0), (1, 0)
    assert df.minimal_path(src, dst, h=1) == [("ic_global_g0_g1", "UP")]
    assert df.valiant_intermediate(src, dst, groups=3, seed=7) == 2
    assert df.valiant_path(src, dst, h=1, groups=3, seed=7) == [
        ("ic_g0_r0_r1", "UP"),
        ("ic_global_g0_g2", "UP"),
        ("ic_g2_r0_r1", "UP"),
        ("ic_global_g1_g2", "DOWN"),
        ("ic_g1_r0_r1", "DOWN"),
    ]


def _walk(src, hops, h):
    """Follow ``hops`` from router ``src``: each link must start at the current router and the
    direction must match the end it leaves from; returns the routers visited."""
    at, visited = src, [src]
    for link, direction in hops:
        if m := re.fullmatch(r"ic_g(\d+)_r(\d+)_r(\d+)", link):
            g, lo, hi = map(int, m.groups())
            ends = ((g, lo), (g, hi))
        else:
            m = re.fullmatch(r"ic_global_g(\d+)_g(\d+)", link)
            assert m, link
            i, j = map(int, m.groups())
            ends = ((i, df.port_router(i, j, h)), (j, df.port_router(j, i, h)))
        assert lo_hi_ok(ends, at, direction), (link, direction, at)
        at = ends[1] if at == ends[0] else ends[0]
        visited.append(at)
    return visited


def lo_hi_ok(ends, at, direction) -> bool:
    return (at == ends[0] and direction == "UP") or (at == ends[1] and direction == "DOWN")


@st.composite
def dragonfly_pairs(draw):
    a, h = draw(st.tuples(st.integers(1, 4), st.integers(1, 3)).filter(lambda ah: ah[0] * ah[1] >= 2))
    groups = draw(st.integers(3, a * h + 1))  # Valiant needs a third group
    router = st.tuples(st.integers(0, groups - 1), st.integers(0, a - 1))
    return a, h, groups, draw(router), draw(router), draw(st.integers(0, 10**6))


@given(dragonfly_pairs())
def test_every_valiant_path_is_minimal_to_the_intermediate_then_minimal_to_the_destination(case):
    """Between groups: two minimal segments meeting in the intermediate group k (neither the
    source's nor the destination's), each with exactly one global link and at most 3 links,
    the whole a connected walk from src to dst; inside a group: the minimal path."""
    a, h, groups, src, dst, seed = case
    path = df.valiant_path(src, dst, h, groups, seed)
    assert _walk(src, path, h)[-1] == dst
    if src[0] == dst[0]:
        assert path == df.minimal_path(src, dst, h) and len(path) == (src != dst)
        return
    k = df.valiant_intermediate(src, dst, groups, seed)
    assert k not in (src[0], dst[0]) and 0 <= k < groups
    entry = (k, df.port_router(k, src[0], h))
    first, second = df.minimal_path(src, entry, h), df.minimal_path(entry, dst, h)
    assert path == first + second
    for segment in (first, second):
        assert sum(link.startswith("ic_global_") for link, _ in segment) == 1 and len(segment) <= 3
    assert sum(link.startswith("ic_global_") for link, _ in path) == 2
    # both directions take the same intermediate group, so a route's reverse is its mirror
    back = df.valiant_path(dst, src, h, groups, seed)
    assert back == [(link, "DOWN" if d == "UP" else "UP") for link, d in reversed(path)]


@given(dragonfly_pairs())
def test_same_seed_same_route(case):
    a, h, groups, src, dst, seed = case
    assert df.valiant_path(src, dst, h, groups, seed) == df.valiant_path(src, dst, h, groups, seed)


def test_seeds_change_the_intermediate_groups():
    pairs = [((0, r), (1, t)) for r in range(6) for t in range(6)]
    one = [df.valiant_intermediate(s, d, 25, 1) for s, d in pairs]
    two = [df.valiant_intermediate(s, d, 25, 2) for s, d in pairs]
    assert one != two


def test_intermediate_groups_are_drawn_evenly_on_the_600_node_dragonfly():
    """(4,6,4): 25 groups of 6 routers; C(25,2) * 36 = 10800 router pairs in different groups.
    Group k is eligible in the C(24,2) * 36 = 9936 pairs that avoid it, each choosing among
    23 groups: 9936 / 23 = 432 expected; binomial sd ~ 20, so +-100 is a 5-sigma band."""
    routers = [(g, r) for g in range(25) for r in range(6)]
    counts = Counter(
        df.valiant_intermediate(s, d, 25, 1) for u, s in enumerate(routers) for d in routers[u + 1 :] if s[0] != d[0]
    )
    assert sum(counts.values()) == 10800 and len(counts) == 25
    assert all(332 <= n <= 532 for n in counts.values()), counts


def _global_loads(routing: df.Routing, seed: int = 1) -> Counter:
    """Every node of group 0 sends b = 1 to every node of group 1 on the (2,4,2) dragonfly:
    p*a * p*a = 64 flows, p*p = 4 of them per router pair. Returns bytes per global link
    and direction."""
    loads: Counter = Counter()
    for r in range(4):
        for t in range(4):
            for link, direction in df.router_path((0, r), (1, t), h=2, groups=9, routing=routing, seed=seed):
                if link.startswith("ic_global_"):
                    loads[(link, direction)] += 4
    return loads


def test_adversarial_group_to_group_load_under_minimal_and_valiant():
    """Minimal: all 64 units cross the one global link g0-g1. Valiant: none does; router pair
    (r, t) puts its 4 units on g0->k(r,t) and on k(r,t)->g1, so the link g0->k carries
    4 * n_k, n_k = number of the 16 router pairs drawing k (sum 64 over g0's 7 other links)."""
    assert _global_loads("minimal") == {("ic_global_g0_g1", "UP"): 64}
    loads = _global_loads("valiant")
    n = Counter(df.valiant_intermediate((0, r), (1, t), 9, 1) for r in range(4) for t in range(4))
    assert ("ic_global_g0_g1", "UP") not in loads
    for k, count in n.items():
        assert loads[(df.global_link(0, k), "UP")] == 4 * count
        assert loads[(df.global_link(k, 1), "UP" if k < 1 else "DOWN")] == 4 * count
    assert sum(loads.values()) == 2 * 64  # every unit takes two global hops
    assert max(loads.values()) == 4 * max(n.values()) < 64  # spread over several links


def _zone_routes(params: DragonflyParams) -> dict[tuple[str, str], list[tuple[str, str]]]:
    root = generate(SystemParams(name="t", interconnect=InterconnectParams(topology=params))).root
    ic = next(z for z in root.iter("zone") if z.get("id") == "ic")
    return {
        (str(zr.get("src")), str(zr.get("dst"))): [(str(c.get("id")), str(c.get("direction"))) for c in zr]
        for zr in ic.findall("zoneRoute")
    }


def test_generator_writes_one_valiant_route_per_router_pair():
    """(2,4,2): 36 routers, C(36,2) = 630 zoneRoutes in zone ic, each the path of
    dragonfly.valiant_path; the routing and its seed are root-zone properties."""
    params = DragonflyParams(p=2, a=4, h=2, routing="valiant", routing_seed=5)
    routes = _zone_routes(params)
    assert len(routes) == 630
    routers = [(g, r) for g in range(9) for r in range(4)]
    for u, src in enumerate(routers):
        for dst in routers[u + 1 :]:
            key = (f"{df.router_name(*src)}-zone", f"{df.router_name(*dst)}-zone")
            assert routes[key] == df.valiant_path(src, dst, 2, 9, 5)
    root = generate(SystemParams(name="t", interconnect=InterconnectParams(topology=params))).root
    top = {p.get("id"): p.get("value") for p in root.find("zone").findall("prop")}  # type: ignore[union-attr]
    assert top["routing"] == "valiant" and top["routing_seed"] == "5"


def test_minimal_generation_keeps_group_zones():
    """Minimal routing is written as before: 36 group-to-group zoneRoutes in ic, one global link each."""
    routes = _zone_routes(DragonflyParams(p=2, a=4, h=2))
    assert len(routes) == 36 and all(len(links) == 1 for links in routes.values())
