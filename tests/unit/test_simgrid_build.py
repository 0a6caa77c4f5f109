"""The engine's SimGrid build (simgrid/): one pinned source, the same in the Debian set-up
and the Nix flake, and every patch documented. Building and the patches' behaviour are
tested by the set-up itself and by sim/tests/test_simgrid_patches.cpp."""

import re

from tests.conftest import REPO

BUILD = (REPO / "simgrid" / "build.sh").read_text()
FLAKE = (REPO / "flake.nix").read_text()
README = (REPO / "simgrid" / "README.md").read_text()
PATCHES = sorted((REPO / "simgrid" / "patches").glob("*.patch"))


def shell_constant(name: str) -> str:
    match = re.search(rf'^readonly {name}="?([^"\n]+)"?$', BUILD, re.MULTILINE)
    assert match, name
    return match.group(1)


def test_the_source_is_pinned_by_version_url_and_hash():
    version, url, sha = shell_constant("VERSION"), shell_constant("URL"), shell_constant("SHA256")
    assert version == "3.32"
    assert url.startswith("https://files.pythonhosted.org/") and url.endswith("simgrid-${VERSION}.tar.gz")
    assert re.fullmatch(r"[0-9a-f]{64}", sha)


def test_the_flake_builds_the_same_source():
    url = shell_constant("URL").replace("${VERSION}", shell_constant("VERSION"))
    assert f'url = "{url}";' in FLAKE
    assert f'sha256 = "{shell_constant("SHA256")}";' in FLAKE
    assert "./simgrid/patches" in FLAKE


def test_every_patch_is_a_documented_commit():
    assert len(PATCHES) >= 3
    for patch in PATCHES:
        text = patch.read_text()
        assert re.search(r"^Subject: \[PATCH [0-9/]+\] \S", text, re.MULTILINE), patch.name
        message = text.split("\n---\n", 1)[0]
        assert len(message.splitlines()) > 8, f"{patch.name}: the message must say why"
        assert f"`{patch.name}`" in README, f"{patch.name} is not described in simgrid/README.md"
