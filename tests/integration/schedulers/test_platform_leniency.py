"""Our policies read the platform file (link rates, topology coordinates) and must accept what
the engine and real Batsim accept: Batsim's own energy platform starts with a blank line before
its XML declaration, which a strict XML parser refuses ("XML or text declaration not at start of
entity"); SimGrid's parser does not. Both policy paths (in process and over the protocol) run it."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasched.cli import main

pytestmark = pytest.mark.engine

CASE = Path(__file__).resolve().parents[2] / "data" / "conformance" / "energy_easy"


@pytest.mark.parametrize("path", ["--in-process", "--protocol"])
@pytest.mark.parametrize("options", ["{}", '{"allocation": "topology"}'])
def test_a_platform_with_whitespace_before_its_declaration_runs(tmp_path, path, options):
    assert (CASE / "platform.xml").read_bytes().startswith(b"\n<?xml")  # the case keeps Batsim's file as it is
    out = tmp_path / "out"
    status = main(
        [
            "run",
            "--platform",
            str(CASE / "platform.xml"),
            "--workload",
            str(CASE / "workload.json"),
            "--scheduler",
            "easy",
            "--options",
            options,
            "--output",
            str(out),
            path,
        ]
    )
    assert status == 0
    rows = (out / "out_jobs.csv").read_text().splitlines()
    assert len(rows) == 1 + 100  # header + every job of the workload
