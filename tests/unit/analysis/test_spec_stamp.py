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
