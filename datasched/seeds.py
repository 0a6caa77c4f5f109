"""The one range of every seed a command or parameter file takes: an integer from 0 to
2**63 - 1, the engine's own (``kMaxSeed`` in sim/src/model/input_limits.hpp). numpy's
SeedSequence refuses a negative seed with a bare ``ValueError`` (a traceback through
``datasched workload markov --seed -1``), and Python's ``random`` takes any integer:
checking once here gives every command the same one-line answer."""

from __future__ import annotations

import argparse

SEED_MAX = 2**63 - 1


def seed_argument(text: str) -> int:
    """argparse ``type=`` of a ``--seed`` option: argparse reports the error on one line
    naming the option and the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 2**63 - 1, got {text!r}") from None
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"must be from 0 to 2**63 - 1, got {value}")
    return value
