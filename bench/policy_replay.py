#!/usr/bin/env python3
"""Decision-process cost alone: feed a recorded run's requests to one of our policies.

A recording (``bench/decision_replay.py record``, or ``bench/scale record``) holds every
request the engine sent and the reply it got. This script hands the requests, in
order, to :class:`datasched.policy.session.ProtocolSession` (the in-process codec)
with a fresh policy, and compares each reply with the recorded one byte for byte. If
every reply matches, the policy made exactly the decisions of the recorded run (the
engine's later requests depend on them), so the figure is the decision side's cost
on that run with no engine and no socket: JSON decode, events, validating wrapper,
policy, JSON encode. Prints figures; asserts nothing about speed.

  bench/policy_replay.py -i rec.bin --policy easy [--options JSON] [--no-validate] [--profile out.prof]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from decision_replay import load

from datasched.policy.registry import create_policy
from datasched.policy.session import ProtocolSession
from datasched.policy.validating import ValidatingPolicy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-i", "--input", type=Path, required=True, help="recording (decision_replay.py format)")
    parser.add_argument("--policy", required=True)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--no-validate", action="store_true")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the replay here")
    args = parser.parse_args()
    pairs = load(args.input)
    policy = create_policy(args.policy, json.loads(args.options))
    if not args.no_validate:
        policy = ValidatingPolicy(policy)
    session = ProtocolSession(policy)
    rounds: list[float] = []
    mismatch = None
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    started = time.process_time()
    for index, (request, expected) in enumerate(pairs):
        t0 = time.perf_counter()
        reply = session.handle(request)
        rounds.append(time.perf_counter() - t0)
        if reply != expected and mismatch is None:
            mismatch = index
            print(f"reply #{index} differs:\n  got      {reply[:300]!r}\n  recorded {expected[:300]!r}")
    cpu = time.process_time() - started
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
    print(
        f"policy {args.policy}: {len(pairs)} rounds, decision CPU {cpu:.2f} s, "
        f"{cpu / len(pairs) * 1e6:.1f} us per round (median {statistics.median(rounds) * 1e6:.1f} us, "
        f"max {max(rounds) * 1e3:.1f} ms)"
    )
    if mismatch is None:
        print("every reply identical to the recording")
        return 0
    print(f"replies DIFFER from #{mismatch}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
