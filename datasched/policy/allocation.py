"""Allocation policies: which free hosts a job gets, independent of which job runs next.

A queue policy decides *when* a job starts; an :class:`Allocator` decides *where*.
The request carries everything a placement may depend on — the job (with its
profile and extra workload fields, where data descriptors live), the free hosts,
the platform (host properties, distances) and the known locations of data items —
so data-aware and workflow-aware allocators fit the same interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from datasched.policy.events import JobInfo
from datasched.policy.params import PolicyParams, describe_validation_error
from datasched.policy.platform import PlatformView


@dataclass(frozen=True)
class DataLocations:
    """Where named data items currently live: item id -> compute host ids holding a copy.

    Empty until the data-aware issue feeds it (from workload data descriptors and
    engine events); allocators must treat a missing item as "only in central storage".
    """

    hosts_by_item: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class AllocationRequest:
    """``storage_load``: compute host -> running jobs whose data sits on its NVM (filled
    by queue policies with a ``storage`` option), so data-aware allocators can keep
    compute away from busy storage devices."""

    job: JobInfo
    free_hosts: tuple[int, ...]  # ascending ids
    platform: PlatformView
    now: float
    data: DataLocations = field(default_factory=DataLocations)
    storage_load: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))


class Allocator(ABC):
    """Chooses ``job.requested_hosts`` hosts among ``free_hosts``, or ``None`` if it cannot.

    ``any_subset_fits`` tells backfilling policies whether *any* large enough set of
    free hosts is acceptable. When true, count-based reservations are exact; when
    false (e.g. contiguous blocks), fragmentation may postpone a reservation.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    Params: ClassVar[type[PolicyParams]] = PolicyParams
    any_subset_fits: ClassVar[bool] = True

    def __init__(self, params: PolicyParams) -> None:
        self.params = params

    @abstractmethod
    def choose(self, request: AllocationRequest) -> tuple[int, ...] | None: ...


class AllocationChoice(BaseModel):
    """The ``allocation`` option of queue policies: ``"random"`` or ``{"name": "random", "seed": 3}``.

    The remaining keys are validated against the named allocator's own ``Params``.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str = "sequential"

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _known(self) -> AllocationChoice:
        from datasched.policy.registry import allocator_class  # registry imports us

        klass = allocator_class(self.name, error=ValueError)
        try:
            klass.Params.model_validate(self.model_extra or {})
        except ValidationError as exc:
            raise ValueError(f"allocator '{self.name}': {describe_validation_error(exc)}") from None
        return self

    def build(self) -> Allocator:
        from datasched.policy.registry import allocator_class

        klass = allocator_class(self.name)
        return klass(klass.Params.model_validate(self.model_extra or {}))
