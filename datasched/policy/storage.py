"""Storage-assignment policies: where a job's data lives, once its hosts are chosen.

Seed 000 (section 4.1) separates *which nodes compute* from *which devices hold the
data*: Cache (each task's data on its own node), Internal (k NVMs of the job's own
nodes), External (k NVMs outside the partition) and SAN (k central I/O servers), each
with an access type (Disperse / Affinity / Local) and STG-k. A queue policy takes the
``storage`` option beside ``allocation``: the allocator picks hosts, then the
:class:`StorageAssigner` picks devices, and the choice reaches the engine through
EXECUTE_JOB's ``datasched_storage`` field (``StorageChoice``).

Only ``datasched_phases`` jobs have data: for any other job an assigner is not asked.
Without a ``storage`` option the policy sends nothing and the engine applies the
profile's own descriptor (workloads/README.md section 3).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from datasched.errors import UserError
from datasched.policy.decisions import StorageChoice
from datasched.policy.events import JobInfo
from datasched.policy.params import PolicyParams, describe_validation_error
from datasched.policy.platform import PlatformView

PHASES_TYPE = "datasched_phases"
AccessName = Literal["disperse", "affinity", "local"]


@dataclass(frozen=True)
class StorageRequest:
    """What an assigner may look at. ``device_load`` counts, per storage resource id
    (NVM endpoint or I/O server), the running jobs whose data it holds — the job being
    placed excluded — so policies can avoid busy devices. ``busy_hosts`` are the compute
    hosts other running jobs compute on: with storage daemons on the nodes
    (``platform.storage.daemons``) a device there costs that job CPU."""

    job: JobInfo
    hosts: tuple[int, ...]  # the job's compute hosts, in allocation order
    platform: PlatformView
    now: float
    device_load: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    busy_hosts: frozenset[int] = frozenset()

    @property
    def descriptor(self) -> Mapping[str, Any]:
        """The profile's storage descriptor (``{}`` when the engine did not forward the profile)."""
        storage = self.job.profile.get("storage") if self.job.profile else None
        return storage if isinstance(storage, Mapping) else {}

    def descriptor_io_tasks(self) -> int | None:
        """The profile's ``io_tasks`` (``None`` when the profile was not forwarded)."""
        value = self.job.profile.get("io_tasks") if self.job.profile else None
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None

    def k(self, option: int | None, key: str) -> int:
        """The assigner's ``k`` option, else the descriptor's ``key`` (``stg_k``, ``san_k``)."""
        return option if option is not None else self.profile_int(key, "k")

    def profile_int(self, key: str, option: str) -> int:
        """An integer of the descriptor (``stg_k``, ``san_k``), or a clear error naming
        the job and the option that would replace it."""
        value = self.descriptor.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UserError(
                f"job {self.job.id!r}: the storage policy needs {key} from the job's profile, which the engine did "
                f"not forward (run with profiles forwarded on submission) — or set the storage option {option!r}"
            )
        return value


class StorageParams(PolicyParams):
    """Options every assigner shares; ``None`` keeps the profile's value."""

    access: AccessName | None = Field(None, description="data access type (default: the profile's)")


class StorageAssigner(ABC):
    """Chooses a phase job's storage allocation, devices and access type."""

    name: ClassVar[str]
    description: ClassVar[str]
    Params: ClassVar[type[PolicyParams]] = StorageParams

    def __init__(self, params: PolicyParams) -> None:
        self.params = params

    @abstractmethod
    def assign(self, request: StorageRequest) -> StorageChoice: ...

    def access(self, request: StorageRequest) -> str | None:
        """The configured access type, else ``None`` (the engine keeps the profile's)."""
        return getattr(self.params, "access", None)


def nvm_of(request: StorageRequest, host: int) -> int:
    """The NVM endpoint of compute host ``host``, or a clear error (a SAN-mode platform)."""
    nvm = request.platform.storage.nvm_of_host.get(host)
    if nvm is None:
        raise UserError(
            f"job {request.job.id!r}: compute host {host} has no NVM endpoint (datasched_role=nvm) for the "
            "storage policy to use (a SAN-mode platform?)"
        )
    return nvm


def is_phase_job(job: JobInfo) -> bool:
    return bool(job.profile) and job.profile.get("type") == PHASES_TYPE


class StorageOption(BaseModel):
    """The ``storage`` option of queue policies: ``"cache"`` or ``{"name": "external", "k": 4}``.

    The remaining keys are validated against the named assigner's own ``Params``.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _known(self) -> StorageOption:
        from datasched.policy.registry import storage_class  # registry imports us

        klass = storage_class(self.name, error=ValueError)
        try:
            klass.Params.model_validate(self.model_extra or {})
        except ValidationError as exc:
            raise ValueError(f"storage policy '{self.name}': {describe_validation_error(exc)}") from None
        return self

    def build(self) -> StorageAssigner:
        from datasched.policy.registry import storage_class

        klass = storage_class(self.name)
        return klass(klass.Params.model_validate(self.model_extra or {}))
