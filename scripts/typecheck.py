"""Type-check the ``datasched`` distribution (and the tests) with mypy.

Our top-level folders (``platforms/``, ``schedulers/`` ...) are the ``datasched.*``
subpackages through ``[tool.setuptools] package-dir`` in pyproject.toml; mypy has no
such mapping. This script lays the mapping out as a tree of symbolic links under
``build/typecheck/`` (rebuilt on every run, so new files are always seen), runs mypy
there with the settings of ``[tool.mypy]`` and prints every path as the file in the
repository. Usage: ``python scripts/typecheck.py [extra mypy arguments]``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TREE = REPO / "build" / "typecheck"
#: top-level packages checked besides the distribution (they import it as installed)
EXTRA_PACKAGES = ("tests",)


def package_dirs() -> dict[str, str]:
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["package-dir"]


def build_tree(mapping: dict[str, str]) -> dict[Path, Path]:
    """Creates the link tree; returns link folder -> repository folder (deepest first)."""
    shutil.rmtree(TREE, ignore_errors=True)
    folders: dict[Path, Path] = {}
    for package, folder in mapping.items():
        folders[TREE.joinpath(*package.split("."))] = REPO / folder
    for name in EXTRA_PACKAGES:
        folders[TREE / name] = REPO / name
    for link_dir, real_dir in folders.items():
        link_dir.mkdir(parents=True, exist_ok=True)
        for entry in sorted(real_dir.iterdir()):
            target = link_dir / entry.name
            if entry.name == "__pycache__" or target.exists():
                continue
            if entry.is_dir() and link_dir / entry.name in folders:
                continue  # a mapped subpackage of its own
            os.symlink(entry, target)
    return dict(sorted(folders.items(), key=lambda item: -len(item[0].parts)))


def main(argv: list[str]) -> int:
    folders = build_tree(package_dirs())
    packages = [arg for p in ["datasched", *EXTRA_PACKAGES] for arg in ("-p", p)]
    env = dict(os.environ, MYPYPATH=str(TREE))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"), *packages, *argv],
        cwd=TREE,
        env=env,
        capture_output=True,
        text=True,
    )
    out = proc.stdout + proc.stderr
    for link_dir, real_dir in folders.items():  # deepest first: datasched/policy before datasched
        out = out.replace(str(link_dir.relative_to(TREE)) + "/", str(real_dir.relative_to(REPO)) + "/")
    sys.stdout.write(out)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
