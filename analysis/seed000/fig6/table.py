"""Figure 6 step 2, the table: one row per run (run time per storage, share and access pattern),
the plotted CSV, and a lookup the claims and the report read it through."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from datasched.analysis.seed000.fig6.spec import Fig6Run

COLUMNS = ("storage", "mem_hit_pct", "remote_pct", "access", "runtime_s", "routing")


def table_rows(results: Mapping[Fig6Run, float], routing: str = "minimal") -> list[dict[str, Any]]:
    """One row per run, in a stable order; ``routing`` names the platform's (a plotted CSV then
    says which routing its numbers came from, also when a report is rebuilt from it)."""
    order = {name: i for i, name in enumerate(sorted({r.storage for r in results}, key=storage_order_key))}
    rows = [
        {
            "storage": r.storage,
            "mem_hit_pct": r.mem,
            "remote_pct": r.remote,
            "access": r.access,
            "runtime_s": t,
            "routing": routing,
        }
        for r, t in results.items()
    ]
    return sorted(rows, key=lambda x: (order[x["storage"]], x["access"], x["mem_hit_pct"], x["remote_pct"]))


def storage_order_key(name: str) -> tuple[int, int]:
    """STG-k by k, then CACHE, then SAN: the order of the table's rows and the figure's lines."""
    if name.startswith("stg-"):
        return (0, int(name.removeprefix("stg-")))
    return (1, 0) if name == "cache" else (2, 0)


def write_table(rows: Sequence[Mapping[str, Any]], path: Path) -> Path:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "runtime_s": f"{row['runtime_s']:.6f}"})
    return path


class Lookup:
    """runtime(storage, mem, remote, access) over the table rows."""

    def __init__(self, rows: Iterable[Mapping[str, Any]]):
        self._t = {(r["storage"], r["mem_hit_pct"], r["remote_pct"], r["access"]): r["runtime_s"] for r in rows}
        self.storages = sorted({k[0] for k in self._t}, key=storage_order_key)
        self.mem_levels = sorted({k[1] for k in self._t if k[2] == 50.0})
        self.remote_levels = sorted({k[2] for k in self._t if k[1] == 50.0})

    def __call__(self, storage: str, mem: float, remote: float, access: str = "D") -> float:
        return self._t[(storage, float(mem), float(remote), access)]

    def ratio(self, storage: str, mem: float, remote: float, access: str = "A") -> float:
        return self(storage, mem, remote, access) / self(storage, mem, remote, "D")

    def has(self, storage: str, access: str) -> bool:
        return any(k[0] == storage and k[3] == access for k in self._t)
