"""``datasched reproduce``: the experiment pipeline's sub-command (see ``reproduce.py``)."""

from __future__ import annotations

from .reproduce import add_arguments, run


def register(subparsers) -> None:
    parser = subparsers.add_parser("reproduce", help="regenerate the paper artifacts (Snakemake pipeline)")
    add_arguments(parser)
    parser.set_defaults(func=run)
