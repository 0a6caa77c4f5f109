"""Hypothesis strategies of experiment documents, built from the scenario models
(datasched.scenarios): every field's strategy comes from its type and its constraints
(``ge``/``gt``/``le``, lengths, enumerations, optional or required), so a constraint added to
a model changes what is generated. What a model states only as a rule over several fields
(a multiple of request_size, a stencil grid matching its hosts...) is then made to hold by one
repair per scenario, and a run's size is kept small by caps on the fields that set its cost
(the engine refuses a run estimated above its event budget, model/run_cost.hpp)."""

from __future__ import annotations

import math
import types
import typing
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types as at
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from datasched.scenarios.fields import MAX_BYTES
from datasched.scenarios.interference import InterferenceExperiment, IorJob
from datasched.scenarios.io_forwarding import Forwarding, IoForwardingExperiment
from datasched.scenarios.qos_staging import (
    MANAGEMENT_LANE,
    QosStagingExperiment,
    Staging,
    parse_sl2vl,
    parse_weights,
)

#: Largest values drawn for the fields that set a run's cost or size (the rest use their
#: whole range): counts of processes, nodes, iterations, list lengths.
CAPS: dict[str, int] = {
    "nodes": 8,
    "processes": 8,
    "processes_per_node": 8,
    "forwarders": 4,
    "count": 4,
    "iterations": 20,
    "warmup": 4,
    "window": 8,
    "list": 4,
    "grid[]": 2,
}
#: Text without control characters (host and application names).
TEXT = st.characters(blacklist_categories=("Cc", "Cs"))


def _bounds(metadata: list[Any]) -> dict[str, Any]:
    """The constraints of a field: ge, gt, le, min_length, max_length, unique."""
    out: dict[str, Any] = {}
    for item in metadata:
        if isinstance(item, FieldInfo):
            out |= _bounds(item.metadata)
            if isinstance(item.json_schema_extra, dict) and item.json_schema_extra.get("uniqueItems"):
                out["unique"] = True
        elif isinstance(item, at.Ge):
            out["ge"] = item.ge
        elif isinstance(item, at.Gt):
            out["gt"] = item.gt
        elif isinstance(item, at.Le):
            out["le"] = item.le
        elif isinstance(item, at.MinLen):
            out["min_length"] = item.min_length
        elif isinstance(item, at.MaxLen):
            out["max_length"] = item.max_length
        elif getattr(item, "min_length", None) is not None:  # StringConstraints
            out["min_length"] = item.min_length
    return out


def _number(bounds: dict[str, Any], cap: int | None) -> st.SearchStrategy[Any]:
    low = bounds.get("ge", bounds.get("gt", 0))
    high = min(bounds["le"], cap) if cap is not None else bounds["le"]
    floats = st.floats(low, high, exclude_min="gt" in bounds, allow_nan=False, allow_infinity=False)
    ints = st.integers(math.ceil(low) + ("gt" in bounds and low == math.ceil(low)), math.floor(high))
    return st.one_of(ints, floats)


def strategy(annotation: Any, metadata: list[Any], name: str) -> st.SearchStrategy[Any]:
    """Values of a field of type ``annotation`` with ``metadata`` (its constraints)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        inner, *extra = get_args(annotation)
        return strategy(inner, [*metadata, *extra], name)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        return st.one_of(*[strategy(a, metadata if len(members) == 1 else [], name) for a in members])
    if origin is Literal:
        return st.sampled_from(get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return documents_of(annotation)
    bounds = _bounds(metadata)
    cap = CAPS.get(name)
    if origin is list:
        (item,) = get_args(annotation)
        low = bounds.get("min_length", 0)
        high = bounds.get("max_length", max(low, CAPS["list"]))
        items = strategy(item, [], f"{name}[]")
        return st.lists(items, min_size=low, max_size=high, unique=bounds.get("unique", False))
    if annotation is bool:
        return st.booleans()
    if annotation is str:
        return st.text(TEXT, min_size=bounds.get("min_length", 0), max_size=8)
    if annotation is int:
        low = bounds.get("ge", 0)
        high = bounds.get("le", MAX_BYTES)
        return st.integers(low, min(high, cap) if cap is not None else high)
    if annotation is float:
        return _number(bounds, cap)
    raise TypeError(f"no strategy for {annotation!r} ({name})")


def documents_of(model: type[BaseModel]) -> st.SearchStrategy[dict[str, Any]]:
    """Documents of ``model``: every required field, any subset of the optional ones."""
    if typing.get_origin(model) is not None:
        raise TypeError(model)
    required: dict[str, st.SearchStrategy[Any]] = {}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, info in model.model_fields.items():
        values = strategy(info.annotation, [info], name)  # its constraints, uniqueItems included
        (required if info.is_required() else optional)[name] = values
    return st.fixed_dictionaries(required, optional=optional)


def _unique_names(items: list[dict[str, Any]], key: str) -> None:
    for i, item in enumerate(items):
        if key in item:
            item[key] = f"{i}-{item[key]}"


@st.composite
def forwarding_documents(draw: st.DrawFn) -> dict[str, Any]:
    """--io-forwarding documents that the model accepts."""
    doc = draw(documents_of(IoForwardingExperiment))
    if doc["mode"] == "direct":
        doc.pop("forwarding", None)
    elif "forwarding" not in doc:
        doc["forwarding"] = draw(documents_of(Forwarding))
    if fw := doc.get("forwarding"):
        if fw["scheduler"] != "twins":
            fw.pop("drain", None)
        if isinstance(fw.get("mapping"), list):
            nodes = doc["clients"]["nodes"]
            indices = st.integers(0, fw["forwarders"] - 1)
            names = st.text(TEXT, min_size=1, max_size=8)
            fw["mapping"] = draw(
                st.one_of(
                    st.lists(indices, min_size=nodes, max_size=nodes), st.lists(names, min_size=nodes, max_size=nodes)
                )
            )
    apps = doc["applications"]
    _unique_names(apps, "name")
    for app in apps:
        per_request = draw(st.integers(1, 4), label="requests per process")
        app["request_size"] = min(app["request_size"], MAX_BYTES // (per_request * app["processes"]))
        app["bytes_per_process"] = app["request_size"] * per_request
    total = sum(app["processes"] for app in apps)
    clients = doc["clients"]
    clients["processes_per_node"] = max(clients.get("processes_per_node", 1), -(-total // clients["nodes"]))
    return doc


def _weights(vls: st.SearchStrategy[int]) -> st.SearchStrategy[str]:
    """OpenSM's "vl:weight,..." strings as the engine reads them (integer or decimal weights;
    no subnormal one: glibc's strtod reports those as out of range, qos_staging._stod)."""
    weight = st.one_of(st.integers(0, 255).map(str), st.floats(0, 255, allow_subnormal=False).map(repr))
    item = st.tuples(vls, weight).map(lambda p: f"{p[0]}:{p[1]}")
    return st.lists(item, max_size=5).map(",".join)


