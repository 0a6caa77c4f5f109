"""The decision side's platform reader: leading whitespace accepted, one parse per file version."""

import os
import xml.etree.ElementTree as ET

from datasched.policy.platform_xml import platform_root


def zone_id(root: ET.Element) -> str | None:
    zone = root.find("zone")
    assert zone is not None
    return zone.get("id")


PLATFORM = '\n  <?xml version="1.0"?><platform version="4.1"><zone id="{zone}" routing="Full"/></platform>'


def test_leading_whitespace_is_accepted_as_simgrid_does(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(PLATFORM.format(zone="a"))
    assert zone_id(platform_root(path)) == "a"


def test_a_file_is_parsed_once_per_version(tmp_path):
    path = tmp_path / "p.xml"
    path.write_text(PLATFORM.format(zone="a"))
    first = platform_root(path)
    assert platform_root(path) is first  # both start-up readers share one parse
    # Rewritten (same size, later modification time): read again, not served stale.
    path.write_text(PLATFORM.format(zone="b"))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert zone_id(platform_root(path)) == "b"
