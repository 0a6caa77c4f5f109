"""Experiment documents of the three engine scenarios that the models and the engine must both
accept: the documented examples (examples/*.json, the JSON blocks of sim/src/*/README.md, the
fuzz corpus's valid seeds), and one document per scenario (per benchmark kind for qos-staging)
giving every field and section, so the schema-driven negative cases reach every field."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]

#: Every field of --io-forwarding given (and valid together).
FULL_FORWARDING: dict[str, Any] = {
    "mode": "forwarded",
    "seed": 3,
    "control_bytes": 1,
    "clients": {"nodes": 2, "processes_per_node": 2},
    "forwarding": {
        "forwarders": 2,
        "scheduler": "twins",
        "window": 0.001,
        "max_in_flight": 4,
        "aggregation_limit": 8,
        "drain": True,
        "mapping": [1, 0],
    },
    "servers": {
        "count": 2,
        "stripe_size": 65536,
        "hdd_alpha": 0.1,
        "hdd_seek_scale": 1e6,
        "cache": {"memory_bandwidth": 1e10, "write_behind": 1048576, "read_ahead": 0},
    },
    "applications": [
        {
            "name": "A",
            "processes": 4,
            "pattern": "shared_strided",
            "operation": "write",
            "request_size": 32768,
            "bytes_per_process": 131072,
            "start": 0,
            "jitter": 0.001,
        }
    ],
    "outputs": {"dispatch_trace": True},
}

_QOS_COMMON: dict[str, Any] = {
    "seed": 1,
    "arbitration": {
        "sl2vl": "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15,15",
        "vlarb_high": "0:40",
        "vlarb_low": "1:2,2:4,3:8,4:16,5:32,6:64,7:128",
        "granularity": 65536,
        "across_tables": "pieces",
        "high_limit": 255,
        "mtu": 2048,
    },
    "staging": {
        "server": "stg-0",
        "disk": "ssd",
        "port": "stg-0-san",
        "pfs": "pfs-0",
        "buffer_bytes": 67108864,
        "capacity": 1e9,
        "idle_seconds": 0.001,
        "drain_chunk": 4194304,
        "high_watermark": 0.9,
    },
    "noise": {"writers": ["client-2", "client-3"], "sl": 1, "block_size": 1048576, "start": 0, "jitter": 1e-5},
    "writes": [{"host": "client-2", "bytes": 4194304, "block_size": 1048576, "sl": 1, "start": 0.01}],
    "transfers": [{"name": "t", "src": "client-0", "dst": "client-1", "bytes": 1e6, "sl": 0, "start": 0}],
}

#: Every benchmark kind with every field it reads; the rest of --qos-staging's fields around it.
QOS_BENCHMARKS: dict[str, dict[str, Any]] = {
    "latency": {"hosts": ["client-0", "client-1"], "sizes": [8, 1024], "warmup": 2},
    "bandwidth": {"hosts": ["client-0", "client-1"], "sizes": [1048576], "warmup": 1, "window": 8, "ack_bytes": 4},
    "alltoall": {"hosts": ["client-0", "client-1", "client-2"], "sizes": [64], "warmup": 1},
    "allreduce": {"hosts": ["client-0", "client-1"], "sizes": [64], "warmup": 1, "algorithm": "rabenseifner"},
    "stencil": {
        "hosts": ["client-0", "client-1", "client-2", "client-3"],
        "grid": [2, 2, 1],
        "compute_seconds": 0.001,
        "halo_bytes": 65536,
    },
    "cg": {"hosts": ["client-0", "client-1"], "compute_seconds": 0.001, "exchange_bytes": 65536},
}


def full_qos(kind: str) -> dict[str, Any]:
    bench = {"kind": kind, "sl": 0, "start": 0.01, "iterations": 4} | QOS_BENCHMARKS[kind]
    return json.loads(json.dumps(_QOS_COMMON | {"benchmark": bench}))


#: Every field of --interference given (and valid together).
FULL_INTERFERENCE: dict[str, Any] = {
    "seed": 1,
    "simgrid_model": "ptask_L07",
    "hpl": {
        "hosts": ["node-000", "node-001"],
        "iterations": 2,
        "flops_per_iteration": 1e9,
        "bytes_per_iteration": 1e6,
    },
    "ior": {
        "hosts": ["node-002"],
        "processes_per_node": 2,
        "transfer_size": 512,
        "requests_per_batch": 16,
        "requests_per_process": 100,
        "sync_bytes": 4096,
        "metadata_ops_per_request": 0.5,
        "control_bytes": 1,
    },
    "services": {
        "storage": ["node-000", "node-002"],
        "metadata": ["node-000"],
        "stripe_count": 2,
        "chunk_size": 524288,
        "storage_workers": 12,
        "metadata_workers": 4,
    },
    "daemon_costs": {
        "flops_per_byte": 1,
        "flops_per_request": 160000,
        "flops_per_metadata_op": 160000,
        "idle_flops_per_second": 1.6e7,
        "idle_period": 1.0,
        "idle_phase": "aligned",
    },
    "memory": {"bandwidth": 3.41e11, "hpl_bytes_per_flop": 0.0417, "io_copies": 4},
}


def full_documents() -> list[tuple[str, str, dict[str, Any]]]:
    """(scenario, label, document) with every field given."""
    return [
        ("io-forwarding", "full", json.loads(json.dumps(FULL_FORWARDING))),
        *[("qos-staging", f"full-{kind}", full_qos(kind)) for kind in QOS_BENCHMARKS],
        ("interference", "full", json.loads(json.dumps(FULL_INTERFERENCE))),
    ]


EXAMPLES = {"io-forwarding": "forwarding", "qos-staging": "qos", "interference": "interference"}
FUZZ_CORPORA = {
    "io-forwarding": "sim_forwarding_experiment",
    "qos-staging": "sim_qos_experiment",
    "interference": "sim_interference_experiment",
}
READMES = {"io-forwarding": "forwarding", "qos-staging": "qos", "interference": "interference"}


def example_documents() -> list[tuple[str, str, dict[str, Any]]]:
    """(scenario, where it is from, document): the repository's documented valid documents."""
    out = []
    for name, stem in EXAMPLES.items():
        out.append((name, f"examples/{stem}.json", json.loads((REPO / "examples" / f"{stem}.json").read_text())))
    for name, corpus in FUZZ_CORPORA.items():
        for path in sorted((REPO / "tests" / "fuzz" / "corpus" / corpus).glob("valid*.json")):
            out.append((name, str(path.relative_to(REPO)), json.loads(path.read_text())))
    for name, directory in READMES.items():
        readme = REPO / "sim" / "src" / directory / "README.md"
        for i, block in enumerate(re.findall(r"```json\n(.*?)```", readme.read_text(), re.S)):
            out.append((name, f"{readme.relative_to(REPO)} block {i}", json.loads(block)))
    return out


