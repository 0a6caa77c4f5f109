"""Seed 000's Markov-chain application generator (Fig. 5a, Table 1).

States Init, Comp, Comm, Read, Write, End. From Init and from every operation state
the chain moves to

    Comp  with Prob(C/C) * comp_share        Read  with Prob(I/O) * read_share
    Comm  with Prob(C/C) * (1 - comp_share)  Write with Prob(I/O) * (1 - read_share)

with Prob(I/O) = 1 - Prob(C/C); the paper's single application is Prob(C/C) = 0.25
split evenly (12.5 % Comp, 12.5 % Comm, 37.5 % Read, 37.5 % Write). The paper does not
say how long a walk is nor how big each operation is: we stop after ``n_phases``
operations (then End) and give each operation a fixed size (``compute_flops``,
``comm_bytes``, ``io_bytes`` per task) -- our assumptions, recorded in the output.

Two uses (Table 1 columns): :class:`SingleApplicationParams` describes one
application exactly; :class:`MultiApplicationParams` draws ``n_apps`` (50 in the paper)
applications with parameters uniform in the multi-application ranges.

Shape: ``generate(params, rng) -> GeneratedWorkload`` and ``write(model, path)``; the
seed (``params.seed``) is recorded in the output's ``datasched_meta``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PositiveFloat,
    PositiveInt,
    ValidationError,
    field_validator,
    model_validator,
)

from datasched.errors import UserError
from datasched.platforms.params import MAX_TOPOLOGY_NODES
from datasched.seeds import SEED_MAX
from datasched.workloads.jsonio import write_json
from datasched.workloads.phases import (
    AccessType,
    IoDistribution,
    Phase,
    PhaseKind,
    ProfileMode,
    ReferenceRates,
    StorageAllocation,
    StorageDescriptor,
    application_profiles,
    nominal_seconds,
)

GENERATOR_NAME = "datasched.workloads.markov"
#: Tasks, devices and platform sizes: at most the largest platform the generator builds
#: (a job of 10^11 tasks was written, then refused by the engine's 32-bit ``res``).
NodeCount = Annotated[int, Field(ge=1, le=MAX_TOPOLOGY_NODES)]
FORMAT_VERSION = 1

#: Table 1 "SAN-k" choices of the multi-application column.
SAN_K_CHOICES = (1, 2, 4, 8, 16, 32, 64)
#: Table 1 single-application column: the values swept in the paper.
SINGLE_APP_SWEEPS: dict[str, tuple[Any, ...]] = {
    "prob_cc": (0.25,),
    "tasks": (64, 72),
    "io_tasks": (64,),
    "allocation": (StorageAllocation.INTERNAL, StorageAllocation.CACHE, StorageAllocation.SAN),
    "stg_k": (1, 2, 4, 8, 16, 32, 64),
    "mem_hit_pct": (0, 25, 50, 75, 100),
    "remote_pct": tuple(range(0, 101, 10)),
    "access": (AccessType.DISPERSE, AccessType.AFFINITY, AccessType.LOCAL),
    "san_k": (4,),
}


class State(str, enum.Enum):
    INIT = "Init"
    COMP = "Comp"
    COMM = "Comm"
    READ = "Read"
    WRITE = "Write"
    END = "End"


OPERATION_STATES = (State.COMP, State.COMM, State.READ, State.WRITE)
STATE_TO_PHASE = {
    State.COMP: PhaseKind.COMPUTE,
    State.COMM: PhaseKind.COMMUNICATE,
    State.READ: PhaseKind.READ,
    State.WRITE: PhaseKind.WRITE,
}


def _access(value: Any) -> Any:
    """Accept Table 1's letters D/A/L as well as the full names."""
    if isinstance(value, str):
        try:
            return AccessType.parse(value)
        except ValueError:
            return value  # let pydantic report the bad value by field name
    return value


