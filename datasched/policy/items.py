"""Where a policy believes named data items are (seed 001: data that stays on node NVM).

The engine keeps the truth (sim/src/model/data_registry.hpp) and tells the decision
process only what it asks for: DATASCHED_STAGE_DONE after its own stages and, when asked
(datasched-sim's --datasched-item-evictions), DATASCHED_ITEM_EVICTED. A policy therefore
keeps its own book, learned from three sources:

- **the workload**: each job's profile names the items its read and write phases move,
  with their bytes (a write: the item's new size; a read: bytes read, a lower bound of
  the size); a job's ``datasched_workflow.reads`` entry with ``producer: null`` (written
  by ``datasched workload from-workflow``) declares initial data on central storage;
- **its own decisions**: where a completed job wrote each item (its write phase's I/O
  hosts' NVM, or central storage, as its EXECUTE_JOB's ``items_to`` or the profile says),
  and every :class:`~datasched.policy.decisions.StageData` once its StageDone arrived;
- **the engine's evictions** (:class:`~datasched.policy.events.ItemEvicted`, when the
  policy asks for them): an evicted item has left every NVM and stays on central storage.

Without the eviction events (a policy that does not ask, or real Batsim, which has no
named items) the book cannot see the engine's LRU eviction: an evicted item is still
booked on its NVM, so the room the book counts as used is an upper bound, and a placement
it suggests may read from central storage instead (a slower run, never an error).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


def phase_items(profile: Mapping[str, Any], kind: str) -> Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """(phase, item) for every named item of the profile's ``kind`` phases."""
    for phase in profile.get("phases") or ():
        if phase.get("kind") == kind:
            for item in phase.get("items") or ():
                yield phase, item


@dataclass
class ItemBook:
    nvm: dict[str, tuple[int, ...]] = field(default_factory=dict)  # item -> hosts whose NVM holds its stripes
    central: set[str] = field(default_factory=set)  # items with a copy on central storage
    size: dict[str, float] = field(default_factory=dict)  # item -> bytes (a lower bound if only read so far)

    def exists(self, item: str) -> bool:
        return item in self.nvm or item in self.central

    def note_read(self, item: str, nbytes: float) -> None:
        self.size[item] = max(self.size.get(item, 0.0), float(nbytes))

    def note_initial(self, job_extra: Mapping[str, Any]) -> None:
        """Initial data the workload declares (``datasched_workflow.reads``, producer null)."""
        workflow = job_extra.get("datasched_workflow")
        if not isinstance(workflow, Mapping):
            return
        for read in workflow.get("reads") or ():
            if isinstance(read, Mapping) and read.get("producer") is None and isinstance(read.get("data"), str):
                self.central.add(read["data"])
                self.note_read(read["data"], float(read.get("bytes") or 0.0))

    def written(self, item: str, nbytes: float, hosts: tuple[int, ...] | None) -> None:
        """A write replaced the item: on ``hosts``' NVM, or on central storage (``None``)."""
        self.size[item] = float(nbytes)
        self.central.discard(item)
        self.nvm.pop(item, None)
        if hosts:
            self.nvm[item] = hosts
        else:
            self.central.add(item)

    def staged(self, item: str, to: tuple[int, ...] | None) -> None:
        """A data mover copied the item onto ``to``'s NVM (replacing its NVM placement),
        or to central storage (``None``: the NVM copy stays)."""
        if to:
            self.nvm[item] = to
        else:
            self.central.add(item)

    def evicted(self, item: str, on_central: bool = True) -> None:
        """The engine evicted the item from node NVM: an eviction takes every part of the
        item, so no node holds it any more; it stays on central storage (written back if
        it was dirty)."""
        self.nvm.pop(item, None)
        if on_central:
            self.central.add(item)

    def stripe(self, item: str) -> float:
        hosts = self.nvm.get(item, ())
        return self.size.get(item, 0.0) / len(hosts) if hosts else 0.0

    def used(self) -> dict[int, float]:
        """Bytes of booked items per host NVM."""
        out: dict[int, float] = {}
        for item, hosts in self.nvm.items():
            share = self.stripe(item)
            for host in hosts:
                out[host] = out.get(host, 0.0) + share
        return out
