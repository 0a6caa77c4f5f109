"""Single-switch set-ups of seeds 002 (I/O forwarding), 003 (data staging) and 004 (on-demand file systems).

Both are one SimGrid ``Cluster`` zone (a non-blocking switch): every host has its own full-duplex
NIC link, so host A -> host B is ``[A_UP, B_DOWN]`` and flows contend at NICs, which is
what both papers study (forwarders/servers saturating; I/O sharing the IB links of MPI)::

      client-00  client-01 ... fwd-0 ... server-0 (HDD) ... master
          \\          |           |          |             /
           +------------------ [switch] -----------------+
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import naming
from .model import DATASCHED_ROLES, PlatformModel
from .params import ForwardingParams, OnDemandParams, StagingParams
from .xmlbuild import bw, lat, new_platform, num, props, speed, sub


def _star(name: str, kind: str) -> tuple[ET.Element, ET.Element, PlatformModel]:
    root = new_platform()
    model = PlatformModel(name=name, root=root)
    zone = sub(root, "zone", id="root", routing="Cluster")
    props(zone, {"datasched_platform": name, "setup": kind})
    return root, zone, model


def _finish_star(zone: ET.Element, model: PlatformModel, link_bw: float, link_lat: float) -> None:
    names = [h.name for h in model.hosts]
    for name in names:
        sub(zone, "link", id=f"{name}-nic", bandwidth=bw(link_bw), latency=lat(link_lat), sharing_policy="SPLITDUPLEX")
        model.add_link("fabric", f"{name}-nic")
    for name in names:
        sub(zone, "host_link", id=name, up=f"{name}-nic_UP", down=f"{name}-nic_DOWN")


def _host(zone, model, name, role, host_speed, cores, extra=None):
    host = sub(zone, "host", id=name, speed=speed(host_speed), core=str(cores))
    props(host, {"role": DATASCHED_ROLES[role], "datasched_role": role} | (extra or {}))
    model.add_host(name, role)
    return host


def _host_group(zone, model, prefix, count, role, host_speed, cores, dram_size):
    """`count` identical hosts named prefix-000..., each with its DRAM size as a property."""
    return [
        _host(zone, model, naming.padded(prefix, i, count), role, host_speed, cores, {"dram_size": num(dram_size)})
        for i in range(count)
    ]


def _add_disk(host, disk_id, device, read_bw, write_bw, capacity):
    disk = sub(host, "disk", id=disk_id, read_bw=bw(read_bw), write_bw=bw(write_bw))
    props(disk, {"device": device, "size": num(capacity)})


def build_forwarding(params: ForwardingParams) -> PlatformModel:
    """Seed 002: clients, I/O forwarders and HDD data servers on 10 Gbit Ethernet."""
    _, zone, model = _star(params.name, "forwarding")
    _host(zone, model, "master", "master", 1e9, 1)
    _host_group(zone, model, "client-", params.clients, "compute_node", params.speed, params.cores, params.dram_size)
    _host_group(zone, model, "fwd-", params.forwarders, "forwarder", params.speed, params.cores, params.dram_size)
    for host in _host_group(
        zone, model, "server-", params.servers, "io_server", params.speed, params.cores, params.dram_size
    ):
        _add_disk(host, "disk", "hdd", params.hdd_read_bw, params.hdd_write_bw, params.hdd_capacity)
    _finish_star(zone, model, params.link_bw, params.link_lat)
    return model


def build_staging(params: StagingParams) -> PlatformModel:
    r"""Seed 003: client nodes and SSD staging servers on one InfiniBand-like switch.

    With ``pfs_servers`` > 0 the star becomes one zone of two: the data movers drain the
    staging SSDs to the back-end PFS over a separate storage network (seed 003 §III), which
    no client traffic crosses. A staging server ``stg-i`` then has a second host, its port
    ``stg-i-san`` on that network (SimGrid hosts have one NIC in a Cluster zone)::

        client-* ... stg-i (SSD) ... master          stg-i-san ... pfs-j
              \        |           /                        \      /
               +-- [IB switch] --+                      [storage switch]
    """
    if params.pfs_servers == 0:
        _, zone, model = _star(params.name, "staging")
    else:
        root = new_platform()
        model = PlatformModel(name=params.name, root=root)
        outer = sub(root, "zone", id="root", routing="Full")
        props(outer, {"datasched_platform": params.name, "setup": "staging"})
        zone = sub(outer, "zone", id="fabric", routing="Cluster")
    _host(zone, model, "master", "master", 1e9, 1)
    _host_group(
        zone, model, "client-", params.clients, "compute_node", params.speed, params.cores, params.client_dram_size
    )
    servers = _host_group(
        zone, model, "stg-", params.staging_servers, "staging", params.speed, params.cores, params.server_dram_size
    )
    for host in servers:
        _add_disk(host, "ssd", "ssd", params.ssd_read_bw, params.ssd_write_bw, params.ssd_capacity)
    _finish_star(zone, model, params.link_bw, params.link_lat)
    if params.pfs_servers > 0:
        _add_storage_network(outer, model, params, [h.get("id") for h in servers])
    return model


def _add_storage_network(outer: ET.Element, model: PlatformModel, params: StagingParams, servers: list[str]) -> None:
    """The storage switch: one port host per staging server and the PFS servers, each on its
    own SPLITDUPLEX NIC. No route joins it to the IB zone: nothing but the drain crosses it."""
    zone = sub(outer, "zone", id="storage-network", routing="Cluster")
    names = [f"{name}-san" for name in servers]
    for name, server in zip(names, servers, strict=True):
        _host(zone, model, name, "staging_port", params.speed, 1, {"staging_server": server})
    names += [
        h.get("id") for h in _host_group(zone, model, "pfs-", params.pfs_servers, "io_server", params.speed, 1, 0)
    ]
    for name in names:
        sub(
            zone,
            "link",
            id=f"{name}-nic",
            bandwidth=bw(params.storage_link_bw),
            latency=lat(params.storage_link_lat),
            sharing_policy="SPLITDUPLEX",
        )
        model.add_link("storage_network", f"{name}-nic")
    for name in names:
        sub(zone, "host_link", id=name, up=f"{name}-nic_UP", down=f"{name}-nic_DOWN")


def build_ondemand(params: OnDemandParams) -> PlatformModel:
    """Seed 004: compute nodes with a node-local SSD and external PFS servers on one switch."""
    _, zone, model = _star(params.name, "ondemand")
    _host(zone, model, "master", "master", 1e9, 1)
    for host in _host_group(
        zone, model, "node-", params.nodes, "compute_node", params.speed, params.cores, params.dram_size
    ):
        _add_disk(host, "ssd", "ssd", params.ssd_read_bw, params.ssd_write_bw, params.ssd_capacity)
    for host in _host_group(
        zone, model, "pfs-", params.pfs_servers, "io_server", params.speed, params.cores, params.dram_size
    ):
        _add_disk(host, "disk", "pfs", params.pfs_disk_read_bw, params.pfs_disk_write_bw, params.pfs_disk_capacity)
    _finish_star(zone, model, params.link_bw, params.link_lat)
    return model
