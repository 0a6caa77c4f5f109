#!/usr/bin/env python3
"""The runner's CPU for an engine's stderr: line by line (our engine's path, which parses
progress lines) against straight to the file (real Batsim's path since issue 33).

  bench/runner_stderr.py [--megabytes 74]

A stand-in engine (`cat` of a Batsim-like log: lines such as
``[node_0:server:(1) 1234.567890] [batsim/INFO] Job 'w0!4711' COMPLETED_SUCCESSFULLY ...``)
writes the given number of MB to stderr, as real Batsim 4.2.1 does on delay_50k (74 MB);
the runner's own CPU (user + sys of this process, its threads included) is measured around
``datasched.runner._start_engine`` for each path, and the log files are compared.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
from pathlib import Path

from datasched.runner import _start_engine


def runner_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def fake_log(path: Path, megabytes: float) -> None:
    line_number = 0
    with open(path, "w") as out:
        while out.tell() < megabytes * 1e6:
            line_number += 1
            out.write(
                f"[node_{line_number % 512}:server:({line_number % 7}) {line_number * 0.731:.6f}] [batsim/INFO] "
                f"Job 'w0!{line_number}' COMPLETED_SUCCESSFULLY on machines "
                f"{line_number % 500}-{line_number % 500 + 3}\n"
            )


def measure(log: Path, work: Path, progress_lines: bool) -> float:
    target = work / ("lines.log" if progress_lines else "direct.log")
    before = runner_cpu()
    proc, reader = _start_engine(["sh", "-c", f"cat '{log}' >&2"], work, target, None, progress_lines=progress_lines)
    proc.wait()
    reader.join()
    spent = runner_cpu() - before
    assert target.read_bytes() == log.read_bytes(), "the log copy differs"
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=74.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        log = work / "batsim-like.log"
        fake_log(log, args.megabytes)
        for progress_lines in (True, False):
            spent = measure(log, work, progress_lines)
            how = "line by line (progress parsing)" if progress_lines else "straight to the file"
            print(f"{args.megabytes:.0f} MB of engine stderr, {how}: runner CPU {spent:.2f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
