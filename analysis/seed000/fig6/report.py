"""Figure 6 step 5, the report: set-up, claims table and the reasons the numbers differ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import claims_table, verdict_rules
from datasched.analysis.seed000.fig6.claims import verdicts
from datasched.analysis.seed000.fig6.report_routing import link_section, report_routing, routing_notes


def format_report(rows: Sequence[Mapping[str, Any]], spec_text: str, figure_name: str) -> str:
    table = verdicts(rows)
    routing = report_routing(rows)
    lines = [
        "# Seed 000, Figure 6: storage assignment for one application (72-node dragonfly)",
        "",
        f"![Figure 6]({figure_name})",
        "",
        "Plotted numbers: `seed000_fig6_plotted.csv`. The paper states these results as figures and",
        "sentences, not numbers: each row puts its claim beside our result, computed from those numbers.",
        "",
        *claims_table(table),
        "",
        *verdict_rules(),
        "",
        *missing_figures(),
        "",
        "## Set-up",
        "",
        spec_text,
        f"- interconnect routing of these numbers: **{routing}** (the plotted CSV's `routing` column).",
        "",
        "## Why ours may differ (choices where the paper is silent, and model differences)",
        "",
        "- **Sizes and speeds are ours** (the paper states neither): 1e10 flops and 1e8 bytes sent per task per",
        "  compute/communicate phase, 1e9 bytes per I/O task per read/write phase, nodes of 1e10 flop/s,",
        "  interconnect links of 10 Gbit/s (platforms/README.md). Only the NVM (2/1 GB/s), DRAM (10 GB/s) and",
        "  SAN (10 GbE front-end) rates are the paper's. Absolute run times therefore mean nothing; shapes do.",
        "- **Phases are bulk-synchronous** in our model (a phase ends when its slowest part ends) and all tiers of",
        "  an I/O phase run at once; INRFlow's flow dependencies may overlap tasks' phases differently.",
        "- **Sharing is per activity** (one SimGrid activity per tier of a phase; workloads/README.md): an",
        "  application's remote reads share a link as one, where INRFlow shares per flow.",
        *routing_notes(routing),
        "- **Affinity groups**: task i of m uses device floor(i*k/m); the paper's groups (e.g. 16 sets of 5/4 tasks",
        "  for STG-16) are the same sizes, but which node hosts which device the paper does not say: ours are",
        "  the first k allocated nodes (the engine's default, rows *A*) or each group's first task (the",
        "  `internal` storage policy with `spread` placement, rows *As*). The next section says what each choice",
        "  does to the links.",
        "- **Traffic policy**: NP. With bulk-synchronous phases one application never overlaps its own IPC and",
        "  storage traffic, so BA and FP give NP's run time exactly, in both sharing units (Figure 7's report).",
        "",
        *link_section(rows, routing),
    ]
    return "\n".join(lines)


def missing_figures() -> list[str]:
    """Where seed 000's other figures are (so that their absence here is not read as missing)."""
    return [
        "Figure 7 (the traffic policies NP/BA/FP for this application) is `../fig7-*/`, Figure 10 (the traffic",
        "policies with many applications) `../fig10-*/`, the abstract's locality numbers `../abstract-*/`.",
    ]
