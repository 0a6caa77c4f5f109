"""Seed 003's QoS-aware data-staging experiment (``datasched-sim --qos-staging``): the document
the C++ reader ``sim/src/qos/experiment.cpp`` accepts, with its ranges, defaults and
cross-field rules (the arbitration strings are parsed as the reader parses them, with
``std::stoi`` / ``std::stod``). sim/src/qos/README.md explains the model; the words below are
its field table's. Host names are checked against the platform by the engine only."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field, WrapValidator, model_validator

from datasched.scenarios.fields import (
    MAX_REPETITIONS,
    MAX_SECONDS,
    Integer,
    NonEmpty,
    Number,
    ScenarioModel,
    Seed,
    keep_integer,
)

#: Every file the scenario writes under the export prefix (``<prefix>_<name>.csv``), as the
#: C++ ``output_files()`` of sim/src/qos/outputs.cpp lists them.
OUTPUTS = ("benchmark", "transfers", "writes", "staging", "summary")

#: Bytes of a message, a transfer, a buffer: the reader's own limit (10^12, a terabyte).
MAX_QOS_BYTES = 1e12
SERVICE_LEVELS = 16
VIRTUAL_LANES = 16
MANAGEMENT_LANE = 15
MIB = 1024 * 1024

#: seed 003 Figure 4 (ArbitrationTable::paper_default): SL i -> VL i for i < 8, SL 8-15 ->
#: VL15; high table VL0:40; low table VL1..7: 2, 4, ..., 128.
PAPER_SL2VL = "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15,15"
PAPER_VLARB_HIGH = "0:40"
PAPER_VLARB_LOW = "1:2,2:4,3:8,4:16,5:32,6:64,7:128"

_SPACE = "[ \t\n\v\f\r]*"  # what strtol/strtod skip (C isspace)
_STOI = re.compile(_SPACE + r"[+-]?[0-9]+")
_DECIMAL = re.compile(_SPACE + r"([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?")
_HEX = re.compile(_SPACE + r"([+-]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)")
_INT_MAX = 2**31 - 1


def _getline_items(text: str) -> list[str]:
    """``std::getline(stream, item, ',')`` over ``text``: the pieces between commas, without
    a last empty one (a trailing comma adds no item)."""
    items = text.split(",")
    return items[:-1] if items[-1] == "" else items


def _stoi(text: str) -> int | None:
    """``std::stoi(text, &used)`` with ``used == text.size()``: the integer, or None when it
    throws or leaves characters unread."""
    if not _STOI.fullmatch(text):
        return None
    value = int(text.strip(" \t\n\v\f\r"))
    return value if -_INT_MAX - 1 <= value <= _INT_MAX else None


def _stod(text: str) -> float | None:
    """``std::stod(text, &used)`` with ``used == text.size()`` for the finite numbers a weight
    can be (a decimal or hexadecimal float; inf and nan are no weight anyway): None when it
    throws or leaves characters unread. glibc's strtod reports ERANGE (stod throws) on overflow
    and on an inexact result below the smallest normal double (``5e-324``, but not the exact
    ``0x1p-1074``): the exact value is compared with the double it rounds to."""
    if match := _HEX.fullmatch(text):
        sign, body = match.groups()
        mantissa, _, exponent = body.replace("P", "p").partition("p")
        whole, _, fraction = mantissa.partition(".")
        digits, scale, power = int(whole + fraction or "0", 16), 16 ** len(fraction), int(exponent or "0")
        base = 2
    elif match := _DECIMAL.fullmatch(text):
        sign, mantissa, exponent = match.groups()
        whole, _, fraction = mantissa.partition(".")
        digits, scale, power = int(whole + fraction or "0", 10), 10 ** len(fraction), int(exponent or "0")
        base = 10
    else:
        return None
    if digits == 0:
        return 0.0
    if abs(power) > 5000:  # far beyond a double either way (and too costly to compute exactly)
        return None
    exact = Fraction(digits, scale) * Fraction(base) ** power
    try:
        value = float(exact)  # correctly rounded
    except OverflowError:
        return None
    if math.isinf(value) or (value < 2.2250738585072014e-308 and Fraction(value) != exact):
        return None
    return -value if sign == "-" else value


def parse_sl2vl(text: str) -> list[int]:
    """OpenSM's ``qos_ca_sl2vl``: 16 comma-separated VLs 0-15, one per SL (ValueError otherwise)."""
    lanes = [_stoi(item) for item in _getline_items(text)] if text else []
    if len(lanes) != SERVICE_LEVELS:
        raise ValueError(f"expected OpenSM's qos_ca_sl2vl: 16 comma-separated VLs, got {text!r}")
    for sl, vl in enumerate(lanes):
        if vl is None or not 0 <= vl < VIRTUAL_LANES:
            raise ValueError(f"SL{sl}: expected a VL 0-15, got {text!r}")
    return [vl for vl in lanes if vl is not None]


