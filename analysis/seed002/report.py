"""Seed 002 step 6, the report: set-up, the claims over the sweep and per parameter set, the
tables of how they move, and the reasons ours differ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import claims_table, verdict_rules
from datasched.analysis.seed002.claims import best_set, sweep_verdicts, verdicts
from datasched.analysis.seed002.report_tables import cache_movement_table, mechanism_table, seek_movement_table
from datasched.analysis.seed002.spec import KIB, MIB, Seed002Spec, set_name


def format_report(
    rows: Sequence[Mapping[str, Any]],
    spec: Seed002Spec,
    variant: str,
    figure_name: str,
    scheduling: Sequence[str] = (),
) -> str:
    """The report; ``scheduling``: the scheduling section's lines (analysis/seed002/scheduling.py).
    The IFER and request-size figures are ``figure_name`` with ``_ifer`` / ``_sizes`` before
    the suffix (the artifact rule writes them so)."""
    small = min(spec.request_sizes)
    stem = figure_name.removesuffix(".png")
    seeks = spec.hdd_seek_scale
    caches = spec.cache_names
    sets = spec.parameter_sets()
    best_name, best_held, best_failed = best_set(rows, spec.hdd_alpha, small, seeks, caches, sets=sets)
    lines = [
        f"# Seed 002 (TWINS, I/O forwarding request scheduling) on datasched — {variant} variant",
        "",
        f"![makespans]({figure_name})",
        "",
        *([f"![IFER: makespan against dt]({stem}_ifer.png)", ""] if spec.ifer_dt else []),
        f"![request sizes leaving clients, leaving forwarders, arriving at servers]({stem}_sizes.png)",
        "",
        "Set-up: 32 client nodes × 4 processes, 4 I/O forwarders (client nodes in blocks of 8), 4 HDD data",
        "servers, 10 Gbit/s Ethernet (platforms/catalog/seed002-forwarding.xml), "
        f"{spec.scale * 32:g} MiB per process (paper: 32 MB; scale {spec.scale:g}), request sizes "
        f"{', '.join(f'{s // KIB} KiB' for s in spec.request_sizes)}, seeds {list(spec.seeds)} "
        f"(each process starts after U[0, {spec.jitter * 1000:g} ms)); makespans are means with 99.7 % "
        "Student t intervals over seeds, as in the paper. Gains are makespan reductions, "
        "100 (T_other − T_TWINS) / T_other. The model and its limits: sim/src/forwarding/README.md.",
        "",
    ]
    lines += [
        "## Over the HDD contention and seek sweep",
        "",
        "HDD contention α, the seek scale of the seek-aware curve and the servers' cache are ours (the",
        "paper gives none of them): a claim is *reproduced* only where one parameter set satisfies every",
        "claim below together; otherwise it is at best *consistent for some parameter*. Parameter sets: "
        + "; ".join(set_name(a, sk, c) for a, sk, c in spec.parameter_sets())
        + " (a seek scale only with α > 0: it multiplies α; a cache only on the count-only curve).",
        "",
        *claims_table(sweep_verdicts(rows, spec.hdd_alpha, small, seeks, caches, sets=sets)),
        "",
        f"**The single parameter set that satisfies the most claims together: {best_name}** "
        f"({len(best_held)} of {len(best_held) + len(best_failed)} reproduced: "
        f"{', '.join(best_held) or 'none'}). It fails: {', '.join(best_failed) or 'none'}.",
        "",
        *verdict_rules(),
        "",
    ]
    if any(sk > 0 for sk in seeks):
        lines += [
            "## How the TWINS-vs-FIFO claims move with the seek-aware curve",
            "",
            "The seek-aware curve (sim/src/forwarding/README.md) weighs α by the seek spread σ = min(1, mean gap",
            "between the positions of the requests on a disk / seek scale): the larger the scale, the less",
            "interleaved requests close together on the disk cost. Gains of TWINS over FIFO (%, 95 % interval):",
            "",
            *seek_movement_table(rows, spec.hdd_alpha, small, seeks),
            "",
        ]
    if spec.server_caches:
        described = "; ".join(
            f"*{c.name}*: write-behind {c.write_behind / MIB:g} MiB × scale "
            f"({int(c.write_behind * spec.scale) / MIB:g} MiB here), read-ahead {c.read_ahead / KIB:g} KiB"
            for c in spec.server_caches
        )
        lines += [
            "## How the claims move with the servers' cache",
            "",
            "Each server caches in memory (sim/src/forwarding/README.md, *Server cache*; memory "
            f"{spec.memory_bandwidth / 1e9:g} GB/s, ours): {described}. The paper's servers run PVFS on Linux, "
            "whose page cache absorbs writes and reads ahead; its sizes are not stated, so they are swept. "
            "Write claim and TWINS-vs-FIFO read gains (%, 95 % interval), count-only curve:",
            "",
            *cache_movement_table(rows, spec.hdd_alpha, small, caches),
            "",
        ]
    for alpha, seek, cache in spec.parameter_sets():
        lines += [
            f"## HDD contention {set_name(alpha, seek, cache)}",
            "",
            *claims_table(verdicts(rows, alpha, small, seek, cache)),
            "",
            "Small reads; *n* = disk requests at once on a busy server (the n of the HDD curve, mean over",
            "the runs), *balance* = least busy server's busy time / most busy server's (1: all equally busy):",
            "",
            *mechanism_table(rows, small, alpha, seek, cache),
            "",
        ]
    lines += [
        "## What drives our numbers",
        "",
        "In this model a data server delivers less in total the more requests it serves at once, so what",
        "matters is how many requests each server holds and whether every server has work. Without",
        "forwarding all 128 processes' requests reach the servers; through forwarders at most 4 × 16 are in",
        "flight. Under FIFO each forwarder sends its requests wherever they point; a server that receives",
        "more serves each more slowly, so it keeps the in-flight slots longer and collects more (a convoy):",
        "see the balance column. TWINS gives each server one forwarder at a time, which bounds n and keeps",
        "all servers busy, as long as a request completes within a window: with 1 ms windows (shorter than",
        "a small request's service time under contention) requests of earlier windows are still running",
        "when the next forwarder arrives, so servers hold several forwarders' requests. With a shared",
        "contiguous file each process's block starts on the same server (block sizes are multiples of the",
        "4 stripes of a round), so all processes walk the servers in near lockstep and TWINS makes the",
        "forwarders wait for the window of the one server everyone needs. Reads and writes cost the same",
        "here (no server cache, no write-behind), so writes gain whatever reads gain.",
        "",
        "Verdicts use 95 % intervals (the tables' 99.7 % half-widths × t(0.975)/t(0.9985)), propagated to the",
        "gains to first order; an IFER gain is the mean over the start offsets dt, per TWINS window (the",
        "IFER figure shows each dt).",
        "",
        "## Why ours may differ",
        "",
        "- **What we model** (sim/src/forwarding/README.md): static client → forwarder mapping; FIFO, HBRR "
        "(per-handle queues, round-robin, aggregation of contiguous same-file same-operation requests up to "
        "16) and TWINS (one queue per server, globally aligned windows, forwarder f serves server (f + k) mod 4 "
        "in window k); a bounded number of dispatches in flight per forwarder (16, our choice); files striped "
        "in 64 KiB units (PVFS2's default; not stated); HDDs whose total bandwidth falls as "
        "B / (1 + α (n − 1)) with n concurrent requests (α swept, never fitted; B = 150 MB/s assumed).",
        "- **Seeks**: the seek-aware curve (`servers.hdd_seek_scale`, swept here) is a linear proxy for "
        "the physical cause of HDD contention: it weighs α by how far apart the interleaved requests "
        "are, not a disk-head model (no rotational latency, no head position carried over).",
        "- **What this artifact does not model**: PVFS's server-side request processing (the cache sets "
        "above stand for Linux's page cache and write-behind; without them our writes go to the disk and "
        "behave like reads); forwarder CPU cost.",
        "- **Request pace** (`pace.read-vs-write`): the paper measured reads arriving at the servers every "
        "26.09 µs, writes every 50.92 µs. Ours is an outcome, never an input: each client issues its next "
        "request when the previous one is answered, so the pace is the servers' service rate. We take, per "
        "server, (last − first arrival) / (requests − 1), averaged over the servers (how the paper averaged "
        "is not stated), under FIFO for the shared patterns' small requests; a read's arrival is its "
        "request message, a write's is the end of its data transfer.",
        "- **Sizes**: the paper's table shows aggregation leaving I/O nodes (58 KB) for both shared "
        "patterns; ours follows from our aggregation limit and how many requests adjacent in the file meet "
        "in a forwarder's queue, which depends on the in-flight bound; arriving sizes follow from our "
        "striping. In the 1D-strided pattern the processes' requests interleave in the file, so requests of "
        "different processes are adjacent and meet; in the contiguous pattern each process walks its own "
        "block with one request at a time, so no two adjacent requests are ever queued together and ours "
        "never grow. The paper's clients may keep several requests of a block in flight (non-blocking or "
        "split MPI-IO requests; it does not say), which our clients do not.",
        "- **Sensitivity**: processes that move in near lockstep (shared contiguous above all) amplify tiny "
        "timing differences — a different seed, or SimGrid's solver precision (relative 1e-5) — into large "
        "makespan differences; the wide intervals of those tests are that, not noise to average away.",
        f"- **Scale**: this variant moves {spec.scale * 32:g} MiB per process; makespans scale about "
        "linearly, but window effects (1 ms, 8 ms) weigh more in short runs.",
        "",
        "Numbers: `seed002_twins_plotted.csv` beside this report (one row per test and configuration).",
        "",
        "## What changed against the previous report (issue 34)",
        "",
        "- The seek-aware HDD curve is swept (it existed in the engine, unused here): the claims are now",
        "  judged over (α, seek scale, cache) sets, and the set satisfying the most claims is named.",
        "- Servers may cache (write-behind, read-ahead; new in the engine): the paper's 'no difference for",
        "  writes' was out of reach while every write went to the HDD; the cache sets test whether",
        "  absorbing writes in memory brings TWINS and FIFO together.",
        "- IFER is plotted against dt (the paper's figure), and the request sizes as a figure beside the",
        "  paper's table; the IFER claims are still judged on the mean over dt.",
        "- The request pace at the servers (reads against writes) is recorded by the engine and judged",
        "  as a new claim, `pace.read-vs-write` (issue 34, item 6).",
        "- Strided requests were already aggregated by HBRR across processes before this change (the",
        "  issue's 32 → 32 KB predates it); the aggregation is now proven by closed-form tests",
        "  (tests/integration/forwarding/test_server_cache.py).",
        "- The size claims are judged as the growth over the clients' 32 KiB, per shared pattern and at",
        "  every parameter set (`hbrr.growth-*`), instead of the smallest of our four sizes as a level",
        "  within 0.5–2× of the paper's: a level rule cannot fail here, since requests never aggregated",
        "  (32 KiB) are 0.55× of 58 KB. The contiguous pattern's claims, 'reproduced' before, are not:",
        "  ours do not grow at all (above). Sizes are in KiB, the paper's KB read as KiB.",
    ]
    if scheduling:
        lines += ["", *scheduling]
        while lines[-1] == "":
            lines.pop()
    return "\n".join(lines) + "\n"
