"""A broken engine source must fail ``make engine``, even when an old binary is present
(the Makefile once piped the build into ``grep ... || true`` and went on testing a stale
engine). Runs the real Makefile recipe on a broken copy of ``sim/`` in a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow

BROKEN = "#error deliberately broken by test_build_fails_loudly\n"


@pytest.mark.skipif(shutil.which("make") is None or shutil.which("cmake") is None, reason="needs make and cmake")
def test_make_engine_fails_on_a_compile_error_despite_an_old_binary(tmp_path):
    src = tmp_path / "sim"
    shutil.copytree(REPO / "sim", src, ignore=shutil.ignore_patterns("build*"))
    broken = 0
    for cpp in sorted(src.rglob("*.cpp")):  # every file: whichever ninja compiles first fails at once
        cpp.write_text(BROKEN + cpp.read_text())
        broken += 1
    assert broken > 10
    build = tmp_path / "build"
    build.mkdir()
    old = build / "datasched-sim"  # the stale binary a failed build used to leave in place
    old.write_text("#!/bin/sh\nexit 0\n")
    old.chmod(0o755)
    stamps = tmp_path / "stamps"
    stamps.mkdir()
    (stamps / "apt").touch()  # system packages are there already: no apt call from this test
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    proc = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(REPO),
            "engine",
            f"SIM_SRC={src}",
            f"BUILD={build}",
            f"STAMPS={stamps}",
            "JOBS=2",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output[-3000:]
    assert "deliberately broken" in output, output[-3000:]
