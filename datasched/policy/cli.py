"""``datasched schedulers``: list the registered policies, allocators and storage policies with their parameters."""

from __future__ import annotations

import argparse
import json
from typing import Any

from datasched.policy.allocation import Allocator
from datasched.policy.base import Policy
from datasched.policy.params import describe_params
from datasched.policy.registry import (
    allocator_class,
    allocator_names,
    policy_class,
    policy_names,
    storage_class,
    storage_names,
)
from datasched.policy.storage import StorageAssigner


def catalogue() -> dict[str, list[dict[str, Any]]]:
    """Every policy, allocator and storage policy with description and parameters (also used by --json)."""

    def entry(klass: type[Policy] | type[Allocator] | type[StorageAssigner]) -> dict[str, Any]:
        return {
            "name": klass.name,
            "description": klass.description,
            "module": klass.__module__,
            "parameters": describe_params(klass.Params),
        }

    return {
        "policies": [entry(policy_class(n)) for n in policy_names()],
        "allocators": [entry(allocator_class(n)) for n in allocator_names()],
        "storage": [entry(storage_class(n)) for n in storage_names()],
    }


def _print_text(data: dict[str, list[dict[str, Any]]]) -> None:
    for title, key in (
        ("Queue policies (--scheduler NAME)", "policies"),
        ("Allocation policies (option \"allocation\")", "allocators"),
        ("Storage-assignment policies (option \"storage\", datasched_phases jobs)", "storage"),
    ):
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
    _register_cpsat(subparsers)


def run_cpsat_plan(args: argparse.Namespace) -> int:
    from datasched.errors import UserError
    from datasched.optimum.schedule import SolveOptions, instance_from_workload, solve
    from datasched.policy.params import parse_params

    if args.hosts < 1:
        raise UserError(f"--hosts: must be at least 1, got {args.hosts}")
    if args.max_jobs is not None and args.max_jobs < 1:  # 0 jobs would read as "no schedule found"
        raise UserError(f"--max-jobs: must be at least 1, got {args.max_jobs}")
    options = parse_params(
        SolveOptions,
        {
            "objective": args.objective,
            "time_limit_s": args.time_limit,
            "workers": args.workers,
            "seed": args.seed,
            "host_model": args.host_model,
            "branching_share": args.branching_share,
            "mip_share": args.mip_share,
            "active_share": args.active_share,
        },
        "cpsat-plan",
    )
    plan = solve(instance_from_workload(args.workload, args.hosts, max_jobs=args.max_jobs), options)
    if not plan.starts:
        raise UserError(f"{args.workload}: CP-SAT found no schedule within {args.time_limit} s (status {plan.status})")
    plan.write(args.output)
    print(f"{plan.certificate()} -> {args.output}")
    return 0


def _register_cpsat(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "cpsat-plan",
        help="solve a small delay-profile workload optimally (CP-SAT) and write a plan for the replay policy",
    )
    parser.add_argument("--workload", required=True, help="Batsim workload JSON (delay profiles)")
    parser.add_argument("--hosts", type=int, required=True, help="number of compute hosts")
    parser.add_argument(
        "--objective", default="makespan", choices=["makespan", "total_waiting", "total_weighted_completion"]
    )
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds (default 10)")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT workers (1 = deterministic)")
    parser.add_argument("--seed", type=int, default=0, help="CP-SAT random seed, 0 to 2**31 - 1")
    parser.add_argument("--host-model", default="cumulative", choices=["cumulative", "explicit"])
    parser.add_argument(
        "--branching-share",
        type=float,
        default=0.0,
        help="share of the time limit for branching on the time-indexed model when CP-SAT has not proven "
        "optimality (total waiting, weighted completion; default 0: CP-SAT alone, as branching does not pay yet)",
    )
    parser.add_argument(
        "--mip-share",
        type=float,
        default=0.5,
        help="share of the time limit for the time-indexed MIP (HiGHS inside OR-Tools) when CP-SAT has not proven "
        "optimality and the active-schedule search does not run (CP-SAT keeps the other workers; 0: off)",
    )
    parser.add_argument(
        "--active-share",
        type=float,
        default=0.75,
        help="share of the time limit for the active-schedule branch-and-bound when CP-SAT has not proven "
        "optimality (total waiting, weighted completion with positive weights; CP-SAT keeps the other workers; "
        "0: off, the MIP runs instead)",
    )
    parser.add_argument("--max-jobs", type=int, default=None, help="only the first N jobs")
    parser.add_argument("--output", required=True, help="plan JSON to write")
    parser.set_defaults(func=run_cpsat_plan)
