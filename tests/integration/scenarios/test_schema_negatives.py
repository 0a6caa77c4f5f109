"""Issue 37: one schema per scenario, shared by the C++ reader's tests. The committed JSON
Schema of each scenario (sim/schemas/) drives the negative cases: for every field of a
document giving every field (tests/unit/scenarios/documents.py), each value the schema forbids,
each required field removed and an unknown key in each object must be refused by BOTH the
model (one line naming the field) and the engine (exit 1, one line naming the file and the
field); and each number at an end of its range must be accepted by both. A check the C++
reader has and the schema lacks, or the other way round, fails here."""

from __future__ import annotations

import json

import pytest

from datasched.scenarios import ScenarioDocumentError, validate_document
from datasched.scenarios.schemas import schema_path
from tests.integration.scenarios.engine_run import error_line, passed_the_reader, read_by_engine
from tests.integration.scenarios.negatives import boundary_cases, negative_cases
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


BOUNDARIES = [
    (name, doc, field, f"{name}:{label}:{case}")
    for name, label, full in full_documents()
    for doc, field, case in boundary_cases(json.loads(schema_path(name).read_text()), full)
    if label in ("full", "full-latency") or field.startswith("benchmark")
]


def _model_accepts(name: str, doc: dict) -> bool:
    try:
        validate_document(name, doc)
    except ScenarioDocumentError:
        return False
    return True


def test_most_range_ends_are_not_hidden_by_a_rule_over_several_fields():
    """A range end the model refuses through another rule (e.g. 10^6 processes on 4 slots)
    tests nothing below: most must be free of that."""
    accepted = sum(_model_accepts(name, doc) for name, doc, _, _ in BOUNDARIES)
    assert accepted > 0.8 * len(BOUNDARIES) > 150, (accepted, len(BOUNDARIES))


@pytest.mark.parametrize(("name", "doc", "field", "case"), BOUNDARIES, ids=[c[3] for c in BOUNDARIES])
def test_a_range_end_the_schema_allows_is_read_by_the_engine(tmp_path, name, doc, field, case):
    """--allow-long-run: the run-cost estimate is no field's range (the engine warns, and the
    one-host platform stops the run before it starts)."""
    if not _model_accepts(name, doc):
        pytest.skip("refused by a rule over several fields")
    proc = read_by_engine(tmp_path, name, doc, "--allow-long-run")
    assert passed_the_reader(proc), proc.stderr
