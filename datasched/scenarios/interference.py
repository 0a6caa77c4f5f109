"""Seed 004's storage-daemon interference experiment (``datasched-sim --interference``): the
document the C++ reader ``sim/src/interference/experiment.cpp`` accepts, with its ranges,
defaults and cross-field rules. sim/src/interference/README.md explains the model; the words
below are its field table's. Host names are checked against the platform by the engine only."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from datasched.scenarios.fields import (
    MAX_AMOUNT,
    MAX_BYTES,
    MAX_COUNT,
    MAX_REPETITIONS,
    MAX_SECONDS,
    Integer,
    NonEmpty,
    Number,
    ScenarioModel,
    Seed,
)

#: Every file the scenario writes under the export prefix (``<prefix>_<name>.csv``), as the
#: C++ ``output_files()`` of sim/src/interference/outputs.cpp lists them.
OUTPUTS = ("hpl", "iterations", "services", "ior")


def _distinct(hosts: list[str]) -> list[str]:
    seen: set[str] = set()
    for host in hosts:
        if host in seen:
            raise ValueError(f"host '{host}' is listed twice")
        seen.add(host)
    return hosts


#: A list of distinct, non-empty host names.
Hosts = Annotated[list[NonEmpty], AfterValidator(_distinct), Field(json_schema_extra={"uniqueItems": True})]


class HplJob(ScenarioModel):
    """The HPL-like job: every iteration, each node computes, all wait for the slowest (a
    barrier), then each node sends to the next node of the list (a ring)."""

    hosts: Hosts = Field(min_length=1, description="the HPL job's nodes, in ring order")
    iterations: Integer = Field(ge=1, le=MAX_REPETITIONS)
    flops_per_iteration: Number = Field(gt=0, le=MAX_AMOUNT, description="per node, split over its cores")
    bytes_per_iteration: Number = Field(0, ge=0, le=MAX_AMOUNT, description="per node, to the next node of the ring")


class IorJob(ScenarioModel):
    """The IOR-like job: processes writing a file each, synchronously, in transfer_size requests."""

    hosts: Hosts = Field(
        default_factory=list, description="the IOR job's nodes (none: no I/O); disjoint from hpl.hosts"
    )
    processes_per_node: Integer = Field(1, ge=1, le=MAX_COUNT)
    transfer_size: Integer = Field(512, ge=1, le=MAX_BYTES, description="bytes")
    requests_per_batch: Integer = Field(1, ge=1, le=MAX_BYTES, description="requests simulated as one")
    requests_per_process: Integer = Field(0, ge=0, le=MAX_BYTES, description="0: write until the HPL job ends")
    sync_bytes: Integer = Field(0, ge=0, le=MAX_BYTES, description="device bytes per write besides its data")
    metadata_ops_per_request: Number = Field(
        0, ge=0, le=MAX_AMOUNT, description="metadata operations per write (besides the creation)"
    )
    control_bytes: Integer = Field(
        1, ge=0, le=MAX_BYTES, description="metadata requests and replies, bytes (0 makes them free)"
    )


class Services(ScenarioModel):
    """The file system's services: object storage targets and metadata services."""

    storage: Hosts = Field(
        default_factory=list,
        description="one storage target per host, on its first <disk>; required non-empty with IOR",
    )
    metadata: Hosts = Field(default_factory=list, description="required non-empty with IOR")
    stripe_count: Integer = Field(4, ge=1, le=MAX_COUNT, description="targets per file (BeeGFS's default)")
    chunk_size: Integer = Field(
        524288, ge=1, le=MAX_BYTES, description="bytes, a multiple of ior.transfer_size (BeeGFS's default)"
    )
    storage_workers: Integer = Field(
        12, ge=1, le=MAX_COUNT, description="requests a storage target serves at once (an assumption)"
    )
    metadata_workers: Integer = Field(4, ge=1, le=MAX_COUNT, description="(an assumption)")


