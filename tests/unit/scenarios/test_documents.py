"""The scenario models (datasched.scenarios) accept every experiment document the repository
documents and every one the seed artifacts write, unchanged byte for byte; they refuse what
the engine refuses, each refusal one line naming the field."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from datasched.analysis.experiment_config import load_config_file
from datasched.scenarios import SCENARIOS, ScenarioDocumentError, build_document, validate_document
from tests.unit.scenarios.documents import REPO, cross_field_cases, example_documents, full_documents

DOCUMENTS = example_documents() + full_documents()


def _engine_bytes(doc: dict[str, Any]) -> str:
    """What datasched.engine.run_experiment_mode writes as ``<prefix>_experiment.json``."""
    return json.dumps(doc, indent=1, sort_keys=True)


@pytest.mark.parametrize(("name", "where", "doc"), DOCUMENTS, ids=[f"{d[0]}:{d[1]}" for d in DOCUMENTS])
def test_every_documented_document_validates_and_builds_to_the_same_bytes(name, where, doc):
    assert _engine_bytes(build_document(name, doc)) == _engine_bytes(doc)


def test_the_fuzz_corpus_limit_documents_are_refused_naming_their_field():
    """tests/fuzz/corpus/*/limit-<field>-<value>.json: the engine's out-of-range seeds."""
    corpora = {"sim_forwarding_experiment": "io-forwarding", "sim_qos_experiment": "qos-staging"}
    corpora["sim_interference_experiment"] = "interference"
    seen = 0
    for corpus, name in corpora.items():
        for path in sorted((REPO / "tests" / "fuzz" / "corpus" / corpus).glob("limit-*.json")):
            field = path.stem.split("-")[1]  # "applications.0.processes"
            engine_path = ".".join(f"[{k}]" if k.isdigit() else k for k in field.split(".")).replace(".[", "[")
            with pytest.raises(ScenarioDocumentError, match=f"^{name} experiment: {_re(engine_path)}: "):
                validate_document(name, json.loads(path.read_text()))
            seen += 1
    assert seen >= 7


def _re(text: str) -> str:
    return re.escape(text)


def _raw(monkeypatch, module) -> None:
    """Makes ``module``'s writers skip the model: what they wrote before it existed."""
    monkeypatch.setattr(module, "build_document", lambda name, doc: doc)


@pytest.mark.parametrize("variant", ["quick", "full"])
def test_the_seed_artifacts_documents_validate_and_are_byte_identical(variant, monkeypatch):
    """Every experiment document of the quick and full variants of seeds 002-004, built
    through its model, is the JSON the writer built without it (so every artifact's engine
    input, <prefix>_experiment.json, is unchanged)."""
    from datasched.analysis.seed002 import runs as runs002
    from datasched.analysis.seed003 import runs as runs003
    from datasched.analysis.seed004 import runs as runs004

    exp = load_config_file(REPO / "config" / f"{variant}.yaml")
    s2, s3, s4 = exp.seed002_twins, exp.seed003_qos, exp.seed004_interference
    assert s2 and s3 and s4

    def documents() -> list[str]:
        docs = [
            runs002.case_experiment(case, s2, configuration, seed)
            for case in s2.cases()
            for configuration in s2.configurations
            for seed in s2.seeds
        ]
        docs += [
            runs003.experiment(bench, noise, case.granularity, s3)
            for case in s3.cases()
            for noise, _, bench in runs003.case_runs(s3, case)
        ]
        docs += [runs004.experiment(run, s4) for case in s4.cases() for run in case.runs(s4)]
        return [_engine_bytes(doc) for doc in docs]

    built = documents()
    for module in (runs002, runs003, runs004):
        _raw(monkeypatch, module)
    raw = documents()
    assert len(built) == len(raw) > 100
    assert built == raw


def test_a_writer_mistake_is_one_line_naming_the_field():
    from datasched.analysis.seed002.runs import paper_experiment

    with pytest.raises(ScenarioDocumentError) as caught:
        paper_experiment(scheduler="twins", pattern="shared_strided", operation="read", request_size=32768, seed=-1)
    assert str(caught.value) == "io-forwarding experiment: seed: Input should be greater than or equal to 0, got -1"


def test_integers_stay_integers_and_floats_floats():
    """1 and 1.0 are both numbers to the engine, but json.dumps writes them differently: a
    number field keeps what the writer gave."""
    doc = json.loads((REPO / "examples" / "interference.json").read_text())
    doc["daemon_costs"]["flops_per_request"] = 160000
    doc["daemon_costs"]["idle_period"] = 1.0
    costs = build_document("interference", doc)["daemon_costs"]
    assert type(costs["flops_per_request"]) is int and type(costs["idle_period"]) is float


CROSS = cross_field_cases()


@pytest.mark.parametrize(("name", "label", "doc", "words", "field"), CROSS, ids=[f"{c[0]}:{c[1]}" for c in CROSS])
def test_the_cross_field_rules_of_the_engine_are_the_models(name, label, doc, words, field):
    """Each is a check of the C++ reader over several fields; the engine's side is
    tests/integration/scenarios/test_schema_negatives.py."""
    with pytest.raises(ScenarioDocumentError, match=_re(words)) as refused:
        validate_document(name, doc)
    assert "\n" not in str(refused.value)


def test_null_is_refused_and_strict_types_are_the_engines():
    """null is no value of any engine field (leave the key out); the engine reads 1.0 as no
    integer and true as no number."""
    doc = json.loads((REPO / "examples" / "interference.json").read_text())
    for change, words in [
        (lambda d: d.update(memory=None), "memory: null is not a value of any field"),
        (lambda d: d["hpl"].update(iterations=10.0), "hpl.iterations: Input should be a valid integer, got 10.0"),
        (
            lambda d: d["hpl"].update(flops_per_iteration=True),
            "hpl.flops_per_iteration: Input should be a valid number",
        ),
        (lambda d: d["hpl"].update(iterations="10"), "hpl.iterations: Input should be a valid integer, got '10'"),
    ]:
        bad = json.loads(json.dumps(doc))
        change(bad)
        with pytest.raises(ScenarioDocumentError, match=_re(words)):
            validate_document("interference", bad)


def test_the_output_files_are_each_scenarios_csv_names():
    assert [p.name for p in SCENARIOS["qos-staging"].output_files("out/r")] == [
        "r_benchmark.csv",
        "r_transfers.csv",
        "r_writes.csv",
        "r_staging.csv",
        "r_summary.csv",
    ]
    assert SCENARIOS["io-forwarding"].option == "--io-forwarding"
