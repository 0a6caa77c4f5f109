"""flake.nix cannot be evaluated here (no binary cache), but it must parse."""

import shutil
import subprocess

import pytest

from tests.conftest import REPO


@pytest.mark.skipif(shutil.which("nix-instantiate") is None, reason="nix-bin is not installed")
def test_flake_parses():
    r = subprocess.run(["nix-instantiate", "--parse", str(REPO / "flake.nix")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
