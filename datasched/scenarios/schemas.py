"""The JSON Schemas of the scenario documents, exported from the models and committed as
``sim/schemas/<scenario>.schema.json``, so that tools outside Python (editors, the C++
reader's tests, a reader of the repository) see the same statement. The export is
deterministic (sorted keys, two-space indent, one trailing newline); a test compares the
committed files with it, so they cannot drift from the models.

What a JSON Schema cannot say stays in the models only: the cross-field rules (e.g.
``bytes_per_process`` a multiple of ``request_size``, a stencil grid whose product is the
number of hosts) and the grammar of the arbitration strings of ``--qos-staging``."""

from __future__ import annotations

import json
from pathlib import Path

from datasched.scenarios import SCENARIOS
from datasched.scenarios.fields import EngineJsonSchema

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "sim" / "schemas"
#: The JSON Schema dialect pydantic writes.
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_path(name: str) -> Path:
    return SCHEMA_DIR / f"{name}.schema.json"


def export(name: str) -> str:
    """Scenario ``name``'s JSON Schema as the committed file's text."""
    schema = SCENARIOS[name].model.model_json_schema(schema_generator=EngineJsonSchema)
    schema = {"$schema": DIALECT, "$id": f"sim/schemas/{name}.schema.json"} | schema
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas() -> list[Path]:
    """Writes every scenario's schema file; returns their paths."""
    SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in SCENARIOS:
        path = schema_path(name)
        path.write_text(export(name), encoding="utf-8")
        paths.append(path)
    return paths


def stale_schemas() -> list[Path]:
    """The committed schema files that differ from the export (or are missing)."""
    return [
        schema_path(name)
        for name in SCENARIOS
        if not schema_path(name).is_file() or schema_path(name).read_text(encoding="utf-8") != export(name)
    ]
