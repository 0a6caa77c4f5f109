"""The engine's stand-alone experiment scenarios (``datasched-sim --io-forwarding``,
``--qos-staging``, ``--interference``; sim/src/scenarios/), one pydantic model each: the one
statement of what a scenario's experiment document may hold (issue 37). The models mirror the
engine's C++ readers (ranges, required and optional fields, defaults, enumerations, the
cross-field rules); the JSON Schemas exported from them are committed as
``sim/schemas/<scenario>.schema.json`` (``python -m datasched.scenarios --write-schemas``).

The Python writers (analysis/seed00{2,3,4}/runs.py) build their documents through
:func:`build_document`, and :func:`datasched.engine.run_experiment_mode` validates every
document before the engine runs, so a writer's mistake is one line naming the field. Each
scenario's output files (``<prefix>_<name>.csv``) are listed here, once on the Python side."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from datasched.errors import UserError
from datasched.scenarios import interference, io_forwarding, qos_staging
from datasched.scenarios.fields import ScenarioModel


@dataclass(frozen=True)
class Scenario:
    """One engine scenario: its name (the engine's option without ``--``), the model of its
    experiment document, and the names of the CSV files it may write."""

    name: str
    model: type[ScenarioModel]
    outputs: tuple[str, ...]

    @property
    def option(self) -> str:
        """The engine's command-line option: ``--io-forwarding``."""
        return f"--{self.name}"

    def output_files(self, prefix: Path | str) -> list[Path]:
        """Every file the scenario may write under ``prefix``: ``<prefix>_<name>.csv``."""
        return [Path(f"{prefix}_{name}.csv") for name in self.outputs]


#: The scenarios, as the engine's table (sim/src/scenarios/registry.cpp) names them.
SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("io-forwarding", io_forwarding.IoForwardingExperiment, io_forwarding.OUTPUTS),
        Scenario("qos-staging", qos_staging.QosStagingExperiment, qos_staging.OUTPUTS),
        Scenario("interference", interference.InterferenceExperiment, interference.OUTPUTS),
    )
}


class ScenarioDocumentError(UserError, ValueError):
    """An experiment document its scenario's model refuses: one line naming the scenario,
    the field's JSON path (``applications[0].processes``) and the problem."""


def scenario(name: str) -> Scenario:
    """The scenario called ``name`` (UserError listing the names otherwise)."""
    try:
        return SCENARIOS[name]
    except KeyError:
        raise UserError(f"unknown scenario '{name}' (known: {', '.join(SCENARIOS)})") from None


def field_path(location: tuple[int | str, ...]) -> str:
    """A pydantic error location as the engine names the field: ``applications[0].name``."""
    out = ""
    for key in location:
        if isinstance(key, int):
            out += f"[{key}]"
        elif out:
            out += f".{key}"
        else:
            out = key
    return out


def _one_line(name: str, error: ValidationError) -> str:
    first = error.errors()[0]
    location = tuple(
        key
        for i, key in enumerate(first["loc"])
        # a union member's name (e.g. "latency", "list[int]") is no field: drop what is not a key
        if not (isinstance(key, str) and i > 0 and _is_tag(key))
    )
    path = field_path(location)
    message = first["msg"].removeprefix("Value error, ")
    # A rule of a model names its key first ("bytes_per_process: must be ..."): one path.
    if path and (named := _NAMED.match(message)):
        path, message = f"{path}.{named.group(1)}", message[named.end() :]
    where = f"{path}: " if path else ""
    value = first.get("input")
    # A rule of ours (value_error) says what it got; a rule over several fields names them.
    got = "" if first["type"] == "value_error" or isinstance(value, dict | list) else f", got {value!r}"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{name} experiment: {where}{message}{got}{more}"


_NAMED = re.compile(r"([a-z_][a-z_0-9]*(?:\[[0-9]+\])?(?:\.[a-z_][a-z_0-9]*(?:\[[0-9]+\])?)*): ")


def _is_tag(key: str) -> bool:
    return key in _UNION_TAGS or key.startswith(("list[", "literal[", "function-"))


#: Member names pydantic puts in an error location inside a discriminated union
#: (``benchmark.latency.sizes``): the benchmark kinds.
_UNION_TAGS = set(qos_staging.BENCHMARK_KINDS)


def validate_document(name: str, doc: Any) -> ScenarioModel:
    """The model of ``doc`` as scenario ``name``'s experiment, or ScenarioDocumentError (one
    line naming the field) when the engine would refuse it."""
    s = scenario(name)
    try:
        return s.model.model_validate(doc)
    except ValidationError as error:
        raise ScenarioDocumentError(_one_line(name, error)) from None


def build_document(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` built through scenario ``name``'s model: validated (ScenarioDocumentError
    naming the field), then dumped with only the fields the writer set, so the JSON the
    engine receives is byte for byte what the writer wrote (defaults are the engine's own,
    integers stay integers: a Python dump, as pydantic's JSON dump writes a number field's
    ``1`` as ``1.0``; every value is a JSON type already)."""
    return validate_document(name, doc).model_dump(exclude_unset=True)
