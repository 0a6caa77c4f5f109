"""Seed 002's I/O forwarding experiment (``datasched-sim --io-forwarding``): the document the
C++ reader ``sim/src/forwarding/experiment.cpp`` accepts, field by field, with its ranges,
defaults and cross-field rules. sim/src/forwarding/README.md explains the model; the words
below are its field table's."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from datasched.scenarios.fields import (
    MAX_AMOUNT,
    MAX_BYTES,
    MAX_COUNT,
    MAX_SECONDS,
    Boolean,
    Integer,
    NonEmpty,
    Number,
    ScenarioModel,
    Seed,
)

#: Every file the scenario may write under the export prefix (``<prefix>_<name>.csv``), as
#: the C++ ``output_files()`` of sim/src/forwarding/outputs.cpp lists them; ``dispatches``
#: only with ``outputs.dispatch_trace``.
OUTPUTS = ("applications", "forwarders", "servers", "dispatches")


class Clients(ScenarioModel):
    """The client nodes and how many processes each runs."""

    nodes: Integer = Field(
        ge=1, le=MAX_COUNT, description="the first n hosts with datasched_role=compute_node (by name)"
    )
    processes_per_node: Integer = Field(1, ge=1, le=MAX_COUNT, description="process slots per client node")


ForwarderIndex = Annotated[int, Field(strict=True, ge=0)]


class Forwarding(ScenarioModel):
    """The forwarding layer: required iff ``mode`` is "forwarded", forbidden if "direct"."""

    forwarders: Integer = Field(ge=1, le=MAX_COUNT, description="the first F hosts with datasched_role=forwarder")
    scheduler: Literal["fifo", "hbrr", "twins"] = Field(description="the forwarders' request scheduler")
    window: Number = Field(0.001, ge=1e-9, le=MAX_SECONDS, description="TWINS window length, seconds")
    max_in_flight: Integer = Field(
        16, ge=1, le=MAX_COUNT, description="dispatches a forwarder has outstanding to servers (its workers)"
    )
    aggregation_limit: Integer = Field(16, ge=1, le=MAX_COUNT, description="HBRR: most client requests per dispatch")
    drain: Boolean = Field(
        False,
        description="TWINS only (an error otherwise): drain the previous server at a window change",
    )
    mapping: Literal["block", "round_robin"] | list[ForwarderIndex] | list[NonEmpty] = Field(
        "block",
        description=(
            "client node c -> forwarder floor(c F / C) (block), c mod F (round_robin), or the list's "
            "entry c: one per node, all forwarder indices (< F) or all forwarder host names (among the first F)"
        ),
    )

    @model_validator(mode="after")
    def _check(self) -> Forwarding:
        if self.drain and self.scheduler != "twins":
            raise ValueError('drain: only applies to scheduler "twins"')
        if isinstance(self.mapping, list):
            for node, forwarder in enumerate(self.mapping):
                if isinstance(forwarder, int) and forwarder >= self.forwarders:
                    raise ValueError(
                        f"mapping: client node {node} is mapped to forwarder {forwarder}, which does not exist "
                        f"(forwarders: 0..{self.forwarders - 1})"
                    )
        return self


class Cache(ScenarioModel):
    """A data server's memory cache: write-behind and read-ahead (server_cache.hpp)."""

    memory_bandwidth: Number = Field(
        gt=0, le=MAX_AMOUNT, description="the memory disk's read and write bandwidth, bytes/s"
    )
    write_behind: Integer = Field(
        0, ge=0, le=MAX_BYTES, description="dirty threshold D, bytes (0: writes go to the HDD)"
    )
    read_ahead: Integer = Field(
        0, ge=0, le=MAX_BYTES, description="read-ahead window W, bytes (0: reads go to the HDD)"
    )


class Servers(ScenarioModel):
    """The data servers and their HDDs."""

    count: Integer = Field(
        ge=1, le=MAX_COUNT, description="the first S hosts with datasched_role=io_server; each needs a <disk>"
    )
    stripe_size: Integer = Field(
        65536, ge=1, le=MAX_BYTES, description="bytes (PVFS's default strip size; the paper does not state it)"
    )
    hdd_alpha: Number = Field(
        0, ge=0, le=MAX_AMOUNT, description="HDD contention curve B / (1 + hdd_alpha (n - 1)) for n streams"
    )
    hdd_seek_scale: Number = Field(0, ge=0, le=MAX_AMOUNT, description="bytes; > 0: the seek-aware curve (0: off)")
    cache: Cache | None = Field(None, description="the server cache (absent: none)")