SL2VL = st.lists(st.integers(0, 15), min_size=16, max_size=16).map(lambda lanes: ",".join(map(str, lanes)))


@st.composite
def qos_documents(draw: st.DrawFn) -> dict[str, Any]:
    """--qos-staging documents that the model accepts."""
    doc = draw(documents_of(QosStagingExperiment))
    arbitration = doc.get("arbitration", {})
    for key, values in [("sl2vl", SL2VL), ("vlarb_high", _weights(st.integers(0, 14)))]:
        if key in arbitration:
            arbitration[key] = draw(values)
    if "vlarb_low" in arbitration:
        arbitration["vlarb_low"] = draw(_weights(st.integers(0, 14)))
    lanes = parse_sl2vl(arbitration.get("sl2vl", "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15,15"))
    high = parse_weights(arbitration.get("vlarb_high", "0:40"))
    low = parse_weights(arbitration.get("vlarb_low", "1:2,2:4,3:8,4:16,5:32,6:64,7:128"))
    data = [sl for sl, vl in enumerate(lanes) if vl != MANAGEMENT_LANE and (high[vl] > 0 or low[vl] > 0)]
    if not data:  # no SL carries data under the drawn table: the paper's table
        for key in ("sl2vl", "vlarb_high", "vlarb_low"):
            arbitration.pop(key, None)
        data = list(range(8))
    service_level = st.sampled_from(data)
    if "benchmark" not in doc and not doc.get("writes") and not doc.get("transfers"):
        doc.pop("noise", None)
        doc["transfers"] = [{"src": "a", "dst": "b", "bytes": 1}]
    if "benchmark" not in doc:
        doc.pop("noise", None)
    if ("noise" in doc or doc.get("writes")) and "staging" not in doc:
        doc["staging"] = draw(documents_of(Staging))
    _unique_names(doc.get("transfers", []), "name")
    for i, transfer in enumerate(doc.get("transfers", [])):
        if "name" not in transfer:
            transfer["name"] = f"t{i}"  # the engine's default name, made explicit: never a duplicate
        if transfer["dst"] == transfer["src"]:
            transfer["dst"] += "'"
    if bench := doc.get("benchmark"):
        hosts = [f"{i}-{h}" for i, h in enumerate(bench["hosts"][:8])]
        if bench["kind"] in ("latency", "bandwidth", "bibw"):
            hosts = hosts[:2]
        elif bench["kind"] == "allreduce":
            hosts = hosts[: 2 ** int(math.log2(len(hosts)))]
        elif bench["kind"] == "stencil":
            if math.prod(bench["grid"]) == 1:
                bench["grid"] = [2, 1, 1]
            hosts = [f"n{i}" for i in range(math.prod(bench["grid"]))]
        bench["hosts"] = hosts
    for part in [doc.get("noise"), *doc.get("writes", []), *doc.get("transfers", []), doc.get("benchmark")]:
        if part is not None and ("sl" in part or 0 not in data):
            part["sl"] = draw(service_level)
    return doc


@st.composite
def interference_documents(draw: st.DrawFn) -> dict[str, Any]:
    """--interference documents that the model accepts."""
    doc = draw(documents_of(InterferenceExperiment))
    if ior := doc.get("ior"):
        ior["hosts"] = [h for h in ior.get("hosts", []) if h not in doc["hpl"]["hosts"]]
        if ior["hosts"]:
            services = doc.setdefault("services", {})
            for key in ("storage", "metadata"):
                if not services.get(key):
                    services[key] = draw(
                        st.lists(st.text(TEXT, min_size=1, max_size=8), min_size=1, max_size=3, unique=True)
                    )
            transfer = ior.get("transfer_size", IorJob.model_fields["transfer_size"].default)
            chunks = draw(st.integers(1, 1024), label="transfers per chunk")
            transfer = min(transfer, 2**30)  # keeps io_copies x a batch's device bytes within 1e18
            ior["transfer_size"] = transfer
            services["chunk_size"] = transfer * chunks
            ior["sync_bytes"] = min(ior.get("sync_bytes", 0), 2**40)
    if memory := doc.get("memory"):
        flops = doc["hpl"]["flops_per_iteration"]
        memory["hpl_bytes_per_flop"] = min(memory.get("hpl_bytes_per_flop", 0), 1e17 / flops)
        memory["io_copies"] = min(memory.get("io_copies", 0), 100)
    return doc


DOCUMENTS = {
    "io-forwarding": forwarding_documents(),
    "qos-staging": qos_documents(),
    "interference": interference_documents(),
}
