"""``datasched explore OUT_DIR [OUT_DIR2 ...]``: a self-contained HTML page of one run, or of
several side by side (e.g. two policies on one workload). Reading the runs:
:mod:`datasched.analysis.explore_data`; drawing them: :mod:`datasched.analysis.explore_page`."""

from __future__ import annotations

import argparse
from pathlib import Path

from datasched.errors import UserError

from .explore_data import load_run, run_labels
from .explore_page import write_page


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", metavar="OUT_DIR", help="output folder of a run (datasched run --output)")
    parser.add_argument(
        "-o",
        "--output",
        default=None,
        help="the HTML file to write (default: OUT_DIR/explorer.html for one run, explorer.html here for several)",
    )
    parser.add_argument("--title", default=None, help="the page's title (default: the runs' folder names)")
    parser.add_argument("--prefix", default="out", help="the runs' output prefix (default: out)")


def explore(
    folders: list[str], output: str | Path | None = None, title: str | None = None, prefix: str = "out"
) -> Path:
    """Writes the page of ``folders`` and returns its path."""
    if not folders:
        raise UserError("explore: give at least one run folder")
    labels = run_labels(folders)
    runs = [load_run(folder, label, prefix) for folder, label in zip(folders, labels, strict=True)]
    if output is None:
        output = Path(folders[0]) / "explorer.html" if len(folders) == 1 else Path("explorer.html")
    return write_page(runs, output, title)


def run(args: argparse.Namespace) -> int:
    path = explore(args.runs, args.output, args.title, args.prefix)
    size = path.stat().st_size / 1e6
    print(f"explorer page: {path} ({size:.1f} MB, opens offline)")
    return 0
