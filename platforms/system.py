"""Seed-000 systems: interconnect + per-node memory devices + central storage network.

Storage coupling (docs/design.md): a node's DRAM and NVM are *endpoint hosts* behind links
whose bandwidths are the device rates, so a transfer from a device is an ordinary
network flow in a ptask and SimGrid's solver shares the device and the network path
together, as one activity::

   node-X-nvm --nvm_read-->  +-----------+ --node-X-bus--> node-X ==IN== other nodes
              <--nvm_write-- | node-X-gw |
   node-X-dram <--dram-->    +-----------+ --node-X-eth--> fe-switch --io-J-fe--> io-J
                                (zone node-X-dev)                        io-J --io-J-be--> be-switch

``node-X-bus`` is a zero-latency FATPIPE connector (SimGrid forbids empty zone routes);
it never constrains a flow.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import naming
from .model import PlatformModel
from .params import DragonflyParams, SystemParams
from .topologies import add_interconnect
from .xmlbuild import bw, lat, new_platform, num, props, speed, sub

MASTER = "master"
FE_SWITCH = "fe-switch"
BE_SWITCH = "be-switch"
CONNECTOR_BW = 1e12  # node bus connector: far above any device or link rate


def build_system(params: SystemParams) -> PlatformModel:
    root = new_platform()
    model = PlatformModel(name=params.name, root=root)
    top = sub(root, "zone", id="root", routing="Full")
    props(
        top,
        {
            "datasched_platform": params.name,
            "storage_mode": params.storage_mode,
            "topology": params.interconnect.topology.kind,
            "node_count": str(params.interconnect.topology.node_count),
            **_routing_props(params),
        },
    )
    unified = params.storage_mode == "unified"

    _add_master_zone(top, model)
    node = params.node
    node_props = {
        "role": "compute_node",
        "datasched_role": "compute_node",
        "dram_size": num(node.dram_size),
        "dram_bw": num(node.dram_bw),
    }
    if unified:
        node_props |= {
            "nvm_capacity": num(node.nvm_capacity),
            "nvm_read_bw": num(node.nvm_read_bw),
            "nvm_write_bw": num(node.nvm_write_bw),
        }
    nodes = add_interconnect(top, model, params.interconnect, node.speed, node.cores, node_props)
    servers = _add_storage_zone(top, model, params)
    for name in nodes:
        _add_device_zone(top, model, params, name, unified)

    # Root-level links, then every zoneRoute (DTD order: resources before routes).
    sub(top, "link", id="master-link", bandwidth=bw(CONNECTOR_BW), latency=lat(0), sharing_policy="FATPIPE")
    model.add_link("management", "master-link")
    st = params.storage
    for name in nodes:
        bus, eth = f"{name}-bus", f"{name}-eth"
        sub(top, "link", id=bus, bandwidth=bw(CONNECTOR_BW), latency=lat(0), sharing_policy="FATPIPE")
        sub(
            top,
            "link",
            id=eth,
            bandwidth=bw(st.node_nic_bw),
            latency=lat(st.frontend_lat),
            sharing_policy="SPLITDUPLEX",
        )
        model.add_link("device", bus)
        model.add_link("storage_frontend", eth)

    _zone_route(top, "master-zone", naming.INTERCONNECT_ZONE, MASTER, nodes[0], [("master-link", None)])
    _zone_route(top, "master-zone", "storage", MASTER, FE_SWITCH, [("master-link", None)])
    for name in nodes:
        dev, gw = naming.device_zone(name), f"{name}-gw"
        _zone_route(top, dev, naming.INTERCONNECT_ZONE, gw, name, [(f"{name}-bus", None)])
        _zone_route(top, dev, "storage", gw, FE_SWITCH, [(f"{name}-eth", "UP")])
    del servers
    return model


def _routing_props(params: SystemParams) -> dict[str, str]:
    """Dragonflies name their routing (and Valiant its seed); torus (DOR) and fat-tree
    (static) routing are SimGrid's only ones, their platforms say nothing more."""
    topo = params.interconnect.topology
    if not isinstance(topo, DragonflyParams):
        return {}
    if topo.routing == "valiant":
        return {"routing": topo.routing, "routing_seed": str(topo.routing_seed)}
    return {"routing": topo.routing}


def _zone_route(parent: ET.Element, src: str, dst: str, gw_src: str, gw_dst: str, links) -> None:
    zr = sub(parent, "zoneRoute", src=src, dst=dst, gw_src=gw_src, gw_dst=gw_dst, symmetrical="YES")
    for link, direction in links:
        if direction:
            sub(zr, "link_ctn", id=link, direction=direction)
        else:
            sub(zr, "link_ctn", id=link)


def _add_master_zone(top: ET.Element, model: PlatformModel) -> None:
    zone = sub(top, "zone", id="master-zone", routing="Full")
    host = sub(zone, "host", id=MASTER, speed=speed(1e9))
    props(host, {"role": "master", "datasched_role": "master"})
    model.add_host(MASTER, "master")