def parse_weights(text: str) -> list[float]:
    """OpenSM's ``vl:weight,vl:weight,...`` (qos_ca_vlarb_high / _low): the weight of each of
    the 16 VLs (VLs not listed weigh 0); VL 0-14, weight 0-255 (ValueError otherwise)."""
    table = [0.0] * VIRTUAL_LANES
    for item in _getline_items(text) if text else []:
        vl_text, colon, weight_text = item.partition(":")
        vl = _stoi(vl_text) if colon else None
        weight = _stod(weight_text) if vl is not None else None
        if vl is None or weight is None or not 0 <= vl < VIRTUAL_LANES or vl == MANAGEMENT_LANE:
            raise ValueError(f"expected vl:weight with VL 0-14 and weight 0-255, got {item!r}")
        if not 0 <= weight <= 255:
            raise ValueError(f"expected vl:weight with VL 0-14 and weight 0-255, got {item!r}")
        table[vl] = weight
    return table


def _valid_sl2vl(text: str) -> str:
    parse_sl2vl(text)
    return text


def _valid_weights(text: str) -> str:
    parse_weights(text)
    return text


Sl2Vl = Annotated[str, Field(strict=True), AfterValidator(_valid_sl2vl)]
Weights = Annotated[str, Field(strict=True), AfterValidator(_valid_weights)]
#: An InfiniBand service level; it must also carry data under the arbitration table
#: (checked by QosStagingExperiment).
ServiceLevel = Annotated[int, Field(strict=True, ge=0, le=SERVICE_LEVELS - 1)]
QosBytes = Annotated[
    float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_QOS_BYTES), WrapValidator(keep_integer)
]
HostList = list[NonEmpty]


class Arbitration(ScenarioModel):
    """The SL2VL table and the VL arbitration tables, as OpenSM configures them; absent
    fields are the paper's Figure 4."""

    sl2vl: Sl2Vl = Field(PAPER_SL2VL, description="OpenSM's qos_ca_sl2vl string: 16 VLs, one per SL")
    vlarb_high: Weights = Field(
        PAPER_VLARB_HIGH, description="OpenSM's qos_ca_vlarb_high 'vl:weight,...' (VL 0-14, weight 0-255)"
    )
    vlarb_low: Weights = Field(
        PAPER_VLARB_LOW, description="OpenSM's qos_ca_vlarb_low 'vl:weight,...' (VL 0-14, weight 0-255)"
    )
    granularity: Number = Field(
        65536, gt=0, le=MAX_QOS_BYTES, description="piece size of low-table flows, bytes (not in the paper)"
    )
    across_tables: Literal["pieces", "priority"] = Field(
        "pieces",
        description=(
            "how the high table comes first: granular pieces, or a 1e-6 solver priority on whole low-table flows"
        ),
    )
    high_limit: Integer = Field(
        255,
        ge=0,
        le=255,
        description="OpenSM's qos_ca_high_limit, 4 KiB bursts; 255 (the paper's) is unbounded",
    )
    mtu: Number = Field(2048, gt=0, le=65536, description="packet size for high_limit, bytes (an assumption)")

    def check_data_lane(self, sl: int, field: str) -> None:
        """Refuses a service level that cannot carry data under this table (ArbitrationTable::
        is_high): it maps to VL15, or to a VL weighing 0 in both tables."""
        vl = parse_sl2vl(self.sl2vl)[sl]
        name = f"SL{sl} (VL{vl})"
        if vl == MANAGEMENT_LANE:
            raise ValueError(f"{field}: {name} is the management lane, which carries no data")
        if parse_weights(self.vlarb_high)[vl] <= 0 and parse_weights(self.vlarb_low)[vl] <= 0:
            raise ValueError(
                f"{field}: {name} has weight 0 in both arbitration tables: its packets would never be sent"
            )


