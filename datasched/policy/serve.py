"""Decision process: run one of our policies behind pybatsim's protocol handling.

    python -m datasched.policy.serve --policy easy --options '{"allocation": "random"}' \\
        --socket tcp://*:28000 [--timeout MS] [--platform platform.xml] [--no-validate]

Connects exactly like ``pybatsim``: binds a ZeroMQ REP socket at ``--socket``; the
simulator (our engine or Batsim 4, ``-s tcp://localhost:PORT``) connects a REQ
socket to it. Exit status: 0 on a completed simulation, 2 on bad options (before
binding), 1 if the policy made an illegal decision or the simulator fell silent.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from datasched.errors import UserError, parse_json, read_utf8
from datasched.policy.heap import defer_collection


def parse_options(text: str | None, path: str | None) -> dict[str, Any]:
    if path is not None:
        try:
            text = read_utf8(path)
        except OSError as exc:
            raise UserError(f"{path}: cannot read options: {exc}") from None
        source = path
    else:
        source = "--options"
    if text is None or not text.strip():
        return {}
    try:
        options = parse_json(text, source)
    except json.JSONDecodeError as exc:
        raise UserError(f"{source}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(options, dict):
        raise UserError(f"{source}: options must be a JSON object")
    return options


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m datasched.policy.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--policy", required=True, help="registered policy name (see `datasched schedulers`)")
    parser.add_argument("--options", help="policy options as a JSON object")
    parser.add_argument("--options-file", help="file holding the policy options as a JSON object")
    parser.add_argument("--socket", default="tcp://*:28000", help="ZeroMQ endpoint to bind (default tcp://*:28000)")
    parser.add_argument(
        "--timeout",
        type=int,
        default=60_000,
        help="ms to wait for the simulator's next message once running; <=0 waits forever (default 60000)",
    )
    parser.add_argument("--platform", help="platform XML, to read cluster topology for locality-aware allocation")
    parser.add_argument("--no-validate", action="store_true", help="skip the validating wrapper")
    return parser


def main(argv: list[str] | None = None) -> int:
    defer_collection()  # until the policy has begun (datasched.policy.heap)
    args = build_parser().parse_args(argv)
    from datasched.policy.registry import create_policy

    try:
        options = parse_options(args.options, args.options_file)
        policy = create_policy(args.policy, options)
        if args.platform is not None and not Path(args.platform).is_file():
            raise UserError(f"{args.platform}: platform file not found")
    except UserError as exc:
        print(f"datasched: error: {exc}", file=sys.stderr)
        return 2

    from batsim.batsim import Batsim

    from datasched.policy.adapter import PybatsimAdapter
    from datasched.policy.validating import IllegalDecision, ValidatingPolicy

    if not args.no_validate:
        policy = ValidatingPolicy(policy)
    adapter = PybatsimAdapter(policy, platform_xml=args.platform, set_aside_heap=True)
    started = time.perf_counter()
    try:
        batsim = Batsim(adapter, args.socket, args.timeout if args.timeout > 0 else None)
        batsim.start()
    except (IllegalDecision, TimeoutError, UserError) as exc:
        print(f"datasched: error: {exc}", file=sys.stderr)
        return 1
    print(
        f"datasched policy {args.policy}: {adapter.decision_rounds} decision rounds, "
        f"{batsim.nb_jobs_submitted} jobs submitted, {batsim.nb_jobs_scheduled} started, "
        f"{batsim.nb_jobs_rejected} rejected, {time.perf_counter() - started:.2f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