def _add_storage_zone(top: ET.Element, model: PlatformModel, params: SystemParams) -> list[str]:
    """k I/O servers and the staging servers, each with a front-end NIC to ``fe-switch``
    and a back-end NIC to ``be-switch``; explicit server-to-server routes use the back-end
    only (so a staging server drains to the I/O servers over the back-end network)."""
    st = params.storage
    zone = sub(top, "zone", id="storage", routing="Full")

    def server_hosts(prefix: str, count: int, role: str, disk_id: str, read: float, write: float, size: float):
        names = [naming.padded(prefix, j, count) for j in range(count)]
        for name in names:
            host = sub(zone, "host", id=name, speed=speed(st.server_speed))
            props(host, {"role": "storage", "datasched_role": role})
            props(sub(host, "disk", id=disk_id, read_bw=bw(read), write_bw=bw(write)), {"size": num(size)})
            model.add_host(name, role)
        return names

    servers = server_hosts(
        "io-",
        st.io_servers,
        "io_server",
        "disk",
        st.server_disk_read_bw,
        st.server_disk_write_bw,
        st.server_disk_capacity,
    )
    servers += server_hosts(
        "stage-",
        st.staging_servers,
        "staging",
        "ssd",
        st.staging_ssd_read_bw,
        st.staging_ssd_write_bw,
        st.staging_ssd_capacity,
    )
    sub(zone, "router", id=FE_SWITCH)
    sub(zone, "router", id=BE_SWITCH)
    for name in servers:
        for suffix, rate, delay, category in (
            ("fe", st.server_frontend_bw, st.frontend_lat, "storage_frontend"),
            ("be", st.backend_bw, st.backend_lat, "storage_backend"),
        ):
            link = f"{name}-{suffix}"
            sub(zone, "link", id=link, bandwidth=bw(rate), latency=lat(delay), sharing_policy="SPLITDUPLEX")
            model.add_link(category, link)
    for name in servers:
        route = sub(zone, "route", src=name, dst=FE_SWITCH, symmetrical="YES")
        sub(route, "link_ctn", id=f"{name}-fe", direction="UP")
        route = sub(zone, "route", src=name, dst=BE_SWITCH, symmetrical="YES")
        sub(route, "link_ctn", id=f"{name}-be", direction="UP")
    for a, src in enumerate(servers):
        for dst in servers[a + 1 :]:
            route = sub(zone, "route", src=src, dst=dst, symmetrical="YES")
            sub(route, "link_ctn", id=f"{src}-be", direction="UP")
            sub(route, "link_ctn", id=f"{dst}-be", direction="DOWN")
    return servers


def _add_device_zone(top: ET.Element, model: PlatformModel, params: SystemParams, node: str, unified: bool) -> None:
    """Zone ``node-X-dev``: router ``node-X-gw``, DRAM endpoint and (unified) NVM endpoint."""
    spec = params.node
    zone = sub(top, "zone", id=naming.device_zone(node), routing="Full")
    gw = f"{node}-gw"
    dram = naming.dram_name(node)
    host = sub(zone, "host", id=dram, speed=speed(1))
    dram_props = {"role": "storage", "datasched_role": "dram", "node": node, "capacity": num(spec.dram_size)}
    if spec.page_cache_capacity is not None:  # the engine's node page cache (sim/src/model/page_cache.hpp)
        dram_props |= {
            "page_cache_capacity": num(spec.page_cache_capacity),
            "page_cache_dirty_ratio": num(spec.page_cache_dirty_ratio),
        }
    props(host, dram_props)
    model.add_host(dram, "dram", owner=node)
    if unified:
        nvm = naming.nvm_name(node)
        host = sub(zone, "host", id=nvm, speed=speed(1))
        props(host, {"role": "storage", "datasched_role": "nvm", "node": node, "capacity": num(spec.nvm_capacity)})
        disk = sub(host, "disk", id="nvm", read_bw=bw(spec.nvm_read_bw), write_bw=bw(spec.nvm_write_bw))
        props(disk, {"size": num(spec.nvm_capacity)})
        model.add_host(nvm, "nvm", owner=node)
    sub(zone, "router", id=gw)
    dram_link = f"{node}-dram-link"
    sub(zone, "link", id=dram_link, bandwidth=bw(spec.dram_bw), latency=lat(0))
    model.add_link("device", dram_link)
    routes = [(dram, gw, [dram_link], "YES")]
    if unified:
        read, write = f"{node}-nvm-read", f"{node}-nvm-write"
        sub(zone, "link", id=read, bandwidth=bw(spec.nvm_read_bw), latency=lat(0))
        sub(zone, "link", id=write, bandwidth=bw(spec.nvm_write_bw), latency=lat(0))
        model.add_link("device", read)
        model.add_link("device", write)
        routes += [
            (nvm, gw, [read], "NO"),
            (gw, nvm, [write], "NO"),
            (nvm, dram, [read, dram_link], "NO"),
            (dram, nvm, [dram_link, write], "NO"),
        ]
    for src, dst, links, symmetrical in routes:
        route = sub(zone, "route", src=src, dst=dst, symmetrical=symmetrical)
        for link in links:
            sub(route, "link_ctn", id=link)
