"""The field types every scenario model is built from, each stating the range the engine's
reader checks (sim/src/model/json_fields.hpp, sim/src/model/input_limits.hpp), so that a
model and the C++ reader accept the same documents.

The engine reads JSON types strictly: an integer field refuses ``1.0``, ``true`` and
``"1"``; a number field takes an integer or a float, never a boolean, and must be finite;
``null`` is no value of any field (a field is given or left out). The types below are
therefore strict, and :class:`ScenarioModel` refuses ``null`` everywhere. A number field
keeps an integer an integer (``160000`` stays ``160000``, not ``160000.0``), so a document
built through a model is written with the bytes it had before the models existed."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, WrapValidator, model_validator
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

#: Counts of things simulated one by one (processes, nodes, servers, worker threads):
#: limits::kMaxCount.
MAX_COUNT = 1_000_000
#: Repetitions of one simulated step (iterations, messages of a window): limits::kMaxRepetitions.
MAX_REPETITIONS = 1_000_000_000
#: Byte sizes given as integers, and seeds: limits::kMaxBytes = limits::kMaxSeed = 2^63 - 1.
MAX_BYTES = 2**63 - 1
#: Simulated durations and dates, seconds: limits::kMaxSeconds.
MAX_SECONDS = 1e12
#: Amounts given as numbers (flops, bytes of a message or a phase): limits::kMaxAmount.
MAX_AMOUNT = 1e18


def keep_integer(value: Any, handler: core_schema.ValidatorFunctionWrapHandler) -> Any:
    """Checks ``value`` as a number, and gives back an integer unchanged (pydantic would make
    it a float, and ``json.dumps`` would then write ``1.0`` where the writer wrote ``1``)."""
    checked = handler(value)
    return value if type(value) is int else checked


#: A finite JSON number (integer or float, not a boolean): the engine's ``Fields::number``.
#: Each field states its range with ``Field(ge=/gt=, le=)``, as the C++ reader's NumberRange.
Number = Annotated[float, Field(strict=True, allow_inf_nan=False), WrapValidator(keep_integer)]
#: A JSON integer (not ``1.0``, not a boolean): the engine's ``Fields::integer``; each field
#: states its range with ``Field(ge=, le=)``, as the C++ reader's IntegerRange.
Integer = Annotated[int, Field(strict=True)]
#: A non-empty string (application and transfer names, host names).
NonEmpty = Annotated[str, StringConstraints(strict=True, min_length=1)]
#: true or false.
Boolean = Annotated[bool, Field(strict=True)]
#: The seed field every scenario has: any non-negative 64-bit integer (limits::kMaxSeed).
Seed = Annotated[int, Field(strict=True, ge=0, le=MAX_BYTES)]


class ScenarioModel(BaseModel):
    """One JSON object of an experiment document: unknown keys are errors (the engine's
    ``Fields::finish``), every value has the type the engine reads, and ``null`` is refused
    (the engine has no null value: leave the key out for the default)."""

    model_config = ConfigDict(extra="forbid", strict=True, validate_assignment=True)

    @model_validator(mode="before")
    @classmethod
    def _refuse_null(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key, value in data.items():
                if value is None:
                    raise ValueError(f"{key}: null is not a value of any field (leave the key out for its default)")
        return data


class EngineJsonSchema(GenerateJsonSchema):
    """JSON Schema as the engine reads documents: an optional section (``X | None = None`` in
    a model, for "absent") is just ``X`` (no ``null``), with no ``default: null``."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        value = super().default_schema(schema)
        if value.get("default", ...) is None:
            del value["default"]
        return value