def _set(path: str, value: Any) -> Callable[[dict], None]:
    """A change setting the field at ``path`` ("applications.0.name") to ``value``."""

    def change(doc: dict) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value

    return change


def _remove(*keys: str) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        for key in keys:
            del doc[key]

    return change


def _then(*changes: Callable[[dict], None]) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        for c in changes:
            c(doc)

    return change


#: The rules over several fields that a JSON Schema cannot state: (scenario, change to its full
#: document, what the model's line says, the field the engine's line names). Each is one of the
#: C++ reader's checks; the model must refuse the same documents.
CROSS_FIELD: list[tuple[str, Callable[[dict], None], str, str]] = [
    (
        "io-forwarding",
        _set("forwarding.scheduler", "fifo"),
        'forwarding.drain: only applies to scheduler "twins"',
        "forwarding.drain",
    ),
    (
        "io-forwarding",
        _set("forwarding.mapping", [0, 2]),
        "mapped to forwarder 2, which does not exist",
        "forwarding.mapping",
    ),
    (
        "io-forwarding",
        _set("forwarding.mapping", [0]),
        "forwarding.mapping: has 1 entries, expected one per client node (2)",
        "forwarding.mapping",
    ),
    (
        "io-forwarding",
        _set("forwarding.mapping", ["fw-0", 1]),
        "forwarding.mapping: Input should be",
        "forwarding.mapping",
    ),
    ("io-forwarding", _set("mode", "direct"), 'forwarding: not allowed when mode is "direct"', "forwarding"),
    ("io-forwarding", _remove("forwarding"), 'forwarding: missing (required when mode is "forwarded")', "forwarding"),
    (
        "io-forwarding",
        _set("clients.processes_per_node", 1),
        "applications: 4 processes in all, but clients provide only 2",
        "applications",
    ),
    (
        "io-forwarding",
        _set("applications.0.bytes_per_process", 100000),
        "applications[0].bytes_per_process: must be a multiple of request_size (32768)",
        "applications[0].bytes_per_process",
    ),
    (
        "io-forwarding",
        _set("applications.0.bytes_per_process", 2**62),
        "applications[0].bytes_per_process: processes x bytes_per_process must be <=",
        "applications[0].bytes_per_process",
    ),
    (
        "io-forwarding",
        _then(_set("clients.processes_per_node", 4), lambda d: d["applications"].append(d["applications"][0])),
        "applications[1].name: duplicate name 'A'",
        "applications[1].name",
    ),
    ("qos-staging", _remove("staging"), "staging: missing (required by noise and writes", "staging"),
    ("qos-staging", _remove("benchmark"), "noise: noise runs until the benchmark ends: give a benchmark", "noise"),
    (
        "qos-staging",
        _then(_remove("benchmark", "noise", "writes"), _set("transfers", [])),
        "nothing to run",
        "document",
    ),
    ("qos-staging", _set("noise.sl", 9), "noise.sl: SL9 (VL15) is the management lane", "noise.sl"),
    (
        "qos-staging",
        _set("arbitration.vlarb_low", "1:0"),
        "noise.sl: SL1 (VL1) has weight 0 in both arbitration tables",
        "noise.sl",
    ),
    (
        "qos-staging",
        _set("arbitration.vlarb_high", "0:40,15:1"),
        "arbitration.vlarb_high: expected vl:weight with VL 0-14",
        "arbitration.vlarb_high",
    ),
    (
        "qos-staging",
        _set("arbitration.vlarb_high", "0:256"),
        "arbitration.vlarb_high: expected vl:weight with VL 0-14",
        "arbitration.vlarb_high",
    ),
    (
        "qos-staging",
        _set("arbitration.vlarb_high", "0 :40"),
        "arbitration.vlarb_high: expected vl:weight with VL 0-14",
        "arbitration.vlarb_high",
    ),
    (
        "qos-staging",
        _set("arbitration.sl2vl", "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15"),
        "arbitration.sl2vl: expected OpenSM's qos_ca_sl2vl",
        "arbitration.sl2vl",
    ),
    (
        "qos-staging",
        _set("arbitration.sl2vl", "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15,16"),
        "arbitration.sl2vl: SL15: expected a VL 0-15",
        "arbitration.sl2vl",
    ),
    (
        "qos-staging",
        _set("transfers.0.dst", "client-0"),
        "transfers[0].dst: must differ from src ('client-0')",
        "transfers[0].dst",
    ),
    (
        "qos-staging",
        lambda d: d["transfers"].append({"src": "client-0", "dst": "client-1", "bytes": 1, "name": "t"}),
        "transfers[1].name: duplicate name 't'",
        "transfers[1].name",
    ),
    (
        "qos-staging",
        _set("benchmark.hosts", ["client-0", "client-0"]),
        "benchmark.hosts: a point-to-point benchmark needs two distinct hosts",
        "benchmark.hosts",
    ),
    (
        "qos-staging",
        _set("benchmark.hosts", ["a", "b", "c"]),
        "benchmark.hosts: a point-to-point benchmark needs two distinct hosts",
        "benchmark.hosts",
    ),
    (
        "qos-staging",
        _set("benchmark.kind", "cg"),
        "benchmark.exchange_bytes: Field required",
        "benchmark.exchange_bytes",
    ),
]
#: Cross-field rules of the other benchmark kinds: (kind, change, model's line, engine's field).
CROSS_FIELD_BENCHMARKS: list[tuple[str, Callable[[dict], None], str, str]] = [
    (
        "allreduce",
        _set("benchmark.hosts", ["a", "b", "c"]),
        "benchmark.hosts: an allreduce needs a power-of-two number of nodes",
        "benchmark.hosts",
    ),
    (
        "alltoall",
        _set("benchmark.hosts", ["a", "b", "a"]),
        "benchmark.hosts: every node must appear once",
        "benchmark.hosts",
    ),
    (
        "stencil",
        _set("benchmark.grid", [2, 2, 2]),
        "benchmark.grid: nx x ny x nz = 8 nodes, but hosts lists 4",
        "benchmark.grid",
    ),
]
CROSS_FIELD_INTERFERENCE: list[tuple[str, Callable[[dict], None], str, str]] = [
    ("interference", _set("ior.hosts", ["node-001"]), "ior.hosts: host 'node-001' also runs the HPL job", "ior.hosts"),
    (
        "interference",
        _set("services.storage", []),
        "services.storage: the IOR job writes, but no host runs a storage service",
        "services.storage",
    ),
    (
        "interference",
        _set("services.metadata", []),
        "services.metadata: the IOR job creates files",
        "services.metadata",
    ),
    (
        "interference",
        _set("services.chunk_size", 1000),
        "services.chunk_size: must be a multiple of ior.transfer_size (512)",
        "services.chunk_size",
    ),
    (
        "interference",
        _set("ior.sync_bytes", 2**62),
        "ior.sync_bytes: (services.chunk_size / ior.transfer_size) x ior.sync_bytes",
        "ior.sync_bytes",
    ),
    (
        "interference",
        _set("memory.hpl_bytes_per_flop", 1e10),
        "memory.hpl_bytes_per_flop: hpl_bytes_per_flop x hpl.flops_per_iteration",
        "memory.hpl_bytes_per_flop",
    ),
    (
        "interference",
        _set("memory.io_copies", 1e15),
        "memory.io_copies: io_copies x a batch's device bytes",
        "memory.io_copies",
    ),
    (
        "interference",
        _set("hpl.hosts", ["node-000", "node-000"]),
        "hpl.hosts: host 'node-000' is listed twice",
        "hpl.hosts",
    ),
]


def cross_field_cases() -> list[tuple[str, str, dict[str, Any], str, str]]:
    """(scenario, label, refused document, the model's words, the engine's field)."""
    out = []
    for name, change, words, field in CROSS_FIELD + CROSS_FIELD_INTERFERENCE:
        doc = json.loads(json.dumps(FULL_FORWARDING if name == "io-forwarding" else FULL_INTERFERENCE))
        if name == "qos-staging":
            doc = full_qos("latency")
        change(doc)
        out.append((name, words, doc, words, field))
    for kind, change, words, field in CROSS_FIELD_BENCHMARKS:
        doc = full_qos(kind)
        change(doc)
        out.append(("qos-staging", words, doc, words, field))
    return out
