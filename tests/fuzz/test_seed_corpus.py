"""The committed seed corpora are what ``tests/fuzz/seed_corpus.py`` writes from today's inputs.

The seeds come from the hostile-input corpus, the catalog, the configs and the examples; when
those change and the corpus is not written again, the fuzzers and their smoke tests start from
inputs the project no longer has (on 2026-11-27, 49 of them had drifted: catalog platforms,
configs, hostile cases removed since). Regenerate with ``.venv/bin/python -m tests.fuzz.seed_corpus``.
"""

from __future__ import annotations

from tests.fuzz.seed_corpus import CORPUS, seeds


def differences(expected: dict[str, list[tuple[str, bytes]]], root) -> list[str]:
    """Files missing, stale or different under ``root`` (one folder per target)."""
    found = []
    targets = set(expected) | {p.name for p in root.iterdir() if p.is_dir()}
    for target in sorted(targets):
        want = dict(expected.get(target, []))
        folder = root / target
        have = {p.name: p.read_bytes() for p in folder.iterdir()} if folder.is_dir() else {}
        found += [f"{target}/{name}: missing" for name in sorted(set(want) - set(have))]
        found += [f"{target}/{name}: stale" for name in sorted(set(have) - set(want))]
        found += [f"{target}/{name}: differs" for name in sorted(set(want) & set(have)) if want[name] != have[name]]
    return found


def test_the_committed_corpus_is_what_the_generator_writes():
    assert differences(seeds(), CORPUS) == [], "run: .venv/bin/python -m tests.fuzz.seed_corpus"


def test_a_drifted_corpus_is_reported(tmp_path):
    (tmp_path / "swf").mkdir()
    (tmp_path / "swf" / "kept").write_bytes(b"same")
    (tmp_path / "swf" / "changed").write_bytes(b"old")
    (tmp_path / "swf" / "removed-since").write_bytes(b"x")
    expected = {"swf": [("kept", b"same"), ("changed", b"new"), ("added", b"y")]}
    assert differences(expected, tmp_path) == ["swf/added: missing", "swf/removed-since: stale", "swf/changed: differs"]
