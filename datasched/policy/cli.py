"""``datasched schedulers``: list the registered policies and allocators with their parameters."""

from __future__ import annotations

import argparse
import json
from typing import Any

from datasched.policy.params import describe_params
from datasched.policy.registry import allocator_class, allocator_names, policy_class, policy_names


def catalogue() -> dict[str, list[dict[str, Any]]]:
    """Every policy and allocator with description and parameters (also used by --json)."""
    def entry(klass: type) -> dict[str, Any]:
        return {"name": klass.name, "description": klass.description, "module": klass.__module__,
                "parameters": describe_params(klass.Params)}

    return {
        "policies": [entry(policy_class(n)) for n in policy_names()],
        "allocators": [entry(allocator_class(n)) for n in allocator_names()],
    }


def _print_text(data: dict[str, list[dict[str, Any]]]) -> None:
    for title, key in (("Queue policies (--scheduler NAME)", "policies"), ("Allocation policies (option \"allocation\")", "allocators")):
        print(title)
        for item in data[key]:
            print(f"  {item['name']:<14} {item['description']}")
            for p in item["parameters"]:
                print(f"      {p['name']}: {p['type']} = {p['default']}  {p['description']}")
        print()


def run(args: argparse.Namespace) -> int:
    data = catalogue()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _print_text(data)
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("schedulers", help="list scheduling policies, allocators and their parameters")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)