class Staging(ScenarioModel):
    """One staging group: a staging server with its SSD, its port on the storage network and
    the back-end PFS server its data mover drains to."""

    server: NonEmpty = Field(description="the staging server: an IB host with a disk (the SSD)")
    disk: NonEmpty | None = Field(None, description="the SSD's disk name (absent: the server's only disk)")
    port: NonEmpty = Field(description="the server's host on the storage network (where the mover sends from)")
    pfs: NonEmpty = Field(description="the back-end PFS server on the storage network (where the mover sends to)")
    buffer_bytes: Number = Field(
        64.0 * MIB, gt=0, le=MAX_QOS_BYTES, description="server memory for received blocks not yet on the SSD"
    )
    capacity: Number = Field(0, ge=0, le=MAX_QOS_BYTES, description="SSD capacity, bytes; 0: the disk's size property")
    idle_seconds: Number = Field(1e-3, ge=0, le=MAX_SECONDS, description="tau of the idle rule, seconds")
    drain_chunk: Number = Field(4.0 * MIB, gt=0, le=MAX_QOS_BYTES, description="bytes per mover step")
    high_watermark: Number = Field(0.9, gt=0, le=1, description="fill fraction that forces draining")


class Noise(ScenarioModel):
    """Continuous I/O noise: one dd thread per writer streams blocks to the staging server
    until the benchmark ends."""

    writers: HostList = Field(min_length=1, description="hosts, one dd thread each")
    sl: ServiceLevel = 0
    block_size: Number = Field(1.0 * MIB, gt=0, le=MAX_QOS_BYTES, description="bytes")
    start: Number = Field(0, ge=0, le=MAX_SECONDS, description="seconds")
    jitter: Number = Field(0, ge=0, le=MAX_SECONDS, description="each block first waits U[0, jitter) s")


class Write(ScenarioModel):
    """One explicit write to the staging server, in blocks; the run waits until the data mover
    has drained it to the PFS."""

    host: NonEmpty
    bytes: Number = Field(gt=0, le=MAX_QOS_BYTES)
    block_size: Number = Field(1.0 * MIB, gt=0, le=MAX_QOS_BYTES)
    sl: ServiceLevel = 0
    start: Number = Field(0, ge=0, le=MAX_SECONDS, description="seconds")


class Transfer(ScenarioModel):
    """One explicit host-to-host flow."""

    name: NonEmpty | None = Field(None, description="unique; absent: t<index>")
    src: NonEmpty
    dst: NonEmpty = Field(description="must differ from src")
    bytes: Number = Field(gt=0, le=MAX_QOS_BYTES)
    sl: ServiceLevel = 0
    start: Number = Field(0, ge=0, le=MAX_SECONDS, description="seconds")

    @model_validator(mode="after")
    def _check(self) -> Transfer:
        if self.src == self.dst:
            raise ValueError(f"dst: must differ from src ('{self.src}'): a flow needs a network route")
        return self


class _Benchmark(ScenarioModel):
    """What every benchmark has."""

    hosts: HostList = Field(
        min_length=2,
        description="two for latency/bandwidth/bibw; the nodes in order for the others (a power of two for allreduce)",
    )
    sl: ServiceLevel = 0
    start: Number = Field(0, ge=0, le=MAX_SECONDS, description="seconds")
    iterations: Integer = Field(100, ge=1, le=MAX_REPETITIONS)

    def _pair(self) -> None:
        if len(self.hosts) != 2 or self.hosts[0] == self.hosts[1]:
            raise ValueError("hosts: a point-to-point benchmark needs two distinct hosts")

    def _distinct(self) -> None:
        if len(set(self.hosts)) != len(self.hosts):
            raise ValueError("hosts: every node must appear once")


class _PerSize(_Benchmark):
    """OSU-like benchmarks: one measurement per message size."""

    sizes: list[QosBytes] = Field(
        min_length=1,
        description="bytes (alltoall: per ordered rank pair; allreduce: the vector)",
    )
    warmup: Integer = Field(10, ge=0, le=MAX_REPETITIONS)


class LatencyBenchmark(_PerSize):
    """osu_latency: round trips between two hosts."""

    kind: Literal["latency"]

    @model_validator(mode="after")
    def _check(self) -> LatencyBenchmark:
        self._pair()
        return self


class BandwidthBenchmark(_PerSize):
    """osu_bw / osu_bibw: windows of messages (per direction) between two hosts, then an ack."""

    kind: Literal["bandwidth", "bibw"]
    window: Integer = Field(64, ge=1, le=MAX_REPETITIONS, description="messages per window (per direction)")
    ack_bytes: Number = Field(4, gt=0, le=MAX_QOS_BYTES)

    @model_validator(mode="after")
    def _check(self) -> BandwidthBenchmark:
        self._pair()
        return self


class AlltoallBenchmark(_PerSize):
    """osu_alltoall."""

    kind: Literal["alltoall"]

    @model_validator(mode="after")
    def _check(self) -> AlltoallBenchmark:
        self._distinct()
        return self


