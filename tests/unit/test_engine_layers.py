"""The engine's folders are layers (sim/README.md, "Structure"): every ``#include "..."`` of
``sim/src`` names a header of the same folder or of a lower layer. The layer table is read
from the README itself, so the drawing a newcomer reads is the one the code obeys."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "sim" / "src"
TOP = "(top)"


def layer_table(readme: str) -> dict[str, int]:
    """Folder -> layer from the README's ``| folder | layer |`` table."""
    table: dict[str, int] = {}
    for folder, layer in re.findall(r"^\| `?([\w()]+)`? \| (\d+) \|$", readme, flags=re.M):
        table[folder] = int(layer)
    return table


def folder_of(path: str) -> str:
    return path.split("/", 1)[0] if "/" in path else TOP


def include_edges(src: Path) -> list[tuple[str, str, str]]:
    """(file, its folder, included folder) for every quoted include across folders."""
    edges = []
    for file in sorted(src.rglob("*.[ch]pp")):
        relative = file.relative_to(src).as_posix()
        here = folder_of(relative)
        for line in file.read_text().splitlines():
            match = re.match(r'#include "([^"]+)"', line)
            if match and folder_of(match.group(1)) != here:
                edges.append((relative, here, folder_of(match.group(1))))
    return edges


def violations(table: dict[str, int], edges: list[tuple[str, str, str]]) -> list[str]:
    return [
        f"{file} ({here}, layer {table[here]}) includes {there} (layer {table[there]})"
        for file, here, there in edges
        if table[there] >= table[here]
    ]


def test_every_folder_of_the_engine_is_in_the_readme_table():
    table = layer_table((REPO / "sim" / "README.md").read_text())
    folders = {p.name for p in SRC.iterdir() if p.is_dir()} | {TOP}
    assert folders == set(table)


def test_every_include_runs_down_a_layer():
    table = layer_table((REPO / "sim" / "README.md").read_text())
    edges = include_edges(SRC)
    assert edges, "no include across folders found: the parser is broken"
    assert violations(table, edges) == []


@pytest.mark.parametrize(
    ("edge", "expected"),
    [
        (("model/job.cpp", "model", "common"), []),
        (("common/csv.cpp", "common", "model"), ["common/csv.cpp (common, layer 0) includes model (layer 1)"]),
        (("qos/flows.cpp", "qos", "forwarding"), ["qos/flows.cpp (qos, layer 2) includes forwarding (layer 2)"]),
    ],
)
def test_an_include_up_or_sideways_is_reported(edge, expected):
    """The check itself: an include into the same layer (a sibling) or a higher one is a
    violation; one into a lower layer is not."""
    table = {"common": 0, "model": 1, "qos": 2, "forwarding": 2}
    assert violations(table, [edge]) == expected
