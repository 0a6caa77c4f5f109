"""The in-memory result of ``generate``: the XML tree plus a summary the tests, the CLI
and other modules can query without re-parsing (which hosts have which role, which
links belong to which network)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

# Batsim's roles (host property ``role``); Batsim 4 rejects any other value.
BATSIM_ROLES = ("master", "compute_node", "storage")

# Our finer roles (host property ``datasched_role``) and the Batsim role each maps to.
DATASCHED_ROLES = {
    "master": "master",
    "compute_node": "compute_node",
    "dram": "storage",
    "nvm": "storage",
    "io_server": "storage",
    "forwarder": "storage",
    "staging": "storage",
    "staging_port": "storage",  # a staging server's port on the separate storage network
}

# Link categories used by ``PlatformModel.links``.
LINK_CATEGORIES = (
    "interconnect",  # application interconnect (IN); SimGrid-generated ones are not listed
    "device",  # node DRAM / NVM links and the zero-cost node bus connectors
    "storage_frontend",  # Ethernet NICs of nodes and I/O servers
    "storage_backend",  # server-to-server replication network
    "management",  # master host connection
    "fabric",  # single-switch networks of the seed 002/003 set-ups
    "storage_network",  # seed 003's separate network between staging servers and the back-end PFS
)


@dataclass(frozen=True)
class HostInfo:
    name: str
    role: str  # Batsim role
    datasched_role: str
    owner: str | None = None  # compute node that owns a dram/nvm endpoint


@dataclass
class PlatformModel:
    """``root`` is the ``<platform>`` element; ``hosts`` lists every host in XML order.

    ``interconnect_generated`` is True when SimGrid generates the interconnect links
    itself (``<cluster topology=...>``): their names are then not in ``links``."""

    name: str
    root: ET.Element
    hosts: list[HostInfo] = field(default_factory=list)
    links: dict[str, list[str]] = field(default_factory=lambda: {c: [] for c in LINK_CATEGORIES})
    interconnect_generated: bool = False

    def add_host(self, name: str, datasched_role: str, owner: str | None = None) -> None:
        self.hosts.append(HostInfo(name, DATASCHED_ROLES[datasched_role], datasched_role, owner))

    def add_link(self, category: str, name: str) -> None:
        self.links[category].append(name)

    def hosts_with(self, datasched_role: str) -> list[str]:
        return [h.name for h in self.hosts if h.datasched_role == datasched_role]

    def role_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for host in self.hosts:
            counts[host.datasched_role] = counts.get(host.datasched_role, 0) + 1
        return counts
