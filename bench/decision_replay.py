#!/usr/bin/env python3
"""Record a decision process's replies once, then replay them to the engine.

Why: one engine_throughput run spends most of its wall time in pybatsim (~28 s CPU).
To profile and iterate on the engine alone, ``record`` sits between the engine and a
real decision process (a REP socket for the engine, a REQ socket to the decision
process) and stores every (request, reply) pair in order; ``replay`` then answers the
engine's n-th request with the n-th recorded reply. Because the engine is
deterministic, a replay run is the same simulation, and ``replay`` also compares
every request with the recorded one byte for byte: any difference means the engine's
protocol output changed (the first differing request is reported and the exit status
is 1).

Recording format: a sequence of frames ``<u32 request length><u32 reply length>``
followed by the two byte strings (little endian).

  decision_replay.py record --bind tcp://127.0.0.1:PORT --upstream tcp://127.0.0.1:PORT2 -o rec.bin
  decision_replay.py replay --bind tcp://127.0.0.1:PORT -i rec.bin
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

import zmq

HEADER = struct.Struct("<II")


def record(bind: str, upstream: str, output: Path) -> int:
    """Forwards every engine request to `upstream` and stores the pairs until SIMULATION_ENDS is answered."""
    context = zmq.Context()
    engine_side = context.socket(zmq.REP)
    engine_side.bind(bind)
    scheduler_side = context.socket(zmq.REQ)
    scheduler_side.connect(upstream)
    count = 0
    with output.open("wb") as out:
        while True:
            request = engine_side.recv()
            scheduler_side.send(request)
            reply = scheduler_side.recv()
            out.write(HEADER.pack(len(request), len(reply)))
            out.write(request)
            out.write(reply)
            engine_side.send(reply)
            count += 1
            if b'"SIMULATION_ENDS"' in request:
                break
    print(f"recorded {count} exchanges into {output}")
    return 0


def load(path: Path) -> list[tuple[bytes, bytes]]:
    data = path.read_bytes()
    pairs, offset = [], 0
    while offset < len(data):
        req_len, rep_len = HEADER.unpack_from(data, offset)
        offset += HEADER.size
        request = data[offset : offset + req_len]
        offset += req_len
        reply = data[offset : offset + rep_len]
        offset += rep_len
        pairs.append((request, reply))
    return pairs


def replay(bind: str, recording: Path) -> int:
    """Answers each request with the recorded reply of the same rank; checks the requests."""
    pairs = load(recording)
    context = zmq.Context()
    socket = context.socket(zmq.REP)
    socket.bind(bind)
    first_mismatch = None
    for index, (expected, reply) in enumerate(pairs):
        request = socket.recv()
        if request != expected and first_mismatch is None:
            first_mismatch = index
            at = next(
                (i for i, (a, b) in enumerate(zip(request, expected, strict=False)) if a != b),
                min(len(request), len(expected)),
            )
            print(f"request #{index} differs from the recording at byte {at}:", file=sys.stderr)
            print(f"  got      {request[max(0, at - 80) : at + 80]!r}", file=sys.stderr)
            print(f"  recorded {expected[max(0, at - 80) : at + 80]!r}", file=sys.stderr)
        socket.send(reply)
    if first_mismatch is not None:
        print(f"replayed {len(pairs)} exchanges; requests DIFFER from #{first_mismatch}")
        return 1
    print(f"replayed {len(pairs)} exchanges; every request identical to the recording")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--bind", required=True, help="endpoint the engine connects to")
    rec.add_argument("--upstream", required=True, help="endpoint of the real decision process")
    rec.add_argument("-o", "--output", type=Path, required=True)
    rep = sub.add_parser("replay")
    rep.add_argument("--bind", required=True, help="endpoint the engine connects to")
    rep.add_argument("-i", "--input", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.bind, args.upstream, args.output)
    return replay(args.bind, args.input)


if __name__ == "__main__":
    sys.exit(main())
