"""Issue 37: one schema per scenario, shared by the C++ reader's tests. The committed JSON
Schema of each scenario (sim/schemas/) drives the negative cases: for every field of a
document giving every field (tests/unit/scenarios/documents.py), each value the schema forbids,
each required field removed and an unknown key in each object must be refused by BOTH the
model (one line naming the field) and the engine (exit 1, one line naming the file and the
field). A check the C++ reader has and the schema lacks, or the other way round, fails here."""

from __future__ import annotations

import json

import pytest

from datasched.scenarios import ScenarioDocumentError, validate_document
from datasched.scenarios.schemas import schema_path
from tests.integration.scenarios.engine_run import error_line, read_by_engine
from tests.integration.scenarios.negatives import negative_cases
from tests.unit.scenarios.documents import cross_field_cases, full_documents

pytestmark = pytest.mark.engine

CASES = [
    (name, doc, field, f"{name}:{label}:{case}")
    for name, label, full in full_documents()
    for doc, field, case in negative_cases(json.loads(schema_path(name).read_text()), full)
    # the qos-staging documents differ only in their benchmark: its other fields once
    if label in ("full", "full-latency") or field.startswith("benchmark")
]


def test_every_field_of_every_schema_has_negative_cases():
    """The full documents reach every property of every object of each schema."""
    assert len(CASES) > 600, len(CASES)
    for name in ("io-forwarding", "qos-staging", "interference"):
        schema = json.loads(schema_path(name).read_text())
        named = {field for n, _, field, _ in CASES if n == name}
        for definition in [schema, *schema["$defs"].values()]:
            for key in definition.get("properties", {}):
                assert any(f == key or f.endswith(f".{key}") for f in named), (name, key)


@pytest.mark.parametrize(("name", "doc", "field", "case"), CASES, ids=[c[3] for c in CASES])
def test_a_value_the_schema_forbids_is_refused_by_the_model_and_the_engine(tmp_path, name, doc, field, case):
    with pytest.raises(ScenarioDocumentError) as refused:
        validate_document(name, doc)
    assert "\n" not in str(refused.value)
    line = error_line(read_by_engine(tmp_path, name, doc))
    assert f"exp.json: {field}" in line, line


CROSS = cross_field_cases()


@pytest.mark.parametrize(("name", "label", "doc", "words", "field"), CROSS, ids=[f"{c[0]}:{c[1]}" for c in CROSS])
def test_a_rule_over_several_fields_is_refused_by_the_model_and_the_engine(tmp_path, name, label, doc, words, field):
    """The rules a JSON Schema cannot state (tests/unit/scenarios/documents.py, CROSS_FIELD):
    the model's line is checked in tests/unit/scenarios/test_documents.py; here the engine's."""
    with pytest.raises(ScenarioDocumentError):
        validate_document(name, doc)
    line = error_line(read_by_engine(tmp_path, name, doc))
    assert f"exp.json: {field}: " in line, line
