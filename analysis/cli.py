"""``datasched reproduce`` (the experiment pipeline, ``reproduce.py``), ``datasched explore``
(the HTML run explorer, ``explore.py``) and ``datasched links`` (a run's busiest links,
``link_load.py``)."""

from __future__ import annotations

from . import explore, link_load
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
    links = subparsers.add_parser("links", help="list a run's busiest links from its out_links.csv")
    link_load.add_arguments(links)
    links.set_defaults(func=link_load.run)
