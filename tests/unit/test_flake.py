"""flake.nix cannot be evaluated here (no Nix store or binary cache), but it must parse,
and it must pin everything it fetches: these checks need no evaluation."""

import re
import shutil
import subprocess

import pytest

from tests.conftest import REPO

FLAKE = (REPO / "flake.nix").read_text()
BATSIM_HASH = "sha256-xecLKFRIpoI149Aj4wFKiW4p0ClzbQuCbzwFwon5igA="


@pytest.mark.skipif(shutil.which("nix-instantiate") is None, reason="nix-bin is not installed")
def test_flake_parses():
    r = subprocess.run(["nix-instantiate", "--parse", str(REPO / "flake.nix")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_input_is_pinned_to_a_revision():
    urls = re.findall(r'\burl\s*=\s*"([^"]+)"', FLAKE)
    inputs = [url for url in urls if not url.startswith("https://")]
    assert len(inputs) == 2, urls  # nixpkgs and nur-kapack
    for url in inputs:
        assert re.fullmatch(r"github:[\w.-]+/[\w.-]+/[0-9a-f]{40}", url), f"input not pinned to a commit: {url}"
    # Sources fetched by address (SimGrid's source distribution) carry their hash.
    for url in set(urls) - set(inputs):
        assert re.search(re.escape(url) + r'";\s*sha256 = "[0-9a-f]{64}";', FLAKE), f"source not pinned: {url}"


def test_batsim_is_4_2_1_from_its_source_with_the_known_hash():
    fetch = re.search(r"fetchFromGitHub\s*\{(.*?)\}", FLAKE, re.S)
    assert fetch is not None
    fields = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', fetch.group(1)))
    assert fields == {"owner": "oar-team", "repo": "batsim", "rev": "v4.2.1", "hash": BATSIM_HASH}
    assert 'version = "4.2.1"' in FLAKE


def test_no_placeholder_hash_and_no_floating_branch():
    assert "fakeHash" not in FLAKE and "fakeSha256" not in FLAKE and "lib.fake" not in FLAKE
    assert not re.search(r"/(master|main|nixos-unstable)\b", FLAKE)


def test_engine_package_and_checks_are_defined():
    for name in (
        "packages.${system}",
        "checks.${system}",
        "datasched-sim = pkgs.stdenv.mkDerivation",
        "batsim = pkgs.stdenv.mkDerivation",
        "python-tests",
        "ctest",
    ):
        assert name in FLAKE, name
    for dependency in (
        "simgridForBatsim",
        "boost",
        "rapidjson",
        "zeromq",
        "cppzmq",
        "pugixml",
        "docopt_cpp",
        "gmp",
        "intervalset",
        "redox",
        "meson",
    ):
        assert re.search(rf"\b{dependency}", FLAKE), dependency