class DaemonCosts(ScenarioModel):
    """The CPU the services spend (flops of one core of their host)."""

    flops_per_byte: Number = Field(0, ge=0, le=MAX_AMOUNT)
    flops_per_request: Number = Field(0, ge=0, le=MAX_AMOUNT)
    flops_per_metadata_op: Number = Field(0, ge=0, le=MAX_AMOUNT)
    idle_flops_per_second: Number = Field(0, ge=0, le=MAX_AMOUNT, description="per service")
    idle_period: Number = Field(1, gt=0, le=MAX_SECONDS, description="seconds between idle bursts")
    idle_phase: Literal["random", "aligned"] = Field(
        "random", description="seeded phases per service, or every service at 0, P, 2P..."
    )


class NodeMemory(ScenarioModel):
    """A node's memory bandwidth as a resource SimGrid shares (absent: none)."""

    bandwidth: Number = Field(gt=0, le=MAX_AMOUNT, description="BW_m of each HPL and storage node, bytes/s")
    hpl_bytes_per_flop: Number = Field(
        0, ge=0, le=MAX_AMOUNT, description="bytes each HPL rank moves through memory per flop"
    )
    io_copies: Number = Field(
        0, ge=0, le=MAX_AMOUNT, description="times each device byte a storage service writes crosses memory"
    )


class InterferenceExperiment(ScenarioModel):
    """A storage-daemon interference experiment (seed 004): an HPL-like job next to an IOR-like
    job whose file system's services run on compute nodes."""

    seed: Seed = Field(0, description="seeds the idle bursts' phases")
    simgrid_model: Literal["ptask_L07", "cas01_cm02"] = Field("ptask_L07", description="SimGrid models of the run")
    hpl: HplJob
    ior: IorJob | None = Field(None, description="absent: no I/O")
    services: Services | None = None
    daemon_costs: DaemonCosts | None = None
    memory: NodeMemory | None = Field(None, description="absent: no memory resource")

    @model_validator(mode="after")
    def _check(self) -> InterferenceExperiment:
        ior = self.ior or IorJob()
        services = self.services or Services()
        if ior.hosts:
            if not services.storage:
                raise ValueError("services.storage: the IOR job writes, but no host runs a storage service")
            if not services.metadata:
                raise ValueError("services.metadata: the IOR job creates files, but no host runs a metadata service")
            if services.chunk_size % ior.transfer_size:
                raise ValueError(
                    f"services.chunk_size: must be a multiple of ior.transfer_size ({ior.transfer_size}), "
                    f"got {services.chunk_size}"
                )
            per_chunk = services.chunk_size // ior.transfer_size
            if ior.sync_bytes > 0 and per_chunk > MAX_BYTES // ior.sync_bytes:
                raise ValueError(
                    f"ior.sync_bytes: (services.chunk_size / ior.transfer_size) x ior.sync_bytes must be <= "
                    f"{MAX_BYTES}, got {per_chunk} x {ior.sync_bytes}"
                )
        if self.memory is not None:
            # As the engine computes them, in doubles: they become SimGrid I/O sizes.
            if float(self.memory.hpl_bytes_per_flop) * float(self.hpl.flops_per_iteration) > MAX_AMOUNT:
                raise ValueError(
                    "memory.hpl_bytes_per_flop: hpl_bytes_per_flop x hpl.flops_per_iteration must be <= 1e+18 bytes"
                )
            if ior.hosts:
                per_chunk = services.chunk_size // ior.transfer_size
                device = float(services.chunk_size) + float(per_chunk) * float(ior.sync_bytes)
                if float(self.memory.io_copies) * device > MAX_AMOUNT:
                    raise ValueError(
                        f"memory.io_copies: io_copies x a batch's device bytes ({device:g}) must be <= 1e+18 bytes"
                    )
        shared = [host for host in ior.hosts if host in set(self.hpl.hosts)]
        if shared:
            raise ValueError(
                f"ior.hosts: host '{shared[0]}' also runs the HPL job (the two jobs run on disjoint sets of nodes)"
            )
        return self
