"""What a policy knows about the machine: compute hosts and, if any, their topology."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from datasched.policy.topology import HostDistances


@dataclass(frozen=True)
class HostInfo:
    """One compute host as Batsim numbers it (``id`` in ``0..n-1``)."""

    id: int
    name: str
    properties: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)


@dataclass(frozen=True)
class PlatformView:
    """Compute hosts by id plus optional host distances.

    ``distances`` is ``None`` when the platform carries no topology information; a
    topology-aware allocator then degrades to sequential allocation.
    """

    hosts: tuple[HostInfo, ...]
    distances: HostDistances | None = None

    def __post_init__(self) -> None:
        for index, host in enumerate(self.hosts):
            if host.id != index:
                raise ValueError(
                    f"compute host ids must be 0..n-1 in order; host {host.name!r} has id {host.id} at position {index}"
                )

    @property
    def nb_hosts(self) -> int:
        return len(self.hosts)

    @classmethod
    def uniform(cls, nb_hosts: int, distances: HostDistances | None = None) -> PlatformView:
        """``nb_hosts`` anonymous hosts named ``host0``.. (tests and offline tools)."""
        return cls(tuple(HostInfo(i, f"host{i}") for i in range(nb_hosts)), distances)

    @classmethod
    def from_batsim_resources(
        cls, resources: Iterable[Mapping[str, Any]], distances: HostDistances | None = None
    ) -> PlatformView:
        """Build from the ``compute_resources`` list of Batsim's ``SIMULATION_BEGINS``."""
        ordered = sorted(resources, key=lambda r: int(r["id"]))
        hosts = tuple(
            HostInfo(
                int(r["id"]),
                str(r.get("name", f"host{r['id']}")),
                MappingProxyType({str(k): str(v) for k, v in (r.get("properties") or {}).items()}),
            )
            for r in ordered
        )
        return cls(hosts, distances)
