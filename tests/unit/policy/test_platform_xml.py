"""The decision side's platform reader: leading whitespace accepted, one parse per file
version, only the elements the decision side reads (links and clusters) built, the whole
file still checked as XML."""

import os
import xml.etree.ElementTree as ET

import pytest

from datasched.policy.platform_xml import platform_root


def link_id(root: ET.Element) -> str | None:
    link = root.find("link")
    assert link is not None
    return link.get("id")


PLATFORM = (
    '\n  <?xml version="1.0"?><platform version="4.1"><zone id="z" routing="Full">'
    '<link id="{link}" bandwidth="1GBps"/></zone></platform>'
)


def test_leading_whitespace_is_accepted_as_simgrid_does(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(PLATFORM.format(link="a"))
    assert link_id(platform_root(path)) == "a"


def test_a_file_is_parsed_once_per_version(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(PLATFORM.format(link="a"))
    first = platform_root(path)
    assert platform_root(path) is first  # both start-up readers share one parse
    # Rewritten (same size, later modification time): read again, not served stale.
    path.write_text(PLATFORM.format(link="b"))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert link_id(platform_root(path)) == "b"


def test_only_links_and_clusters_are_kept_in_file_order_with_their_attributes(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(
        '<?xml version="1.0"?><platform version="4.1"><zone id="z" routing="Full">'
        '<host id="h1" speed="1Gf"><prop id="k" value="v"/></host><host id="h2" speed="1Gf"/>'
        '<link id="l1" bandwidth="1GBps" latency="1us"/>'
        '<cluster id="c" prefix="n" radical="0-3" suffix="" speed="1Gf" bw="2GBps" lat="0"/>'
        '<link id="l2" bandwidth="3GBps"/>'
        '<route src="h1" dst="h2"><link_ctn id="l1"/></route></zone></platform>'
    )
    root = platform_root(path)
    assert [(e.tag, e.get("id")) for e in root] == [("link", "l1"), ("cluster", "c"), ("link", "l2")]
    assert root[0].get("latency") == "1us" and root[1].get("bw") == "2GBps"
    assert [e.tag for e in root.iter("cluster")] == ["cluster"]


def test_a_malformed_file_is_refused_even_past_the_kept_elements(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text('<platform version="4.1"><link id="l" bandwidth="1GBps"/><route src="a"></platform>')
    with pytest.raises(ET.ParseError):
        platform_root(path)