class PhaseSizes(BaseModel):
    """Sizes of one operation (our assumption: the paper gives none)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    n_phases: PositiveInt = 100
    compute_flops: PositiveFloat = 1e10  # per task
    comm_bytes: PositiveFloat = 1e8  # sent per task, spread over the other tasks
    io_bytes: PositiveFloat = 1e9  # read or written per I/O task
    comp_share: float = Field(default=0.5, ge=0, le=1)  # Comp / (Comp + Comm)
    read_share: float = Field(default=0.5, ge=0, le=1)  # Read / (Read + Write)


class SingleApplicationParams(BaseModel):
    """One application (Table 1, first four rows plus the execution-model rows).
    Defaults are the paper's single-application values with the first swept value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["single"] = "single"
    seed: int = Field(ge=0, le=SEED_MAX)
    prob_cc: float = Field(default=0.25, ge=0, le=1)
    tasks: NodeCount = 64
    io_tasks: NodeCount | None = None  # None: every task does I/O (the paper's 64 of 64)
    allocation: StorageAllocation = StorageAllocation.INTERNAL
    stg_k: NodeCount | None = None  # None: 1, or tasks for cache
    mem_hit_pct: float = Field(default=0, ge=0, le=100)
    remote_pct: float = Field(default=0, ge=0, le=100)
    access: AccessType = AccessType.DISPERSE
    san_k: PositiveInt = 4
    nb_res: NodeCount | None = None  # platform size; default: tasks
    sizes: PhaseSizes = PhaseSizes()
    rates: ReferenceRates = ReferenceRates()
    walltime_factor: float | None = Field(default=10.0, ge=1.0)
    io_distribution: IoDistribution = "none"  # our choice per figure; the paper's 5.1 reads as per_task

    @field_validator("access", mode="before")
    @classmethod
    def access_letters(cls, value: Any) -> Any:
        return _access(value)

    @field_validator("allocation", mode="before")
    @classmethod
    def allocation_case(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def check_ranges(self) -> SingleApplicationParams:
        if self.io_tasks is not None and self.io_tasks > self.tasks:
            raise ValueError(f"io_tasks ({self.io_tasks}) must be in [1, tasks={self.tasks}]")
        if self.stg_k is not None and self.stg_k > self.tasks:
            raise ValueError(f"stg_k ({self.stg_k}) must be in [1, tasks={self.tasks}]")
        if self.allocation is StorageAllocation.CACHE and self.stg_k not in (None, self.tasks):
            raise ValueError(f"with cache allocation stg_k equals tasks ({self.tasks}); got {self.stg_k}")
        if self.nb_res is not None and self.nb_res < self.tasks:
            raise ValueError(f"nb_res ({self.nb_res}) is smaller than tasks ({self.tasks})")
        return self

    @property
    def effective_io_tasks(self) -> int:
        return self.io_tasks if self.io_tasks is not None else self.tasks

    @property
    def effective_stg_k(self) -> int:
        if self.allocation is StorageAllocation.CACHE:
            return self.tasks
        return self.stg_k if self.stg_k is not None else 1


class MultiApplicationParams(BaseModel):
    """A workload of ``n_apps`` applications drawn from Table 1's multi-application
    column. ``max_tasks`` is the paper's "Exp" (the system size). Arrivals: Poisson with
    mean ``mean_interarrival`` seconds (0: all submitted at t = 0; the paper does not say)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["multi"] = "multi"
    seed: int = Field(ge=0, le=SEED_MAX)
    n_apps: Annotated[int, Field(ge=1, le=1_000_000)] = 50  # jobs of the workload
    max_tasks: NodeCount
    nb_res: NodeCount | None = None  # default: max_tasks
    allocations: tuple[StorageAllocation, ...] = tuple(StorageAllocation)
    access_types: tuple[AccessType, ...] = tuple(AccessType)
    san_k_choices: tuple[int, ...] = SAN_K_CHOICES
    mean_interarrival: float = Field(default=0.0, ge=0)
    staging: Literal["none", "io_volume", "dataset"] = "none"
    sizes: PhaseSizes = PhaseSizes()
    rates: ReferenceRates = ReferenceRates()
    walltime_factor: float | None = Field(default=10.0, ge=1.0)
    io_distribution: IoDistribution = "none"  # our choice per figure; the paper's 5.1 reads as per_task

    @field_validator("access_types", mode="before")
    @classmethod
    def access_letters(cls, value: Any) -> Any:
        return [_access(v) for v in value] if isinstance(value, (list, tuple)) else value

    @field_validator("allocations", mode="before")
    @classmethod
    def allocation_case(cls, value: Any) -> Any:
        return [v.lower() if isinstance(v, str) else v for v in value] if isinstance(value, (list, tuple)) else value

    @model_validator(mode="after")
    def check_choices(self) -> MultiApplicationParams:
        if not self.allocations or not self.access_types or not self.san_k_choices:
            raise ValueError("allocations, access_types and san_k_choices must not be empty")
        bad = [k for k in self.san_k_choices if k < 1]
        if bad:
            raise ValueError(f"san_k_choices {bad} must be positive (Table 1 draws from {list(SAN_K_CHOICES)})")
        if self.nb_res is not None and self.nb_res < self.max_tasks:
            raise ValueError(f"nb_res ({self.nb_res}) is smaller than max_tasks ({self.max_tasks})")
        return self


Params = SingleApplicationParams | MultiApplicationParams


def parse_params(data: dict[str, Any]) -> Params:
    """Params from a dict (YAML/CLI); ``kind`` selects single or multi. Errors name the key."""
    kind = data.get("kind", "single")
    if kind not in ("single", "multi"):
        raise UserError(f"markov parameters: kind must be 'single' or 'multi', got {kind!r}")
    try:  # model_validate, not Model(**data): YAML keys may be numbers
        if kind == "single":
            return SingleApplicationParams.model_validate(data)
        return MultiApplicationParams.model_validate(data)
    except ValidationError as exc:
        parts = [f"{'.'.join(str(p) for p in e['loc']) or 'params'}: {e['msg']}" for e in exc.errors()]
        raise UserError("invalid markov parameter(s): " + "; ".join(parts)) from None


@dataclass(frozen=True)
class Application:
    """One generated application: its drawn parameters and phase sequence."""

    app_id: int
    subtime: float
    tasks: int
    io_tasks: int
    prob_cc: float
    storage: StorageDescriptor
    states: tuple[State, ...]  # operation states visited, Init/End excluded
    sizes: PhaseSizes

    @property
    def phases(self) -> list[Phase]:
        amount = {
            PhaseKind.COMPUTE: self.sizes.compute_flops,
            PhaseKind.COMMUNICATE: self.sizes.comm_bytes,
            PhaseKind.READ: self.sizes.io_bytes,
            PhaseKind.WRITE: self.sizes.io_bytes,
        }
        return [Phase(STATE_TO_PHASE[s], amount[STATE_TO_PHASE[s]]) for s in self.states]


@dataclass
class GeneratedWorkload:
    params: Params
    nb_res: int
    applications: list[Application] = field(default_factory=list)


def transition_matrix(prob_cc: float, comp_share: float, read_share: float) -> dict[State, dict[State, float]]:
    """Next-operation probabilities from Init and from every operation state (Fig. 5a).
    End is reached after the configured number of operations, not by a draw."""
    prob_io = 1.0 - prob_cc
    row = {
        State.COMP: prob_cc * comp_share,
        State.COMM: prob_cc * (1 - comp_share),
        State.READ: prob_io * read_share,
        State.WRITE: prob_io * (1 - read_share),
    }
    return {state: dict(row) for state in (State.INIT, *OPERATION_STATES)}


def walk(matrix: dict[State, dict[State, float]], n_operations: int, rng: np.random.Generator) -> tuple[State, ...]:
    """Visit ``n_operations`` operation states starting from Init."""
    visited: list[State] = []
    current = State.INIT
    for _ in range(n_operations):
        row = matrix[current]
        probs = np.array([row[s] for s in OPERATION_STATES], dtype=float)
        current = OPERATION_STATES[int(rng.choice(len(OPERATION_STATES), p=probs / probs.sum()))]
        visited.append(current)
    return tuple(visited)


def single_application(params: SingleApplicationParams, rng: np.random.Generator, app_id: int = 0) -> Application:
    storage = StorageDescriptor(
        allocation=params.allocation,
        stg_k=params.effective_stg_k,
        mem_hit_pct=params.mem_hit_pct,
        remote_pct=params.remote_pct,
        access=params.access,
        san_k=params.san_k,
    )
    matrix = transition_matrix(params.prob_cc, params.sizes.comp_share, params.sizes.read_share)
    return Application(
        app_id=app_id,
        subtime=0.0,
        tasks=params.tasks,
        io_tasks=params.effective_io_tasks,
        prob_cc=params.prob_cc,
        storage=storage,
        states=walk(matrix, params.sizes.n_phases, rng),
        sizes=params.sizes,
    )


def draw_application(
    params: MultiApplicationParams, rng: np.random.Generator, app_id: int, subtime: float
) -> Application:
    """One application with Table 1 multi-application parameters, in a fixed draw order
    (so a seed always gives the same workload)."""
    prob_cc = float(rng.uniform(0.0, 1.0))
    tasks = int(rng.integers(1, params.max_tasks, endpoint=True))
    io_tasks = int(rng.integers(1, tasks, endpoint=True))
    allocation = params.allocations[int(rng.integers(len(params.allocations)))]
    stg_k = int(rng.integers(1, tasks, endpoint=True))
    if allocation is StorageAllocation.CACHE:
        stg_k = tasks
    mem_hit_pct = float(rng.uniform(0.0, 100.0))
    remote_pct = float(rng.uniform(0.0, 100.0))
    access = params.access_types[int(rng.integers(len(params.access_types)))]
    san_k = int(params.san_k_choices[int(rng.integers(len(params.san_k_choices)))])
    storage = StorageDescriptor(
        allocation=allocation, stg_k=stg_k, mem_hit_pct=mem_hit_pct, remote_pct=remote_pct, access=access, san_k=san_k
    )
    matrix = transition_matrix(prob_cc, params.sizes.comp_share, params.sizes.read_share)
    states = walk(matrix, params.sizes.n_phases, rng)
    if params.staging != "none" and allocation is not StorageAllocation.SAN:
        staged = staging_bytes(params.staging, states, params.sizes, io_tasks, mem_hit_pct)
        storage = storage.model_copy(update=staged)
    return Application(
        app_id=app_id,
        subtime=subtime,
        tasks=tasks,
        io_tasks=io_tasks,
        prob_cc=prob_cc,
        storage=storage,
        states=states,
        sizes=params.sizes,
    )


def staging_bytes(
    model: str, states: tuple[State, ...], sizes: PhaseSizes, io_tasks: int, mem_hit_pct: float
) -> dict[str, float]:
    """Seed 000 section 4.1 loads an application's data "from central storage into local
    storage" when it starts and the central network carries I/O "when applications
    start/end", without saying how much. Two documented models (``staging``):

    - ``io_volume``: every byte the read phases take from devices (not DRAM) is staged in,
      every byte the write phases put there is staged out (distinct data per phase: an
      upper bound, as much central traffic as SAN I/O itself);
    - ``dataset``: one read phase's device bytes are staged in (the data set, re-read by
      every read phase) and one write phase's are staged out (the results), when the
      application has such phases.
    """
    device_share = io_tasks * sizes.io_bytes * (1.0 - mem_hit_pct / 100.0)
    reads, writes = states.count(State.READ), states.count(State.WRITE)
    if model == "dataset":
        reads, writes = min(reads, 1), min(writes, 1)
    return {"stage_in_bytes": device_share * reads, "stage_out_bytes": device_share * writes}


def generate(params: Params, rng: np.random.Generator) -> GeneratedWorkload:
    """Generate the applications described by ``params`` using only ``rng``."""
    if isinstance(params, SingleApplicationParams):
        app = single_application(params, rng)
        return GeneratedWorkload(params=params, nb_res=params.nb_res or params.tasks, applications=[app])
    apps: list[Application] = []
    now = 0.0
    for app_id in range(params.n_apps):
        if app_id > 0 and params.mean_interarrival > 0:
            now += float(rng.exponential(params.mean_interarrival))
        apps.append(draw_application(params, rng, app_id, now))
    return GeneratedWorkload(params=params, nb_res=params.nb_res or params.max_tasks, applications=apps)


def generate_from_seed(params: Params) -> GeneratedWorkload:
    """``generate`` with ``numpy.random.default_rng(params.seed)``."""
    return generate(params, np.random.default_rng(params.seed))


def _params_record(params: Params) -> dict[str, Any]:
    """The parameters as recorded in ``datasched_meta``; ``io_distribution`` only when set, so
    workloads generated before it existed keep their bytes."""
    record = params.model_dump(mode="json")
    if record.get("io_distribution") == "none":
        del record["io_distribution"]
    return record


def to_document(model: GeneratedWorkload, *, profile_mode: ProfileMode = "composed") -> dict[str, Any]:
    """The Batsim workload document. Job ids are integers (0..n-1); each job carries
    ``datasched_app`` (the drawn parameters and the state sequence summary)."""
    params = model.params
    rates = params.rates
    jobs: list[dict[str, Any]] = []
    profiles: dict[str, dict[str, Any]] = {}
    for app in model.applications:
        name = f"app{app.app_id}"
        phases = app.phases
        distribution = params.io_distribution
        profiles.update(
            application_profiles(name, phases, app.storage, app.tasks, app.io_tasks, rates, profile_mode, distribution)
        )
        nominal = sum(nominal_seconds(p, app.storage, app.tasks, app.io_tasks, rates, distribution) for p in phases)
        counts = {s.value: app.states.count(s) for s in OPERATION_STATES}
        job: dict[str, Any] = {
            "id": app.app_id,
            "subtime": app.subtime,
            "res": app.tasks,
            "profile": name,
            "datasched_app": {
                "prob_cc": app.prob_cc,
                "prob_io": 1.0 - app.prob_cc,
                "tasks": app.tasks,
                "io_tasks": app.io_tasks,
                "storage": app.storage.to_json(),
                "state_counts": counts,
                "nominal_seconds": nominal,
            },
        }
        if params.walltime_factor is not None:
            job["walltime"] = max(1.0, nominal * params.walltime_factor)
        jobs.append(job)
    meta = {
        "generator": GENERATOR_NAME,
        "format_version": FORMAT_VERSION,
        "seed": params.seed,
        "params": _params_record(params),
        "profile_mode": profile_mode,
    }
    return {"nb_res": model.nb_res, "jobs": jobs, "profiles": profiles, "datasched_meta": meta}


def write(model: GeneratedWorkload, path: str | Path, *, profile_mode: ProfileMode = "composed") -> Path:
    """Write the workload JSON canonically (same model -> same bytes)."""
    return write_json(to_document(model, profile_mode=profile_mode), path)
