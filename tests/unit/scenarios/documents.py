"""Experiment documents of the three engine scenarios that the models and the engine must both
accept: the documented examples (examples/*.json, the JSON blocks of sim/src/*/README.md, the
fuzz corpus's valid seeds), and one document per scenario (per benchmark kind for qos-staging)
giving every field and section, so the schema-driven negative cases reach every field."""

from __future__ import annotations

import json
import re
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
