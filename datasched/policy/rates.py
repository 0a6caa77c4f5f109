"""The data rates a policy may reason with: the engine's own, read from the platform.

Data-aware decisions that weigh moving data against waiting (schedulers/workflow.py:
holding nodes, writing an output to node NVM first) need the rates the engine will
apply, not constants of the policy's own. They come from the same platform the
engine runs:

- node NVM read / write (B/s) and capacity (bytes): the compute host's properties
  ``nvm_read_bw``, ``nvm_write_bw``, ``nvm_capacity`` (platforms/ writes them; Batsim
  forwards them in ``compute_resources``), else the platform XML's links
  ``<host>-nvm-read`` / ``<host>-nvm-write`` (the endpoint layout of platforms/README.md);
- the interconnect: the ``bw`` of the SimGrid ``<cluster>`` holding the compute hosts
  (torus and fat-tree systems of platforms/; one link of the path: a lower bound on the
  time of a flow that crosses it alone);
- central storage, per node: the node's storage NIC ``<host>-eth`` (the SAN / stage path).

A rate the platform does not state is ``inf`` (not limiting); an unknown capacity is
unlimited. Rates, never a simulation: contention is SimGrid's to compute at run time.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from datasched.errors import UserError
from datasched.policy.platform_xml import platform_root

if TYPE_CHECKING:
    from datasched.policy.platform import HostInfo

_EMPTY: Mapping[int, float] = MappingProxyType({})


@dataclass(frozen=True)
class DataRates:
    """Per compute-host id: NVM read / write rates, NVM capacity, central-storage path;
    one interconnect link rate. Every getter answers ``inf`` when the platform is silent."""

    nvm_read_bw: Mapping[int, float] = field(default_factory=lambda: _EMPTY)
    nvm_write_bw: Mapping[int, float] = field(default_factory=lambda: _EMPTY)
    nvm_capacity_bytes: Mapping[int, float] = field(default_factory=lambda: _EMPTY)
    central_bw: Mapping[int, float] = field(default_factory=lambda: _EMPTY)
    link_bw: float = math.inf

    def nvm_read(self, host: int) -> float:
        return self.nvm_read_bw.get(host, math.inf)

    def nvm_write(self, host: int) -> float:
        return self.nvm_write_bw.get(host, math.inf)

    def nvm_capacity(self, host: int) -> float:
        return self.nvm_capacity_bytes.get(host, math.inf)

    def central(self, host: int) -> float:
        return self.central_bw.get(host, math.inf)

    def move(self, source: int, target: int) -> float:
        """Rate of a data mover copying bytes from ``source``'s NVM to ``target``'s (the
        engine's ``stage_move``: Y-nvm -> X -> X-nvm as one activity, so the slowest of
        the source's NVM read, the path and the target's NVM write)."""
        return min(self.nvm_read(source), self.link_bw, self.nvm_write(target))


_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
_PREFIX.update({"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60})
_BANDWIDTH = re.compile(r"^\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)\s*(?:([A-Za-z]{0,2}?)(Bps|bps))?\s*$")


def _rate(text: str | None, what: str) -> float | None:
    """A property (bytes per second, a plain number): a clear error if it is not one."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"platform: {what} is {text!r}, not a number of bytes per second") from None
    if not value > 0:
        raise UserError(f"platform: {what} is {text!r}, it must be positive")
    return value


def _xml_bandwidth(text: str | None) -> float | None:
    """A SimGrid bandwidth (``1.25GBps``, ``10Gbps``, ``100MiBps``, a plain number = B/s);
    ``None`` for what it cannot read: SimGrid checks its own platform files, a policy only
    loses that rate (not limiting)."""
    match = _BANDWIDTH.match(text or "")
    if match is None or (match.group(2) or "") not in _PREFIX:
        return None
    value = float(match.group(1)) * _PREFIX[match.group(2) or ""]
    if match.group(3) == "bps":
        value /= 8
    return value if value > 0 else None


def rates_for(hosts: Sequence[HostInfo], platform_xml: str | Path | None = None) -> DataRates:
    """Rates from the hosts' properties and, when given, the platform XML (module docstring)."""
    read: dict[int, float] = {}
    write: dict[int, float] = {}
    capacity: dict[int, float] = {}
    for host in hosts:
        for key, into in (("nvm_read_bw", read), ("nvm_write_bw", write), ("nvm_capacity", capacity)):
            value = _rate(host.properties.get(key), f"host {host.name!r} property {key}")
            if value is not None:
                into[host.id] = value
    central: dict[int, float] = {}
    link = math.inf
    if platform_xml is not None:
        links, link = _links_from_xml(Path(platform_xml), {h.name for h in hosts})
        for host in hosts:
            for suffix, into in (("-nvm-read", read), ("-nvm-write", write), ("-eth", central)):
                bandwidth = links.get(host.name + suffix)
                if bandwidth is not None:
                    into.setdefault(host.id, bandwidth)
    return DataRates(
        MappingProxyType(read), MappingProxyType(write), MappingProxyType(capacity), MappingProxyType(central), link
    )


def _links_from_xml(path: Path, compute_names: set[str]) -> tuple[dict[str, float], float]:
    """Bandwidths of the platform's ``<link>`` elements by id, and the ``bw`` of the
    ``<cluster>`` whose hosts are compute hosts (``inf`` if none)."""
    try:
        root = platform_root(path)
    except (OSError, ET.ParseError) as exc:
        raise UserError(f"platform {path}: cannot read it ({exc})") from None
    links: dict[str, float] = {}
    cluster_bw = math.inf
    for element in root.iter():
        if element.tag == "link":
            bandwidth = _xml_bandwidth(element.get("bandwidth"))
            if bandwidth is not None:
                links[str(element.get("id"))] = bandwidth
        elif element.tag == "cluster" and element.get("bw") is not None:
            if _cluster_names(element) & compute_names:
                bandwidth = _xml_bandwidth(element.get("bw"))
                if bandwidth is not None:
                    cluster_bw = min(cluster_bw, bandwidth)
    return links, cluster_bw


def _cluster_names(cluster: ET.Element) -> set[str]:
    """Host names of a SimGrid ``<cluster prefix radical suffix>`` (radical ``a-b,c``)."""
    prefix, suffix = cluster.get("prefix", ""), cluster.get("suffix", "")
    names = set()
    for part in cluster.get("radical", "").split(","):
        low, _, high = part.partition("-")
        if not low.strip().isdigit() or (high and not high.strip().isdigit()):
            continue
        for number in range(int(low), int(high or low) + 1):
            names.add(f"{prefix}{number}{suffix}")
    return names
