"""The committed JSON Schemas (sim/schemas/<scenario>.schema.json) are the models' export: a
model changed without regenerating them (``python -m datasched.scenarios --write-schemas``)
fails here."""

from __future__ import annotations

import json

import pytest

from datasched.scenarios import SCENARIOS
from datasched.scenarios import schemas as schema_files
from datasched.scenarios.__main__ import main


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_committed_schema_is_the_models_export(name):
    committed = schema_files.schema_path(name).read_text(encoding="utf-8")
    assert committed == schema_files.export(name)
    assert committed.endswith("}\n") and json.loads(committed)["$id"] == f"sim/schemas/{name}.schema.json"


def test_the_export_is_deterministic_and_sorted():
    text = schema_files.export("qos-staging")
    assert text == schema_files.export("qos-staging")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_check_names_a_stale_schema_and_write_schemas_repairs_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(schema_files, "SCHEMA_DIR", tmp_path)
    assert main(["--write-schemas"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{n}.schema.json" for n in SCENARIOS)
    assert main(["--check"]) == 0
    stale = tmp_path / "interference.schema.json"
    stale.write_text(stale.read_text().replace('"minimum": 1', '"minimum": 2', 1))
    assert main(["--check"]) == 1
    assert "interference.schema.json: differs from the models" in capsys.readouterr().err
    main(["--write-schemas"])
    assert main(["--check"]) == 0


def test_the_schema_states_the_engine_ranges_and_forbids_unknown_keys():
    """A few fields read against the C++ reader: clients.nodes is IntegerRange{1, kMaxCount};
    arbitration.mtu NumberRange{0 exclusive, 65536}; no object takes unknown keys; null is no
    value of an optional section."""
    forwarding = json.loads(schema_files.export("io-forwarding"))
    nodes = forwarding["$defs"]["Clients"]["properties"]["nodes"]
    assert (nodes["type"], nodes["minimum"], nodes["maximum"]) == ("integer", 1, 1_000_000)
    assert "nodes" in forwarding["$defs"]["Clients"]["required"]
    assert forwarding["properties"]["forwarding"] == {
        "$ref": "#/$defs/Forwarding",
        "description": 'required iff mode is "forwarded", forbidden if "direct"',
    }
    qos = json.loads(schema_files.export("qos-staging"))
    mtu = qos["$defs"]["Arbitration"]["properties"]["mtu"]
    assert (mtu["type"], mtu["exclusiveMinimum"], mtu["maximum"], mtu["default"]) == ("number", 0, 65536, 2048)
    for schema in (forwarding, qos, json.loads(schema_files.export("interference"))):
        objects = [schema, *schema["$defs"].values()]
        assert all(o.get("additionalProperties") is False for o in objects if o.get("type") == "object")
        assert "null" not in json.dumps(schema)
