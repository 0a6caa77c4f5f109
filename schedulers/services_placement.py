"""Placement of an on-demand file system's services (seed 004): which nodes of an
allocation run the object storage targets and the metadata service.

BeeOND as the paper deploys it (its Slurm prolog) starts a storage target on *every* node
of the allocation and the metadata (and management) service on the lowest one, so a
tightly coupled job sharing the allocation with an I/O job serves the I/O job's traffic.
The mitigations the paper proposes (section V) keep the services off the compute job:

- ``all``: BeeOND as deployed (the paper's measurements) — storage on every node,
  metadata on the lowest;
- ``io_nodes``: services only on the I/O job's nodes (metadata on the lowest of them):
  "starting all BeeOND processes on nodes that were engaged in IOR runs";
- ``dedicated``: services only on extra nodes added to the allocation for them
  ("expand the size of the job to include extra servers").

This mode runs without a decision process: the placement is decided once, when the
allocation starts (as the prolog does), so a policy is a pure function of the allocation's
node lists. The engine receives its result as host lists (``services.storage`` and
``services.metadata`` of the ``--interference`` experiment, sim/src/interference/README.md).
Adding a placement = one class here with ``@placement``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from datasched.errors import UserError


@dataclass(frozen=True)
class Allocation:
    """An allocation's nodes by task, each list in allocation order (lowest first).
    ``spare`` nodes run a separate task (the paper's k nodes beside the metadata server);
    ``dedicated`` nodes were added for the file system's services only."""

    spare: tuple[str, ...]
    compute: tuple[str, ...]
    io: tuple[str, ...]
    dedicated: tuple[str, ...] = ()

    @property
    def nodes(self) -> tuple[str, ...]:
        """Every node in allocation order: spare, compute, I/O, dedicated."""
        return self.spare + self.compute + self.io + self.dedicated


@dataclass(frozen=True)
class ServicePlacement:
    storage: tuple[str, ...]
    metadata: tuple[str, ...]


class Placement(ABC):
    name: ClassVar[str]
    description: ClassVar[str]

    @abstractmethod
    def place(self, allocation: Allocation) -> ServicePlacement: ...


_PLACEMENTS: dict[str, type[Placement]] = {}


def placement(klass: type[Placement]) -> type[Placement]:
    """Class decorator: make a placement available by its ``name``."""
    if klass.name in _PLACEMENTS and _PLACEMENTS[klass.name] is not klass:
        raise TypeError(f"placement name {klass.name!r} is used twice")
    _PLACEMENTS[klass.name] = klass
    return klass


def placement_names() -> list[str]:
    return sorted(_PLACEMENTS)


def place_services(name: str, allocation: Allocation) -> ServicePlacement:
    """The named placement of ``allocation``'s services (UserError for an unknown name)."""
    if name not in _PLACEMENTS:
        raise UserError(f"unknown service placement {name!r} (known: {', '.join(placement_names())})")
    return _PLACEMENTS[name]().place(allocation)


def _spread_over(nodes: tuple[str, ...]) -> ServicePlacement:
    return ServicePlacement(storage=nodes, metadata=nodes[:1])


@placement
class AllNodes(Placement):
    name = "all"
    description = "BeeOND as deployed: a storage target on every node, metadata on the lowest node"

    def place(self, allocation: Allocation) -> ServicePlacement:
        nodes = allocation.spare + allocation.compute + allocation.io
        return _spread_over(nodes)


@placement
class IoNodes(Placement):
    name = "io_nodes"
    description = "services only on the I/O job's nodes (none when there is no I/O job)"

    def place(self, allocation: Allocation) -> ServicePlacement:
        return _spread_over(allocation.io)


@placement
class Dedicated(Placement):
    name = "dedicated"
    description = "services only on nodes added to the allocation for them"

    def place(self, allocation: Allocation) -> ServicePlacement:
        if not allocation.dedicated:
            raise UserError("placement 'dedicated' needs at least one dedicated node in the allocation")
        return _spread_over(allocation.dedicated)
