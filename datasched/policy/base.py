"""The policy interface: typed events in, typed decisions out.

A policy is driven by one of three drivers — the pybatsim adapter (our engine or
real Batsim 4), or the in-memory driver used by tests — and cannot tell which.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from datasched.policy.decisions import Decision
from datasched.policy.events import Event
from datasched.policy.params import PolicyParams
from datasched.policy.platform import PlatformView


class Policy(ABC):
    """Base class of every scheduling policy.

    Subclasses set ``name`` (registry key), ``description`` (one line, shown by
    ``datasched schedulers``) and ``Params`` (a :class:`PolicyParams` model), and
    implement :meth:`react`.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    Params: ClassVar[type[PolicyParams]] = PolicyParams
    #: The policy starts jobs on hosts that run other jobs (a benchmark harness such as
    #: ``pinned``): the validating wrapper then does not refuse a busy host, and the engine
    #: must run with ``--enable-compute-sharing`` (it refuses such a start otherwise).
    shares_hosts: ClassVar[bool] = False

    def __init__(self, params: PolicyParams) -> None:
        self.params = params
        self._platform: PlatformView | None = None

    @property
    def platform(self) -> PlatformView:
        if self._platform is None:
            raise RuntimeError(f"policy {self.name!r} used before the simulation began")
        return self._platform

    @property
    def wants_item_evictions(self) -> bool:
        """Whether the policy consumes :class:`~datasched.policy.events.ItemEvicted`: the
        runner then starts datasched-sim with ``--datasched-item-evictions`` (never real
        Batsim, which has no such event). Off by default, so that a policy that does not
        track data items gets Batsim's protocol stream byte for byte."""
        return False

    def begin(self, platform: PlatformView, now: float) -> list[Decision]:
        """Called once when the simulation begins, before any other event."""
        self._platform = platform
        return []

    @abstractmethod
    def react(self, now: float, events: Sequence[Event]) -> list[Decision]:
        """Handle every event that happened at ``now`` (one protocol message) and decide."""

    def end(self, now: float) -> None:  # noqa: B027 (an optional hook: a no-op unless overridden)
        """Called when the simulation ends; no decision is possible any more."""
