"""No user value is narrowed unchecked in the engine's sources (issue 32).

``static_cast<int>(f.integer(...))`` ran 2^32 + 8 processes as 8 and 2^31 iterations as
-2147483648 with exit 0. The experiment readers now read every integer as 64 bits and check
its range before narrowing (sim/src/model/json_fields.hpp); this test keeps the pattern from
coming back anywhere under sim/src: a cast whose operand reads a JSON value (``.integer(``,
``.number(``, ``.get<``, ``std::stoi``...) and a narrowing ``.get<int>()`` are refused unless
the line says, in a ``// checked: ...`` comment, where the range was checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parents[2] / "sim" / "src"

#: A cast applied to an expression that reads a user value.
CAST_OF_READ = re.compile(
    r"static_cast<[^>]+>\s*\([^;]*?(\.integer\(|\.number\(|\.get<|\bstoi\(|\bstoll?\(|\bstoull?\()"
)
#: nlohmann's get<T>() with T narrower than 64 bits: it converts with a C++ cast (wraps).
NARROW_GET = re.compile(
    r"\.get<\s*(?:int|unsigned(?:\s+int)?|short|float|std::u?int(?:8|16|32)_t|u?int(?:8|16|32)_t)\s*>\s*\("
)
CHECKED = "// checked:"


def unchecked_narrowings(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every cast of a read value or narrowing get without a
    ``// checked:`` comment."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("//", 1)[0] if CHECKED not in line else ""
        if CAST_OF_READ.search(code) or NARROW_GET.search(code):
            found.append((number, line.strip()))
    return found


@pytest.mark.parametrize(
    "line",
    [
        'app.processes = static_cast<int>(f.integer("processes", 0, 1, true));',
        'hpl.iterations = static_cast<int>(f.integer("iterations", 1, 1, true));',
        "b.grid.push_back(static_cast<int>(d.get<long long>()));",
        'job->requested_resources = object.at("res").get<int>();',
        "const int vl = static_cast<int>(std::stoi(item));",
    ],
)
def test_the_checker_finds_the_old_pattern(line):
    """The lines issue 32 found (and variants) are flagged; a ``// checked:`` comment is what
    lets a reviewed one through."""
    assert unchecked_narrowings(line) == [(1, line)]
    assert unchecked_narrowings(line + " // checked: 1 to 1000 above") == []


@pytest.mark.parametrize(
    "line",
    [
        'app.processes = f.integer("processes", 0, IntegerRange<int>{1, limits::kMaxCount}, true);',
        "const auto u = v.get<unsigned long long>();",
        "return static_cast<int>(kinds.size());",
        "double x = v.get<double>();",
    ],
)
def test_the_checker_lets_checked_reads_through(line):
    assert unchecked_narrowings(line) == []


def test_no_engine_source_narrows_a_user_value_unchecked():
    files = sorted(p for p in SOURCES.rglob("*") if p.suffix in (".cpp", ".hpp"))
    assert len(files) > 50, f"engine sources not found under {SOURCES}"
    offences = [
        f"{path.relative_to(SOURCES.parent.parent)}:{number}: {line}"
        for path in files
        for number, line in unchecked_narrowings(path.read_text(encoding="utf-8"))
    ]
    assert not offences, "unchecked narrowing of a user value (use Fields::integer with a range):\n" + "\n".join(
        offences
    )
