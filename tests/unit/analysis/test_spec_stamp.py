"""analysis/spec_stamp.py: the stamp changes exactly when the section does."""

import dataclasses
import os
from pathlib import Path

from datasched.analysis.spec_stamp import canonical, write_spec_stamp


@dataclasses.dataclass(frozen=True)
class Section:
    costs: tuple[float, ...]
    platform: Path


def test_an_unchanged_section_leaves_the_stamp_and_its_time_alone(tmp_path):
    stamp = tmp_path / "specs" / "s.json"
    write_spec_stamp(stamp, Section((1.0, 10.0), Path("p.xml")))
    os.utime(stamp, (1_000_000, 1_000_000))
    write_spec_stamp(stamp, Section((1.0, 10.0), Path("p.xml")))
    assert stamp.stat().st_mtime == 1_000_000


def test_a_changed_value_rewrites_the_stamp(tmp_path):
    stamp = tmp_path / "s.json"
    write_spec_stamp(stamp, Section((1.0, 10.0), Path("p.xml")))
    os.utime(stamp, (1_000_000, 1_000_000))
    write_spec_stamp(stamp, Section((1.0, 10.0, 100.0), Path("p.xml")))
    assert stamp.stat().st_mtime > 1_000_000
    assert "100.0" in stamp.read_text()
    assert not list(tmp_path.glob("*.partial"))


def test_canonical_form_is_sorted_json_with_paths_as_text_and_none_for_an_absent_section():
    assert canonical(Section((1.0,), Path("a/p.xml"))) == '{\n "costs": [\n  1.0\n ],\n "platform": "a/p.xml"\n}\n'
    assert canonical(None) == "null\n"


@dataclasses.dataclass(frozen=True)
class Grown:
    """A section that grew an optional field after summaries were committed under its digest."""

    costs: tuple[float, ...]
    extra: tuple[float, ...] | None = None
    STAMP_OMITTED_AT_DEFAULT = ("extra",)


def test_a_field_added_later_is_left_out_while_at_its_default():
    """Unset, the grown section stamps as it did before it grew (its committed summaries stay
    current); set, the field is in the stamp like any other."""
    assert canonical(Grown((1.0,))) == '{\n "costs": [\n  1.0\n ]\n}\n'
    assert '"extra": [\n  2.0\n ]' in canonical(Grown((1.0,), (2.0,)))
