"""Typed decisions a policy returns.

The adapter turns them into Batsim protocol events; the in-memory driver applies
them directly. The validating wrapper checks them before either sees them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """Base class of everything a policy may ask for."""


@dataclass(frozen=True)
class ExecuteJob(Decision):
    """Start ``job_id`` now on compute hosts ``hosts`` (Batsim resource ids)."""

    job_id: str
    hosts: tuple[int, ...]


@dataclass(frozen=True)
class RejectJob(Decision):
    job_id: str


@dataclass(frozen=True)
class KillJobs(Decision):
    job_ids: tuple[str, ...]


@dataclass(frozen=True)
class CallMeLater(Decision):
    """Ask to be woken up (a ``RequestedCall`` event) at simulated time ``at``."""

    at: float