class AllreduceBenchmark(_PerSize):
    """osu_allreduce on a power-of-two number of nodes."""

    kind: Literal["allreduce"]
    algorithm: Literal["auto", "recursive_doubling", "rabenseifner"] = Field(
        "auto", description="auto: recursive doubling up to 2048 bytes, Rabenseifner above (MPICH's rule)"
    )

    @model_validator(mode="after")
    def _check(self) -> AllreduceBenchmark:
        self._distinct()
        n = len(self.hosts)
        if n & (n - 1):
            raise ValueError(
                f"hosts: an allreduce needs a power-of-two number of nodes (recursive doubling and halving), got {n}"
            )
        return self


GridSide = Annotated[int, Field(strict=True, ge=1, le=1024)]


class StencilBenchmark(_Benchmark):
    """AWP-ODC-like: compute, then halo exchanges with the grid neighbours, every iteration."""

    kind: Literal["stencil"]
    compute_seconds: Number = Field(0, ge=0, le=MAX_SECONDS, description="per iteration, on every node")
    grid: list[GridSide] = Field(
        min_length=3, max_length=3, description="[nx, ny, nz] nodes (product = number of hosts)"
    )
    halo_bytes: Number = Field(gt=0, le=MAX_QOS_BYTES, description="per node face and direction, per iteration")

    @model_validator(mode="after")
    def _check(self) -> StencilBenchmark:
        self._distinct()
        product = math.prod(self.grid)
        if product != len(self.hosts):
            raise ValueError(f"grid: nx x ny x nz = {product} nodes, but hosts lists {len(self.hosts)}")
        return self


class CgBenchmark(_Benchmark):
    """NAS CG-like: compute, then a transpose exchange between every ordered node pair."""

    kind: Literal["cg"]
    compute_seconds: Number = Field(0, ge=0, le=MAX_SECONDS, description="per iteration, on every node")
    exchange_bytes: Number = Field(gt=0, le=MAX_QOS_BYTES, description="per ordered node pair, per iteration")

    @model_validator(mode="after")
    def _check(self) -> CgBenchmark:
        self._distinct()
        return self


Benchmark = Annotated[
    LatencyBenchmark | BandwidthBenchmark | AlltoallBenchmark | AllreduceBenchmark | StencilBenchmark | CgBenchmark,
    Field(discriminator="kind"),
]
#: Every benchmark kind, as the members of Benchmark name them.
BENCHMARK_KINDS: tuple[str, ...] = tuple(
    kind for member in get_args(get_args(Benchmark)[0]) for kind in get_args(member.model_fields["kind"].annotation)
)


class QosStagingExperiment(ScenarioModel):
    """A QoS data-staging experiment (seed 003): InfiniBand service levels, a staging server
    with lazy drain, OSU/stencil/CG benchmarks under I/O noise."""

    seed: Seed = Field(0, description="the staging server's random service order; the noise jitter")
    arbitration: Arbitration | None = Field(None, description="absent: the paper's Figure 4")
    staging: Staging | None = Field(None, description="required by noise and writes")
    noise: Noise | None = Field(None, description="needs a benchmark")
    writes: list[Write] = Field(default_factory=list, description="explicit writes")
    transfers: list[Transfer] = Field(default_factory=list, description="explicit flows")
    benchmark: Benchmark | None = None

    @model_validator(mode="after")
    def _check(self) -> QosStagingExperiment:
        if (self.noise is not None or self.writes) and self.staging is None:
            raise ValueError("staging: missing (required by noise and writes: where do they write?)")
        if self.benchmark is None and not self.writes and not self.transfers:
            raise ValueError("nothing to run: give a benchmark, writes or transfers")
        if self.noise is not None and self.benchmark is None:
            raise ValueError("noise: noise runs until the benchmark ends: give a benchmark")
        names: set[str] = set()
        for i, transfer in enumerate(self.transfers):
            name = transfer.name if transfer.name is not None else f"t{i}"
            if name in names:
                raise ValueError(f"transfers[{i}].name: duplicate name '{name}'")
            names.add(name)
        table = self.arbitration or Arbitration()
        if self.noise is not None:
            table.check_data_lane(self.noise.sl, "noise.sl")
        for i, write in enumerate(self.writes):
            table.check_data_lane(write.sl, f"writes[{i}].sl")
        for i, transfer in enumerate(self.transfers):
            table.check_data_lane(transfer.sl, f"transfers[{i}].sl")
        if self.benchmark is not None:
            table.check_data_lane(self.benchmark.sl, "benchmark.sl")
        return self
