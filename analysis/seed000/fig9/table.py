"""Figure 9 step 2, the table: per (topology, series, servers, staging) the mean total time over
the seeds with its 95 % interval, and the plotted CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.csv_rows import write_rows
from datasched.analysis.seed000.fig9.spec import SERIES, Fig9Run, Fig9Spec
from datasched.analysis.seed000.multi_application import (
    SUMMARY_COLUMNS,
    seed_summary,
)

COLUMNS = (
    "topology",
    "series",
    "staging",
    "servers",
    *SUMMARY_COLUMNS,
)


def table_rows(spec: Fig9Spec, results: Mapping[Fig9Run, tuple[float, float]]) -> list[dict[str, Any]]:
    rows = []
    for topology in spec.topologies:
        for series in SERIES:
            for staging in spec.stagings(series):
                for n in spec.servers:
                    values = [results[Fig9Run(topology, series, n, s, staging)] for s in spec.seeds]
                    rows.append(
                        {
                            "topology": topology,
                            "series": series,
                            "staging": "none" if series == "SAN" else staging,
                            "servers": n,
                            **seed_summary(values),
                        }
                    )
    return rows


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    return write_rows(rows, COLUMNS, path)
