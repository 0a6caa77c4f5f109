"""Routes of the canonical (p, a, h) dragonfly, minimal and Valiant, as router-level link lists.

The generator writes these lists into the platform XML (SimGrid then routes and shares
exactly as written); the tests use the same functions to predict what SimGrid returns.

Layout (``topologies._add_dragonfly``): g groups of a routers, all-to-all local links
``ic_g<g>_r<r>_r<t>`` (r < t), one global link ``ic_global_g<i>_g<j>`` (i < j) per pair of
groups. Global port q of group i (0 <= q < a*h) belongs to router q // h and leads to group
``q if q < i else q + 1``. A SPLITDUPLEX link is traversed ``UP`` from its lower-numbered
end to its higher one and ``DOWN`` the other way.

**Minimal** (group-to-group): local hop to the router owning the global link to the
destination group (if another), that global link, local hop to the destination router (if
another): at most 3 router-level links, 5 with the two node links.

**Valiant** (Kim et al., ISCA 2008, "VAL" on dragonflies): traffic between two groups goes
minimally to an intermediate group k, then minimally from k to the destination group: at
most 5 router-level links (local, global, local in k, global, local), 7 with the node links.
Our rules, written down because the paper does not give them:

* k is drawn uniformly among the g - 2 groups that are neither the source's nor the
  destination's (every inter-group route takes two global hops);
* **one k per (source router, destination router) pair**, deterministic from ``seed``
  (:func:`valiant_intermediate`), the same for both directions: SimGrid has one static route
  per pair of routing zones, and a zone per node would need n^2 explicit routes (90 MB of XML
  for 600 nodes). The p^2 node pairs between two routers therefore share one path, where a
  per-flow Valiant draws one per flow and a per-packet one splits each flow over all g - 2
  (docs/design.md, "Valiant routing on the dragonfly", states what that costs);
* traffic inside one group stays minimal (one local hop), as in Kim et al.'s VAL, where only
  the choice of group is randomised.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Routing = Literal["minimal", "valiant"]
#: Routing names a dragonfly accepts (platform parameters and the catalog).
ROUTINGS: tuple[str, ...] = ("minimal", "valiant")

#: A router-level hop: (link id, "UP" | "DOWN").
Hop = tuple[str, str]


def router_name(g: int, r: int) -> str:
    return f"ic-g{g}-r{r}"


def local_link(g: int, r: int, t: int) -> str:
    lo, hi = sorted((r, t))
    return f"ic_g{g}_r{lo}_r{hi}"


def global_link(i: int, j: int) -> str:
    lo, hi = sorted((i, j))
    return f"ic_global_g{lo}_g{hi}"


def port_router(i: int, j: int, h: int) -> int:
    """Router of group i owning the global link to group j (j != i)."""
    q = j if j < i else j - 1
    return q // h


def _local_hop(g: int, r: int, t: int) -> list[Hop]:
    if r == t:
        return []
    return [(local_link(g, r, t), "UP" if r < t else "DOWN")]


def _global_hop(i: int, j: int) -> Hop:
    return (global_link(i, j), "UP" if i < j else "DOWN")


def minimal_path(src: tuple[int, int], dst: tuple[int, int], h: int) -> list[Hop]:
    """Router-level links from router ``src = (group, router)`` to router ``dst``, minimally."""
    (gs, rs), (gd, rd) = src, dst
    if gs == gd:
        return _local_hop(gs, rs, rd)
    return (
        _local_hop(gs, rs, port_router(gs, gd, h)) + [_global_hop(gs, gd)] + _local_hop(gd, port_router(gd, gs, h), rd)
    )


def valiant_intermediate(src: tuple[int, int], dst: tuple[int, int], groups: int, seed: int) -> int:
    """The intermediate group of the routers ``src`` and ``dst`` (different groups): uniform
    over the g - 2 other groups, a pure function of the unordered router pair and ``seed``
    (SHA-256, so it never depends on Python's hash seed or version)."""
    (gs, _), (gd, _) = src, dst
    if gs == gd:
        raise ValueError("Valiant routing draws an intermediate group only between two groups")
    if groups < 3:
        raise ValueError(f"Valiant routing needs at least 3 groups, got {groups}")
    lo, hi = sorted((src, dst))
    digest = hashlib.sha256(f"valiant:{seed}:{lo[0]},{lo[1]}:{hi[0]},{hi[1]}".encode()).digest()
    index = int.from_bytes(digest[:8], "big") % (groups - 2)
    others = [g for g in range(groups) if g not in (gs, gd)]
    return others[index]


def valiant_path(src: tuple[int, int], dst: tuple[int, int], h: int, groups: int, seed: int) -> list[Hop]:
    """Router-level links from ``src`` to ``dst``: minimal inside a group; between groups,
    minimal to the intermediate group's entry router, then minimal from it to ``dst``."""
    (gs, _), (gd, _) = src, dst
    if gs == gd:
        return minimal_path(src, dst, h)
    k = valiant_intermediate(src, dst, groups, seed)
    entry = (k, port_router(k, gs, h))
    return minimal_path(src, entry, h) + minimal_path(entry, dst, h)


def router_path(
    src: tuple[int, int], dst: tuple[int, int], h: int, groups: int, routing: Routing, seed: int
) -> list[Hop]:
    if routing == "minimal":
        return minimal_path(src, dst, h)
    if routing == "valiant":
        return valiant_path(src, dst, h, groups, seed)
    raise ValueError(f"unknown dragonfly routing {routing!r} (choose from {', '.join(ROUTINGS)})")
