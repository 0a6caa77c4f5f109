"""``datasched reproduce`` (the experiment pipeline, ``reproduce.py``) and ``datasched explore``
(the HTML run explorer, ``explore.py``)."""

from __future__ import annotations

from . import explore
from .reproduce import add_arguments, run


def register(subparsers) -> None:
    parser = subparsers.add_parser("reproduce", help="regenerate the paper artifacts (Snakemake pipeline)")
    add_arguments(parser)
    parser.set_defaults(func=run)
    viewer = subparsers.add_parser(
        "explore", help="write a self-contained HTML page of one run, or of several side by side"
    )
    explore.add_arguments(viewer)
    viewer.set_defaults(func=explore.run)
