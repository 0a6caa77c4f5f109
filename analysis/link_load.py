"""``out_links.csv`` read and summarised: the busiest links of a run.

The engine writes the file when a run passes ``--link-load-window SECONDS`` (scheduling runs and
the three experiment modes; ``sim/src/export/links_csv.hpp``): one row per window and link that
carried bytes, measured from SimGrid's link usage. This module is its one reader, strict about
the file (every column present, every number a finite number: a bad cell is one error naming
the file, the line and the column), and turns it into what a user asks first: which links were
busiest over the run, how long they were busy, how loaded on average and at their peak.
``datasched links RUN_DIR`` prints the table; ``datasched explore`` shows it under the link load.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from datasched.errors import UserError, read_utf8

COLUMNS = ("window_start", "window_end", "link", "bytes", "busy_seconds", "utilisation")
NUMBER_COLUMNS = ("window_start", "window_end", "bytes", "busy_seconds", "utilisation")

#: Links listed by default (``datasched links --top``, the explorer's table).
DEFAULT_TOP = 10

#: What "busiest" ranks by (``datasched links --by``): bytes carried (the default, as the
#: explorer's figure), or mean or peak utilisation (a slow link that is often full ranks above a
#: fast one that carried more; a FATPIPE connector's bytes are its largest flow's, docs/outputs.md).
RANKINGS = ("bytes", "mean", "peak")


class LinkLoadError(UserError):
    """A damaged ``out_links.csv``: the CLI prints the one line and exits with status 1."""

    exit_status = 1


@dataclass(frozen=True)
class Window:
    """One row of the file."""

    start: float
    end: float
    link: str
    bytes: float
    busy_seconds: float
    utilisation: float


@dataclass(frozen=True)
class LinkSummary:
    """One link over the whole run. ``mean_utilisation`` averages the utilisation over every
    window of the run (from 0 to the last window's end; a window where the link carried nothing
    counts 0), so it equals bytes / (bandwidth × run length); ``peak_utilisation`` is the largest
    window's, starting at ``peak_window_start``."""

    link: str
    bytes: float
    busy_seconds: float
    mean_utilisation: float
    peak_utilisation: float
    peak_window_start: float


def read_windows(path: Path) -> list[Window]:
    """Every row of ``path``, checked. Errors name the file, the line (the header is line 1)
    and the column."""
    try:
        text = read_utf8(path)
    except OSError as exc:
        raise LinkLoadError(f"{path}: cannot read: {exc.strerror}") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    for column in COLUMNS:
        if column not in header:
            raise LinkLoadError(f"{path}:1: column {column!r} is missing (the header has {','.join(header)})")
    windows = []
    try:
        for row in reader:
            line = reader.line_num
            numbers = {}
            for column in NUMBER_COLUMNS:
                cell = row[column]
                try:
                    value = float(cell) if cell is not None else 0.0
                except ValueError:
                    value = math.nan
                if cell is None:
                    raise LinkLoadError(f"{path}:{line}: column {column!r}: no cell (the row is short)")
                if not math.isfinite(value):
                    raise LinkLoadError(f"{path}:{line}: column {column!r}: {cell!r} is not a finite number")
                numbers[column] = value
            if numbers["window_end"] <= numbers["window_start"]:
                raise LinkLoadError(f"{path}:{line}: column 'window_end': not after window_start")
            windows.append(
                Window(
                    numbers["window_start"],
                    numbers["window_end"],
                    row["link"] or "",
                    numbers["bytes"],
                    numbers["busy_seconds"],
                    numbers["utilisation"],
                )
            )
    except csv.Error as exc:
        raise LinkLoadError(f"{path}:{reader.line_num}: not a CSV file: {exc}") from None
    return windows


def summarise(windows: list[Window], top: int | None = DEFAULT_TOP, by: str = "bytes") -> list[LinkSummary]:
    """The ``top`` busiest links (every link when None), busiest first by ``by`` (one of
    :data:`RANKINGS`; ties by name)."""
    if not windows:
        return []
    width = windows[0].end - windows[0].start
    run_windows = max(1, round(max(w.end for w in windows) / width))
    links: dict[str, list[Window]] = {}
    for window in windows:
        links.setdefault(window.link, []).append(window)
    summaries = []
    for link, rows in links.items():
        peak = max(rows, key=lambda w: (w.utilisation, -w.start))
        summaries.append(
            LinkSummary(
                link=link,
                bytes=math.fsum(w.bytes for w in rows),
                busy_seconds=math.fsum(w.busy_seconds for w in rows),
                mean_utilisation=math.fsum(w.utilisation for w in rows) / run_windows,
                peak_utilisation=peak.utilisation,
                peak_window_start=peak.start,
            )
        )
    rank = {"bytes": lambda s: s.bytes, "mean": lambda s: s.mean_utilisation, "peak": lambda s: s.peak_utilisation}[by]
    summaries.sort(key=lambda s: (-rank(s), s.link))
    return summaries if top is None else summaries[:top]


def busiest_links(path: Path, top: int | None = DEFAULT_TOP, by: str = "bytes") -> list[LinkSummary]:
    return summarise(read_windows(path), top, by)


def format_table(summaries: list[LinkSummary]) -> str:
    """A plain-text table, one link a line (what ``datasched links`` prints)."""
    head = ("link", "GB", "busy s", "mean util %", "peak util %", "peak window at s")
    rows = [
        (
            s.link,
            f"{s.bytes / 1e9:.3f}",
            f"{s.busy_seconds:.3f}",
            f"{100 * s.mean_utilisation:.2f}",
            f"{100 * s.peak_utilisation:.2f}",
            f"{s.peak_window_start:g}",
        )
        for s in summaries
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in [head, *rows]
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN_DIR", help="output folder of a run made with --link-load-window")
    parser.add_argument("--top", type=_positive, default=DEFAULT_TOP, help=f"links listed (default: {DEFAULT_TOP})")
    parser.add_argument(
        "--by",
        choices=RANKINGS,
        default="bytes",
        help="rank by bytes carried (default), mean utilisation over the run, or peak utilisation of one window",
    )
    parser.add_argument("--prefix", default="out", help="the run's output prefix (default: out)")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1")
    return value


def run(args: argparse.Namespace) -> int:
    path = Path(args.run) / f"{args.prefix}_links.csv"
    if not path.is_file():
        raise LinkLoadError(
            f"{path}: no such file (the engine writes it with --link-load-window SECONDS; "
            "datasched run ... --engine-arg=--link-load-window=10)"
        )
    summaries = busiest_links(path, args.top, args.by)
    by = {"bytes": "bytes carried", "mean": "mean utilisation", "peak": "peak utilisation"}[args.by]
    print(f"busiest links of {path} (by {by}; utilisation = bytes / (bandwidth x window)):")
    print(format_table(summaries), end="")
    return 0
