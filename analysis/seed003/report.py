"""Seed 003 step 6, the report: set-up, claims table, per-configuration tables and the reasons."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from datasched.analysis.claims_table import claims_table, verdict_rules
from datasched.analysis.seed003.claims import verdicts
from datasched.analysis.seed003.runs import COLLECTIVE_MAX
from datasched.analysis.seed003.spec import AWP_HALO, AWP_ITERATIONS, CG_EXCHANGE, CG_ITERATIONS, MIB, Seed003Spec
from datasched.analysis.seed003.table import effects, weights_spread


def _solvers(rows: Sequence[Mapping[str, Any]]) -> str:
    names = sorted({r["solver"] for r in rows})
    return f"every run used SimGrid's {names[0]} solver" if len(names) == 1 else f"solvers {', '.join(names)}"


def format_report(rows: Sequence[Mapping[str, Any]], spec: Seed003Spec, variant: str, figure_name: str) -> str:
    all_effects = [effects(rows, s, g) for s in spec.ssd_write_bw for g in spec.granularity]
    spread = weights_spread(rows)
    lines = [
        f"# Seed 003 (QoS-aware data staging on InfiniBand) on datasched — {variant} variant",
        "",
        f"![results]({figure_name})",
        "",
        *textwrap.wrap(
            "Set-up (sim/src/qos/README.md for the model): 8 client nodes, one staging server with an SSD "
            "behind a 64 MiB receive buffer, one back-end PFS server on a separate 10 Gbit/s storage network "
            "(platforms' `StagingParams`, `pfs_servers=1`); IB QDR links of 4 GB/s per direction, 1.5 µs per "
            "hop; OpenSM's arbitration table of the paper's Figure 4. Noise: one dd thread per benchmark node "
            "writing 1 MiB blocks to the staging server back to back. Micro-benchmarks between client-0 and "
            f"client-1 (sizes up to {max(spec.sizes) / MIB:g} MiB; latency {spec.latency_iterations} round "
            f"trips, bandwidth and bidirectional bandwidth {spec.bandwidth_iterations} windows of {spec.window}); "
            f"MPI_Alltoall and MPI_Allreduce on the same two ranks (sizes up to {COLLECTIVE_MAX / MIB:g} MiB, "
            f"{spec.latency_iterations} iterations; allreduce by MPICH's rule: recursive doubling up to 2 KiB, "
            "Rabenseifner's reduce-scatter + allgather above, as MVAPICH2 inherits it; the paper does not say); "
            "AWP-ODC-like stencil on "
            f"2 × 2 × 2 nodes, {spec.stencil_iterations} iterations (paper: {AWP_ITERATIONS}), "
            f"{AWP_HALO / MIB:.3g} MiB per node face; CG-like transpose on 8 nodes, {spec.cg_iterations} "
            f"iterations (class C: {CG_ITERATIONS}), {CG_EXCHANGE / 1000:g} kB per node pair. Swept (the paper "
            f"is silent): SSD write bandwidth {', '.join(f'{s / 1e9:g}' for s in spec.ssd_write_bw)} GB/s; "
            f"arbitration granularity {', '.join(f'{g / 1024:g}' for g in spec.granularity)} KiB; stencil "
            f"compute per iteration {', '.join(f'{c * 1000:g}' for c in spec.stencil_compute)} ms.",
            width=100,
        ),
        "",
        "## Claims",
        "",
        *claims_table(verdicts(all_effects, spread)),
        "",
        "Ranges are over the sweep (SSD bandwidth × granularity; for AWP-ODC also compute per iteration).",
        *verdict_rules(),
        "",
        "SSD bandwidth, granularity and compute per iteration are not the paper's: a match says which values",
        "are consistent with it, not that we predicted it. SL weights: read as SL1 … SL7 differing by less than",
        "1 µs and 1 MB/s.",
        "",
        "## Per configuration",
        "",
        "| SSD (GB/s) | g (KiB) | 4 MB lat. SL0 (µs) | SL1 (µs) | 4 MB bw SL0 (MB/s) | recovered (MB/s) "
        "| 1 MB alltoall SL0 (µs) | SL1 (µs) | CG comm SL0 | SL1 |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *(
            f"| {e.ssd / 1e9:g} | {e.granularity / 1024:g} | {e.latency_sl0_us:+.1f} | {e.latency_sl1_us:+.1f} | "
            f"{e.bandwidth_sl0_mbs:+.0f} | {e.bandwidth_recovered_mbs:+.0f} | "
            f"{e.alltoall_sl0_us:+.1f} | {e.alltoall_sl1_us:+.1f} | "
            f"{e.cg_sl0_pct:+.1f} % | {e.cg_sl1_pct:+.1f} % |"
            for e in all_effects
        ),
        "",
        "AWP-ODC-like runtime added by the noise (communication share of the run without I/O in brackets):",
        "",
        "| SSD (GB/s) | g (KiB) | compute / iteration | SL0 | SL1 |",
        "|---|---|---|---|---|",
        *(
            f"| {e.ssd / 1e9:g} | {e.granularity / 1024:g} | {c * 1000:g} ms ({share * 100:.1f} % comm) | "
            f"{s0:+.1f} % | {s1:+.1f} % |"
            for e in all_effects
            for c, share, s0, s1 in e.awp
        ),
        "",
        "## What drives our numbers",
        "",
        "- **The noise is as fast as the staging server lets it be.** Each dd thread waits for room in the",
        "  server's 64 MiB buffer, which the SSD empties at its write bandwidth: once the buffer is full the two",
        "  writers together move what the SSD writes. A slow SSD (1 GB/s: 0.5 GB/s per client) leaves the MPI",
        "  flow alone most of the time; an SSD as fast as the link makes the noise a second full-rate flow on",
        "  the client's link, and equal sharing on SL0 then doubles a large message's time. The paper's +400 µs",
        "  and −700 MB/s sit between these: the SSD bandwidth (not stated) decides the size of every SL0 claim.",
        "- **SL1 is strict priority at a granularity.** MPI on SL0 is served first; the I/O moves only in the",
        "  gaps, in pieces of g bytes, and a piece already on the wire when a message starts delays it by at",
        "  most g / L (16 µs for 64 KiB). That is all the interference left, far below the paper's +80 µs: the",
        "  paper's qos_ca_high_limit is 255, which the InfiniBand specification defines as unbounded (the",
        "  engine's bounded `high_limit` option, swept by bench/seed003_arbitration, is not the paper's",
        "  configuration), and the flow model has no head-of-line blocking or credit stalls in the switch, no",
        "  HCA/PCIe contention between the two streams, no MPI rendezvous handshake that waits behind I/O",
        "  packets. Those are what the paper's residual 80 µs and 8 % measure.",
        "- **Collectives on two ranks are two messages at once.** MPI_Alltoall between two ranks is an",
        "  exchange: each rank's message uses its own UP link and the other's DOWN link, where its own dd",
        "  thread's I/O also goes; on SL0 the message shares the link with the noise as a point-to-point",
        "  message does. On SL1 one piece of I/O is on the wire at the start of every alltoall: both messages",
        "  of an iteration end in the same instant, the link then has no SL0 flow for that instant, and a",
        "  waiting piece starts beside the next iteration's messages. The residue is therefore exactly g / L",
        "  (16.4 µs at g = 64 KiB, 1.0 µs at 4 KiB: checked by hand on both SSDs); the granularity is ours, not",
        "  the paper's, so the closeness of 16.4 µs to the paper's +15 µs says which g is consistent, not that",
        "  the model predicts it. MPI_Allreduce of 1 MiB (Rabenseifner: two half-size exchanges) pays that",
        "  twice per operation.",
        "- **SL weights 1–7 cannot matter here** (as the paper says): only one low SL carries I/O at a time and",
        "  SL0 is strictly above all of them, so a low weight never meets another low flow. Our results for all",
        "  five benchmarks of Figs. 8 and 9 are identical to the last digit: the weights enter only when two low",
        "  SLs share a link",
        "  (tests/integration/qos: shares w1/(w1+w2)).",
        "- **Applications**: the noise only costs an application its communication phases, so the effect grows",
        "  with the communication share (swept through the compute per iteration). Iterations are",
        "  bulk-synchronous, so the node whose link carries a noise block sets the pace: a slow SSD, whose",
        "  noise comes one block at a time at full link speed to one node, hurts the stencil *more* than a fast",
        "  SSD spreading a steady trickle over all nodes. CG's transpose sends 7 messages from each node at",
        "  once, so a node's I/O block competes with 7 MPI flows and gets 1/8 of its link: the SL0 penalty on",
        "  CG is smaller than on a single large message. SL1 removes nearly all of both.",
        "- **The lazy drain never runs during these benchmarks** (the dd threads never leave the server idle",
        "  for τ), and when it runs it uses the storage network: it cannot disturb MPI in this model, as the paper",
        "  designs. tests/integration/qos checks write-then-drain and the idle rule in closed form.",
        "",
        "## Why ours differ",
        "",
        "- Unknowns we chose (swept where they matter): SSD write bandwidth, receive buffer (64 MiB),",
        "  arbitration granularity, compute per iteration, halo composition (9 fields, 2 layers, single precision),",
        "  CG class (C), 8 ranks per node with block placement, link latency 1.5 µs per hop, QDR data rate 4 GB/s.",
        "- Not modelled: the IB link-level mechanisms above (VL buffers and credits, HOL blocking, MTU",
        "  packets), MPI protocol overheads (eager/rendezvous), CPU and memory-bus contention between the I/O",
        "  thread and the ranks (the paper pins them to different cores), OSU's overlapping of back-to-back sends",
        "  (each of our messages pays the route latency: small-message bandwidth is low).",
        "- Each message is its own single-flow activity, so no SimGrid solver limit is reached: "
        f"{_solvers(rows)}, at most {max(r['max_flows'] for r in rows)} flows at once (one weight per table is",
        "  in use, so no flow is given a priority; see sim/src/qos/flows.hpp).",
        "",
        "Numbers: `seed003_qos_plotted.csv` beside this report (one row per benchmark result).",
    ]
    return "\n".join(lines) + "\n"
