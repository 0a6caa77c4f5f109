#!/usr/bin/env python3
"""End-to-end cost of our own policies, on delay_50k and on generated traces up to 10^6 jobs.

Prints figures; asserts nothing about speed (issue 19's targets are read off them).

  bench/scale.py delay50k [--policy easy] [--mode inprocess|protocol] [--repeat N] [--reference out_jobs.csv]
      `datasched run` on bench/data/delay_50k.json.gz + cluster512.xml: wall, CPU (user+sys of
      every process, from /usr/bin/time -v), peak RSS of the largest process, and whether
      out_jobs.csv is byte-identical to --reference (e.g. the same run with main's code).
  bench/scale.py sizes [--jobs 10000 100000 1000000] [--offered-load 0.85] [--seed 1]
      generates each workload with `datasched workload generate-large` (lublin_256.swf
      resampled for 1,024 nodes), runs `easy` in process on a 1,024-node copy of
      cluster512.xml, prints wall, CPU, peak RSS and jobs/s per size, and the exponents b
      of cost ~ jobs^b fitted (least squares, log-log) over the sizes.

The machine's load average is printed with every run: on a shared machine wall time
measures the neighbours as much as the code; CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = Path(os.environ.get("DATASCHED_BENCH_DATA", HERE / "data"))
DATASCHED = REPO / ".venv" / "bin" / "datasched"
LUBLIN = REPO / "tests" / "data" / "traces" / "lublin_256.swf"


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def timed(command: list[str], cwd: Path) -> dict[str, float]:
    """Runs ``command`` under GNU time; wall, CPU (children included) and peak RSS."""
    report = cwd / "time.txt"
    done = subprocess.run(
        ["/usr/bin/time", "-v", "-o", str(report), *command], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr.decode(errors='replace')[-3000:]}")
    text = report.read_text()

    def field(name: str) -> str:
        match = re.search(rf"{re.escape(name)}: (.*)", text)
        assert match, name
        return match.group(1).strip()

    parts = [float(p) for p in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
    wall = sum(p * 60**i for i, p in enumerate(reversed(parts)))
    return {
        "wall": wall,
        "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
        "rss_mb": float(field("Maximum resident set size (kbytes)")) / 1024,
    }


def run_command(platform: Path, workload: Path, policy: str, output: Path, mode: str) -> list[str]:
    command = [str(DATASCHED), "run", "--platform", str(platform), "--workload", str(workload)]
    command += ["--scheduler", policy, "--output", str(output)]
    # protocol: the decision process over the socket (`--protocol`, the default before issue 33);
    # inprocess: `--in-process`; default: no flag (in process for our policies since issue 33)
    return command + {"inprocess": ["--in-process"], "protocol": ["--protocol"], "default": []}[mode]


def cluster(nodes: int, path: Path) -> Path:
    """bench/data/cluster512.xml with ``nodes`` compute hosts (same links and speeds)."""
    tree = ET.parse(DATA / "cluster512.xml")
    for element in tree.iter("cluster"):
        if element.get("id") == "my_cluster_1":
            element.set("radical", f"0-{nodes - 1}")
    # SimGrid's parser needs the DOCTYPE line, which ElementTree does not keep
    body = ET.tostring(tree.getroot(), encoding="unicode")
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n' + body + "\n"
    )
    return path


def delay50k(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        workload = work / "delay_50k.json"
        with gzip.open(DATA / "delay_50k.json.gz", "rb") as src, workload.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        for attempt in range(args.repeat):
            output = work / f"out{attempt}"
            load = load_average()
            figures = timed(run_command(DATA / "cluster512.xml", workload, args.policy, output, args.mode), work)
            same = ""
            if args.reference:
                same = (
                    "identical"
                    if (output / "out_jobs.csv").read_bytes() == args.reference.read_bytes()
                    else "DIFFERENT"
                )
                same = f", out_jobs.csv {same} to the reference"
            print(
                f"delay_50k {args.policy} {args.mode}: wall {figures['wall']:.1f} s, CPU {figures['cpu']:.1f} s, "
                f"peak RSS {figures['rss_mb']:.0f} MB{same} (load average before: {load})",
                flush=True,
            )


def fit_exponent(sizes: list[int], costs: list[float]) -> float:
    xs, ys = [math.log(s) for s in sizes], [math.log(c) for c in costs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def sizes(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        platform = cluster(1024, work / "cluster1024.xml")
        rows = []
        for jobs in args.jobs:
            workload = work / f"resampled_{jobs}.json"
            subprocess.run(
                [
                    str(DATASCHED),
                    "workload",
                    "generate-large",
                    "--source",
                    str(LUBLIN),
                    "-o",
                    str(workload),
                    "--seed",
                    str(args.seed),
                    "--jobs",
                    str(jobs),
                    "--platform-nodes",
                    "1024",
                    "--offered-load",
                    str(args.offered_load),
                ],
                check=True,
            )
            load = load_average()
            figures = timed(run_command(platform, workload, "easy", work / f"out{jobs}", "inprocess"), work)
            rows.append((jobs, figures))
            print(
                f"{jobs:>9} jobs: wall {figures['wall']:8.1f} s, CPU {figures['cpu']:8.1f} s, "
                f"peak RSS {figures['rss_mb']:6.0f} MB, {jobs / figures['wall']:8.0f} jobs/s wall, "
                f"{jobs / figures['cpu']:8.0f} jobs/s CPU (load average before: {load})",
                flush=True,
            )
            workload.unlink()
            shutil.rmtree(work / f"out{jobs}")
        if len(rows) > 1:
            counts = [r[0] for r in rows]
            print(
                f"fitted exponent (cost ~ jobs^b): wall b = {fit_exponent(counts, [r[1]['wall'] for r in rows]):.3f}, "
                f"CPU b = {fit_exponent(counts, [r[1]['cpu'] for r in rows]):.3f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("delay50k")
    d.add_argument("--policy", default="easy")
    d.add_argument("--mode", choices=("inprocess", "protocol", "default"), default="inprocess")
    d.add_argument("--repeat", type=int, default=1)
    d.add_argument("--reference", type=Path)
    s = sub.add_parser("sizes")
    s.add_argument("--jobs", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    s.add_argument("--offered-load", type=float, default=0.85)
    s.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not DATASCHED.is_file():
        print(f"{DATASCHED} is missing: run `make venv`", file=sys.stderr)
        return 2
    (delay50k if args.command == "delay50k" else sizes)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
