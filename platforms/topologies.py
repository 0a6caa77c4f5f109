"""The application interconnect (zone ``ic``) for each seed-000 topology.

Torus and fat-tree fit SimGrid's own ``<cluster topology=...>``; the paper's dragonfly
does not (SimGrid's DRAGONFLY attaches the global link towards group j to router j of
every group, so it needs at least as many routers per group as there are groups, while
a canonical (p, a, h) dragonfly has a*h+1 groups of a routers), so it is an explicit
zone hierarchy whose routing is minimal dragonfly routing.

SimGrid ``topo_parameters`` for the seeds (see README for the routing differences):

=====================  ==========================================  =====
seed 000 name          SimGrid                                     nodes
=====================  ==========================================  =====
(4x4x4) torus          ``TORUS`` ``4,4,4``                         64
(8x8x8) torus          ``TORUS`` ``8,8,8``                         512
4:3 fat-tree           ``FAT_TREE`` ``3;4,4,4;1,4,4;1,1,1``        64
8:3 fat-tree           ``FAT_TREE`` ``3;8,8,8;1,8,8;1,1,1``        512
(2,4,2) dragonfly      explicit zones, 9 groups x 4 routers x 2    72
(4,6,4) dragonfly      explicit zones, 25 groups x 6 routers x 4   600
=====================  ==========================================  =====
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import dragonfly, naming
from .model import PlatformModel
from .params import DragonflyParams, FatTreeParams, InterconnectParams, TorusParams
from .xmlbuild import bw, lat, props, speed, sub

ZONE = naming.INTERCONNECT_ZONE


def torus_topo_parameters(t: TorusParams) -> str:
    """SimGrid TORUS: comma-separated sizes, first dimension varies fastest with rank."""
    return ",".join(str(d) for d in t.dims)


def fat_tree_topo_parameters(t: FatTreeParams) -> str:
    """SimGrid FAT_TREE ``levels;down;up;parallel`` for a k-ary n-tree.

    ::

        level 3   [S][S][S][S] ...        every switch: k children,
                   |\\  /|               k parents (except the top)
        level 1   [S]    [S]   ...
                  /|\\    /|\\
        nodes    o o o  o o o             k**n nodes, one parent each
    """
    k, n = t.k, t.levels
    down = ",".join([str(k)] * n)
    up = ",".join(["1"] + [str(k)] * (n - 1))
    parallel = ",".join(["1"] * n)
    return f"{n};{down};{up};{parallel}"


def add_interconnect(
    parent: ET.Element,
    model: PlatformModel,
    ic: InterconnectParams,
    node_speed: float,
    cores: int,
    node_props: dict[str, str],
) -> list[str]:
    """Append zone ``ic`` to ``parent``; return compute host names in rank order."""
    topo = ic.topology
    n = topo.node_count
    names = [naming.node_name(r, n) for r in range(n)]
    if isinstance(topo, DragonflyParams):
        _add_dragonfly(parent, model, ic, topo, names, node_speed, cores, node_props)
    else:
        kind, parameters = (
            ("TORUS", torus_topo_parameters(topo))
            if isinstance(topo, TorusParams)
            else ("FAT_TREE", fat_tree_topo_parameters(topo))
        )
        offset = naming.rank_offset(n)
        cluster = sub(
            parent,
            "cluster",
            id=ZONE,
            prefix=naming.NODE_PREFIX,
            suffix="",
            radical=f"{offset}-{offset + n - 1}",
            speed=speed(node_speed),
            core=str(cores),
            bw=bw(ic.link_bw),
            lat=lat(ic.link_lat),
            sharing_policy="SPLITDUPLEX",
            topology=kind,
            topo_parameters=parameters,
            loopback_bw=bw(ic.loopback_bw),
            loopback_lat=lat(0),
        )
        # SimGrid copies a cluster's <prop>s onto each of its hosts.
        props(cluster, node_props)
        model.interconnect_generated = True
    for name in names:
        model.add_host(name, "compute_node")
    return names


def _add_dragonfly(
    parent: ET.Element,
    model: PlatformModel,
    ic: InterconnectParams,
    df: DragonflyParams,
    names: list[str],
    node_speed: float,
    cores: int,
    node_props: dict[str, str],
) -> None:
    """Canonical dragonfly as zones, rank = (group * a + router) * p + slot; each router is a
    Full zone ``ic-g<g>-r<r>-zone`` holding its p nodes. Only Full routing: routes exist
    without sealing.

    ::

        group g (routers all-to-all)                    one global link per pair of
         [r0]--[r1]--[r2]--[r3]   (+ r0-r2, r0-r3,       groups, from port q of
          |  \\  |     |     |      r1-r3 local links)   group i (router q//h)
          o   o  o o   o o   o o   p nodes per router

    Port q of group i (0 <= q < a*h) leads to group ``q if q < i else q + 1``
    (``dragonfly.port_router``).

    * ``minimal``: ``ic`` (Full) holds one zone ``ic-g<g>`` per group (routers' zones and
      zoneRoutes between them, one local link each) and one zoneRoute per pair of groups
      whose gateways are the two routers owning their global link: local, global, local.
    * ``valiant``: ``ic`` holds the routers' zones directly, every link, and one zoneRoute
      per pair of routers with the whole router-level path of ``dragonfly.valiant_path``
      (a route between two groups can only differ per router pair if the routers' zones
      meet in ``ic``; SimGrid's Full routing allows one route per pair of zones).
    """
    p, a, h, groups = df.p, df.a, df.h, df.group_count
    link_bw, link_lat = bw(ic.link_bw), lat(ic.link_lat)
    zone = sub(parent, "zone", id=ZONE, routing="Full")

    def add_link(where: ET.Element, link: str) -> None:
        sub(where, "link", id=link, bandwidth=link_bw, latency=link_lat, sharing_policy="SPLITDUPLEX")
        model.add_link("interconnect", link)

    def local_pairs():
        return [(r, t) for r in range(a) for t in range(r + 1, a)]

    def router_zone_route(where: ET.Element, src: tuple[int, int], dst: tuple[int, int], hops) -> None:
        zr = sub(
            where,
            "zoneRoute",
            src=f"{dragonfly.router_name(*src)}-zone",
            dst=f"{dragonfly.router_name(*dst)}-zone",
            gw_src=dragonfly.router_name(*src),
            gw_dst=dragonfly.router_name(*dst),
            symmetrical="YES",
        )
        for link, direction in hops:
            sub(zr, "link_ctn", id=link, direction=direction)

    if df.routing == "valiant":
        for g in range(groups):
            for r in range(a):
                _add_router_zone(zone, model, ic, p, a, g, r, names, node_speed, cores, node_props)
        for g in range(groups):
            for r, t in local_pairs():
                add_link(zone, dragonfly.local_link(g, r, t))
        for i in range(groups):
            for j in range(i + 1, groups):
                add_link(zone, dragonfly.global_link(i, j))
        routers = [(g, r) for g in range(groups) for r in range(a)]
        for u, src in enumerate(routers):
            for dst in routers[u + 1 :]:
                hops = dragonfly.valiant_path(src, dst, h, groups, df.routing_seed)
                router_zone_route(zone, src, dst, hops)
        return

    for g in range(groups):
        gz = sub(zone, "zone", id=f"ic-g{g}", routing="Full")
        for r in range(a):
            _add_router_zone(gz, model, ic, p, a, g, r, names, node_speed, cores, node_props)
        for r, t in local_pairs():
            add_link(gz, dragonfly.local_link(g, r, t))
        for r, t in local_pairs():
            router_zone_route(gz, (g, r), (g, t), [(dragonfly.local_link(g, r, t), "UP")])

    for i in range(groups):
        for j in range(i + 1, groups):
            add_link(zone, dragonfly.global_link(i, j))
    for i in range(groups):
        for j in range(i + 1, groups):
            zr = sub(
                zone,
                "zoneRoute",
                src=f"ic-g{i}",
                dst=f"ic-g{j}",
                gw_src=dragonfly.router_name(i, dragonfly.port_router(i, j, h)),
                gw_dst=dragonfly.router_name(j, dragonfly.port_router(j, i, h)),
                symmetrical="YES",
            )
            sub(zr, "link_ctn", id=dragonfly.global_link(i, j), direction="UP")


def _add_router_zone(
    parent: ET.Element,
    model: PlatformModel,
    ic: InterconnectParams,
    p: int,
    a: int,
    g: int,
    r: int,
    names: list[str],
    node_speed: float,
    cores: int,
    node_props: dict[str, str],
) -> None:
    """Zone ``ic-g<g>-r<r>-zone``: router ``ic-g<g>-r<r>`` and its p nodes, each behind its
    own link ``ic_g<g>_r<r>_n<s>``, with a loopback link per node."""
    a_router = dragonfly.router_name(g, r)
    rz = sub(parent, "zone", id=f"{a_router}-zone", routing="Full")
    hosts = [names[(g * a + r) * p + s] for s in range(p)]
    for host in hosts:
        he = sub(rz, "host", id=host, speed=speed(node_speed), core=str(cores))
        # group/router path: the allocators' hop distances (datasched.policy.topology)
        # cannot be read from explicit zones, only from clusters or this property
        props(he, {**node_props, "topology_path": f"g{g}/r{r}"})
    sub(rz, "router", id=a_router)
    link_bw, link_lat = bw(ic.link_bw), lat(ic.link_lat)
    for s, host in enumerate(hosts):
        link = f"ic_g{g}_r{r}_n{s}"
        sub(rz, "link", id=link, bandwidth=link_bw, latency=link_lat, sharing_policy="SPLITDUPLEX")
        model.add_link("interconnect", link)
        loop = f"ic_{host}_loopback"
        sub(rz, "link", id=loop, bandwidth=bw(ic.loopback_bw), latency=lat(0), sharing_policy="FATPIPE")
        model.add_link("interconnect", loop)
    for s, host in enumerate(hosts):
        route = sub(rz, "route", src=host, dst=a_router, symmetrical="YES")
        sub(route, "link_ctn", id=f"ic_g{g}_r{r}_n{s}", direction="UP")
        route = sub(rz, "route", src=host, dst=host, symmetrical="NO")
        sub(route, "link_ctn", id=f"ic_{host}_loopback")
        for t in range(s + 1, p):
            route = sub(rz, "route", src=host, dst=hosts[t], symmetrical="YES")
            sub(route, "link_ctn", id=f"ic_g{g}_r{r}_n{s}", direction="UP")
            sub(route, "link_ctn", id=f"ic_g{g}_r{r}_n{t}", direction="DOWN")
