"""The `datasched` command line.

Each domain package owns its sub-commands: it exposes ``register(subparsers)`` in a
``cli`` module, which adds its parsers and sets ``func`` on them. This file only
lists those modules, so adding a command never means editing another domain's code.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys

from datasched import __version__
from datasched.errors import ERROR_PREFIX, USER_ERROR_STATUS, UserError

#: Modules that contribute sub-commands, in the order they appear in ``--help``.
COMMAND_MODULES = (
    "datasched.run_cli",
    "datasched.platforms.cli",
    "datasched.workloads.cli",
    "datasched.policy.cli",
    "datasched.analysis.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="datasched",
        description="Data-aware HPC job scheduling research framework.",
    )
    parser.add_argument("--version", action="version", version=f"datasched {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
                continue  # that domain has no commands yet
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # the command as typed, recorded with a run's outputs (``out_run.json``; datasched explore shows it)
    args.invocation = shlex.join(["datasched", *(sys.argv[1:] if argv is None else argv)])
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"{ERROR_PREFIX}{exc}", file=sys.stderr)
        return getattr(exc, "exit_status", USER_ERROR_STATUS)
    except OSError as exc:
        # An output path that cannot be written, a file where a folder is expected...:
        # one line naming the path, not a traceback.
        print(f"{ERROR_PREFIX}{os_error_text(exc)}", file=sys.stderr)
        return USER_ERROR_STATUS


def os_error_text(exc: OSError) -> str:
    """``path: reason`` for an OSError (both paths for a rename)."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    names = f"{exc.filename}" + (f" -> {exc.filename2}" if exc.filename2 is not None else "")
    return f"{names}: {reason}"


if __name__ == "__main__":
    sys.exit(main())