class Application(ScenarioModel):
    """One application: its processes issue blocking requests (MPI-IO Test)."""

    name: NonEmpty = Field(description="unique among the applications")
    processes: Integer = Field(ge=1, le=MAX_COUNT, description="total over applications <= nodes x processes_per_node")
    pattern: Literal["file_per_process", "shared_strided", "shared_contiguous"] = Field(
        description=(
            "request i of rank r (R = request_size, B = bytes_per_process, P = processes): own file at iR; "
            "shared file at (iP + r)R; shared file at rB + iR"
        )
    )
    operation: Literal["read", "write"]
    request_size: Integer = Field(ge=1, le=MAX_BYTES, description="bytes")
    bytes_per_process: Integer = Field(ge=1, le=MAX_BYTES, description="bytes, a multiple of request_size")
    start: Number = Field(0, ge=0, le=MAX_SECONDS, description="when the application starts, seconds (IFER's dt)")
    jitter: Number = Field(0, ge=0, le=MAX_SECONDS, description="each process starts at start + U[0, jitter) s")

    @model_validator(mode="after")
    def _check(self) -> Application:
        # A shared file holds every process's bytes: its offsets must stay within 64 bits.
        if self.bytes_per_process > MAX_BYTES // self.processes:
            raise ValueError(
                f"bytes_per_process: processes x bytes_per_process must be <= {MAX_BYTES} bytes, "
                f"got {self.processes} x {self.bytes_per_process}"
            )
        if self.bytes_per_process % self.request_size != 0:
            raise ValueError(
                f"bytes_per_process: must be a multiple of request_size ({self.request_size}), "
                f"got {self.bytes_per_process}"
            )
        return self


class Outputs(ScenarioModel):
    """Optional outputs."""

    dispatch_trace: Boolean = Field(False, description="also write <prefix>_dispatches.csv")


class IoForwardingExperiment(ScenarioModel):
    """An I/O forwarding experiment (seed 002, TWINS): client processes issue blocking
    requests through I/O forwarding nodes (or directly) to HDD data servers."""

    mode: Literal["forwarded", "direct"] = Field(description="through forwarders, or clients talk to the servers")
    seed: Seed = Field(0, description="seeds the start jitters (one generator, processes in slot order)")
    control_bytes: Integer = Field(
        1,
        ge=0,
        le=MAX_BYTES,
        description=(
            "size of read requests and write acknowledgements; 0 makes them free, 1 (as Batsim's control "
            "messages) costs the route latency"
        ),
    )
    clients: Clients
    servers: Servers
    forwarding: Forwarding | None = Field(None, description='required iff mode is "forwarded", forbidden if "direct"')
    applications: list[Application] = Field(min_length=1, description="non-empty list")
    outputs: Outputs | None = None

    @model_validator(mode="after")
    def _check(self) -> IoForwardingExperiment:
        if self.mode == "forwarded" and self.forwarding is None:
            raise ValueError('forwarding: missing (required when mode is "forwarded")')
        if self.mode == "direct" and self.forwarding is not None:
            raise ValueError('forwarding: not allowed when mode is "direct" (clients talk to the servers)')
        if self.forwarding is not None and isinstance(self.forwarding.mapping, list):
            if len(self.forwarding.mapping) != self.clients.nodes:
                raise ValueError(
                    f"forwarding.mapping: has {len(self.forwarding.mapping)} entries, expected one per client "
                    f"node ({self.clients.nodes})"
                )
        names: set[str] = set()
        for i, app in enumerate(self.applications):
            if app.name in names:
                raise ValueError(f"applications[{i}].name: duplicate name '{app.name}'")
            names.add(app.name)
        total = sum(app.processes for app in self.applications)
        slots = self.clients.nodes * self.clients.processes_per_node
        if total > slots:
            raise ValueError(
                f"applications: {total} processes in all, but clients provide only {slots} (nodes x processes_per_node)"
            )
        return self
