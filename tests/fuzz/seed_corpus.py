"""Writes the seed corpora of the fuzz targets into ``tests/fuzz/corpus/<target>/``.

The seeds are the project's own inputs: the hostile-input corpus of issue 20 (its test
modules list every case as text) and small valid files from ``tests/data``,
``examples/``, ``config/`` and ``workflows/``. Run it again after adding hostile cases:
``.venv/bin/python -m tests.fuzz.seed_corpus`` (files are rewritten, stale ones removed).
Files larger than :data:`MAX_SEED_BYTES` are cut at a line end: the fuzzers mutate small
inputs faster, and what matters is the structure, not the length.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
MAX_SEED_BYTES = 8192

#: the numbers the engine's batsim_number target starts from (JSON number texts)
NUMBERS = (
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "1.5e3",
    "123456789012345678901234567890",
    "0.1",
    "1e308",
    "1.7976931348623157e308",
    "1e400",
    "4.9e-324",
    "2.2250738585072014e-308",
    "1e-400",
    "9007199254740993",
    "1844674407370955161",
    "1844674407370955162",
    "-922337203685477580",
    "-922337203685477581",
    "1234567890.123456789012",
    "0.000000000000000000000000001234",
    "1E+2",
    "12345678901234567.8",
    "99999999999999999999.99999999999",
)


def _cut(data: bytes) -> bytes:
    if len(data) <= MAX_SEED_BYTES:
        return data
    end = data.rfind(b"\n", 0, MAX_SEED_BYTES)
    return data[: end + 1 if end > 0 else MAX_SEED_BYTES]


def _bytes(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60]


def seeds() -> dict[str, list[tuple[str, bytes]]]:
    """target -> [(file name, content)]."""
    from tests.integration.hostile import test_decision_corpus, test_platform_corpus, test_workload_corpus
    from tests.unit.hostile import test_cli_corpus, test_swf_corpus

    out: dict[str, list[tuple[str, bytes]]] = {}

    def add(target: str, name: str, data: str | bytes) -> None:
        out.setdefault(target, []).append((_slug(name), _cut(_bytes(data))))

    def files(target: str, paths: Iterable[Path]) -> None:
        for path in paths:
            add(target, path.parent.name + "-" + path.name, path.read_bytes())

    # SWF: the hostile traces and the heads of the two real traces
    for case_id, text, _options, _fragments in test_swf_corpus.CASES:
        add("swf", "hostile-" + case_id, text)
    add("swf", "good", test_swf_corpus.GOOD)
    files("swf", sorted((REPO / "tests/data/traces").glob("*.swf")))

    # workload JSON (the Python reader and the engine's)
    workloads: list[tuple[str, str | bytes]] = [("hostile-" + c[0], c[1]) for c in test_workload_corpus.CASES]
    workloads += [(f"{p.parent.name}-{p.name}", p.read_bytes()) for p in sorted(REPO.glob("examples/*.json"))]
    workloads += [
        (f"{p.parent.name}-{p.name}", p.read_bytes())
        for p in sorted((REPO / "tests/data/conformance").glob("*/workload.json"))
    ]
    for name, text in workloads:
        add("workload_json", name, text)
        add("sim_workload", name, text)

    # phase profiles: every datasched_phases profile of the examples and of the hostile workloads
    for name, text in workloads:
        try:
            document = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            continue
        profiles = document.get("profiles") if isinstance(document, dict) else None
        for pname, profile in (profiles or {}).items() if isinstance(profiles, dict) else ():
            if isinstance(profile, dict) and profile.get("type") == "datasched_phases":
                add("sim_phase_profile", f"{name}-{pname}", json.dumps(profile, indent=1))

    # and generated applications of both Markov kinds (every storage allocation and access type)
    from datasched.workloads import markov

    for seed in range(1, 7):
        for kind in ("single", "multi"):
            extra = {"max_tasks": 16} if kind == "multi" else {}
            model = markov.generate_from_seed(markov.parse_params({"kind": kind, "seed": seed} | extra))
            document = markov.to_document(model, profile_mode="phases")
            for pname, profile in sorted(document["profiles"].items())[:2]:
                if profile.get("type") == "datasched_phases" and len(json.dumps(profile)) <= MAX_SEED_BYTES:
                    add("sim_phase_profile", f"markov-{kind}-{seed}-{pname}", json.dumps(profile, indent=1))

    # platform XML (the Python checks and the engine's pre-check)
    platforms: list[tuple[str, str | bytes]] = [("hostile-" + c[0], c[1]) for c in test_platform_corpus.CASES]
    small_xml = [p for p in sorted(REPO.glob("tests/data/*.xml")) if p.stat().st_size <= MAX_SEED_BYTES]
    small_xml += [REPO / "examples/demo_platform.xml", REPO / "platforms/catalog/small-test-san.xml"]
    platforms += [(f"{p.parent.name}-{p.name}", p.read_bytes()) for p in small_xml]
    for name, text in platforms:
        add("platform_xml", name, text)
        add("sim_platform_precheck", name, text)

    # CLI cases that give a file to one of the readers
    by_command: dict[tuple[str, ...], str] = {
        ("platform", "generate"): "platform_params",
        ("workload", "from-workflow"): "workflow",
        ("reproduce", "--configfile"): "sweep_config",
    }
    for case_id, argv, written, _fragments in test_cli_corpus.OTHER_CASES:
        target = by_command.get(tuple(argv[:2]))
        for file_name, text in written.items():
            if target:
                add(target, f"hostile-{case_id}-{file_name}", text)

    # platform parameters: the catalog's, as the YAML a user writes
    import yaml

    from datasched.platforms.catalog import catalog

    for name, params in sorted(catalog().items())[:12]:
        add("platform_params", "catalog-" + name, yaml.safe_dump(params.model_dump(mode="json"), sort_keys=False))
    files("workflow", [REPO / "workflows/nextgenio_table4.yaml"])
    for name, text in _small_workflows():
        add("workflow", name, text)
    files("sweep_config", sorted((REPO / "config").glob("*.yaml")))
    # one artifact at a time: each valid, and small enough to mutate fast
    quick = yaml.safe_load((REPO / "config/quick.yaml").read_text())
    for artifact in sorted(quick.get("artifacts", {})):
        one = dict(quick, artifacts={artifact: quick["artifacts"][artifact]})
        add("sweep_config", "quick-only-" + artifact, yaml.safe_dump(one, sort_keys=False))

    # decisions: the hostile replies, and well-formed ones of every common event type
    for case_id, text, _fragments in test_decision_corpus.CASES:
        add("sim_decisions", "hostile-" + case_id, text)
    for name, text in _good_replies():
        add("sim_decisions", name, text)

    # experiment files of the engine's three modes (issue 32): a valid one each, and each
    # out-of-range value of the regression tests
    from tests.integration.hostile import test_experiment_limits as limits

    experiment_targets = {
        "--io-forwarding": "sim_forwarding_experiment",
        "--qos-staging": "sim_qos_experiment",
        "--interference": "sim_interference_experiment",
    }
    for mode, target in experiment_targets.items():
        add(target, "valid.json", json.dumps(limits.DOCS[mode](), indent=1))
    memory = limits.interference_doc() | {"memory": limits.MEMORY}
    add("sim_interference_experiment", "valid-memory.json", json.dumps(memory, indent=1))
    for mode, field, value, _message in limits.CASES:
        doc = limits._set(limits.DOCS[mode](), field, value)
        add(experiment_targets[mode], f"limit-{field}-{value}.json", json.dumps(doc, indent=1))

    for number in NUMBERS:
        add("sim_batsim_number", "n-" + hashlib.sha1(number.encode()).hexdigest()[:8], number)
    return out


def _small_workflows() -> list[tuple[str, str]]:
    """Valid workflows under the Python fuzzers' 4 KB input limit: the unit tests' two-step
    example (YAML and JSON), Table 4 in flow style, each submission style of Table 4, and
    Table 4 cut to its first steps (dangling references: refused, also a good seed)."""
    import yaml

    from datasched.workflows.model import load_workflow, workflow_to_dict
    from datasched.workflows.submission import STYLES, apply_style
    from tests.unit.workflows.test_workflow_model import small

    flow = {"default_flow_style": True, "width": 10**6, "sort_keys": False}
    table4 = load_workflow(REPO / "workflows/nextgenio_table4.yaml")
    out = [("small.yaml", yaml.safe_dump(small(), sort_keys=False)), ("small.json", json.dumps(small()))]
    out.append(("table4-flow.yaml", yaml.safe_dump(workflow_to_dict(table4), **flow)))
    for style in STYLES:
        if style != "as-written":
            out.append((f"table4-{style}.yaml", yaml.safe_dump(workflow_to_dict(apply_style(table4, style)), **flow)))
    document = workflow_to_dict(table4)
    for count in (1, 3, 5):
        cut = dict(document, steps=document["steps"][:count])
        out.append((f"table4-first-{count}.yaml", yaml.safe_dump(cut, **flow)))
    return out


def _good_replies() -> list[tuple[str, str]]:
    def reply(*events: tuple[str, dict], now: float = 0) -> str:
        return json.dumps({"now": now, "events": [{"timestamp": now, "type": t, "data": d} for t, d in events]})

    return [
        ("good-empty", reply()),
        ("good-execute", reply(("EXECUTE_JOB", {"job_id": "w0!1", "alloc": "0-3 5"}))),
        (
            "good-execute-mapping",
            reply(("EXECUTE_JOB", {"job_id": "w0!1", "alloc": "0-1", "mapping": {"0": "0", "1": "1"}})),
        ),
        (
            "good-execute-storage",
            reply(
                (
                    "EXECUTE_JOB",
                    {"job_id": "w0!1", "alloc": "0", "datasched_storage": {"devices": [4, 5], "access": "affinity"}},
                )
            ),
        ),
        ("good-reject-kill", reply(("REJECT_JOB", {"job_id": "w0!2"}), ("KILL_JOB", {"job_ids": ["w0!1"]}))),
        ("good-call-me-later", reply(("CALL_ME_LATER", {"timestamp": 12.5}), now=1.25)),
        ("good-notify", reply(("NOTIFY", {"type": "registration_finished"}))),
        ("good-metadata", reply(("SET_JOB_METADATA", {"job_id": "w0!1", "metadata": "x"}))),
        ("good-change-state", reply(("CHANGE_JOB_STATE", {"job_id": "w0!1", "job_state": "COMPLETED_KILLED"}))),
        (
            "good-register",
            reply(
                (
                    "REGISTER_PROFILE",
                    {"workload_name": "dyn", "profile_name": "p", "profile": {"type": "delay", "delay": 1}},
                ),
                ("REGISTER_JOB", {"job_id": "dyn!1", "job": {"id": "dyn!1", "subtime": 0, "res": 1, "profile": "p"}}),
            ),
        ),
        ("good-set-resource-state", reply(("SET_RESOURCE_STATE", {"resources": "1 3-5", "state": "2"}))),
        ("good-query", reply(("QUERY", {"requests": {"consumed_energy": {}}}))),
    ]


def write(out: dict[str, list[tuple[str, bytes]]]) -> None:
    for target, entries in sorted(out.items()):
        folder = CORPUS / target
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for name, data in entries:
            (folder / name).write_bytes(data)
        print(f"{target}: {len(entries)} seed files, {sum(len(d) for _, d in entries)} bytes")


if __name__ == "__main__":
    write(seeds())
