"""Issue 37, the positive side: a document generated from a scenario's model
(tests/integration/scenarios/strategies.py) is accepted by the engine's reader. The engine
reads it against a one-host platform: the reader accepts it when the run stops only later,
resolving it on the platform (the line names the platform file, engine_run.py). Examples per
scenario: 20, each one engine start."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from datasched.scenarios import validate_document
from tests.integration.scenarios.engine_run import error_line, passed_the_reader, read_by_engine
from tests.integration.scenarios.strategies import DOCUMENTS

pytestmark = pytest.mark.engine

EXAMPLES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _accepted_by_model_and_engine(name: str, doc: dict) -> None:
    validate_document(name, doc)  # the strategy's repairs must leave a document the model accepts
    with tempfile.TemporaryDirectory() as directory:
        proc = read_by_engine(Path(directory), name, doc)
    assert passed_the_reader(proc), f"the engine's reader refused a document its model accepts: {error_line(proc)}"


@EXAMPLES
@given(doc=DOCUMENTS["io-forwarding"])
def test_a_generated_io_forwarding_document_is_read_by_the_engine(doc):
    _accepted_by_model_and_engine("io-forwarding", doc)


@EXAMPLES
@given(doc=DOCUMENTS["qos-staging"])
def test_a_generated_qos_staging_document_is_read_by_the_engine(doc):
    _accepted_by_model_and_engine("qos-staging", doc)


@EXAMPLES
@given(doc=DOCUMENTS["interference"])
def test_a_generated_interference_document_is_read_by_the_engine(doc):
    _accepted_by_model_and_engine("interference", doc)
