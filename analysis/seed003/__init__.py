"""Seed 003 (QoS-aware data staging on InfiniBand): the paper's experiments as engine inputs
(``datasched-sim --qos-staging``, sim/src/qos/README.md), a runner, and the report,
in one module per step: ``spec`` (the paper and the sweep), ``runs`` (engine inputs and runs),
``table`` (the paper's quantities), ``claims`` (verdicts), ``figure``, ``report``.

What the paper states and we take: two MPI ranks on two client nodes (OSU latency / bandwidth,
messages up to 4 MB) while one I/O thread per node streams 1 MB writes (dd, direct I/O) to one
staging server with a PCIe SSD; I/O on SL0 (shared with MPI) or SL1 (OpenSM's Figure 4 table:
SL0 high, SL1-7 low with weights 2^sl); SL1-7 for the weights study; AWP-ODC with a 256³ grid on
64 ranks as 4 × 4 × 4, 2001 iterations; NAS CG on 64 ranks over 8 client nodes. What it does not
state is ours, chosen here and never fitted (README of the artifact lists them):

* IB QDR data rate 32 Gbit/s per direction, 1.5 µs per hop (``StagingParams``);
* the staging server gives freed buffer room to a random waiting writer (seeded): with a fixed
  order the two dd threads alternate exactly and their blocks phase-lock with the ping-pong;
* the SSD's write bandwidth (**swept**: it sets how fast the noise can go once the staging
  server's 64 MiB buffer is full) and the arbitration granularity (**swept**: the bytes a low-SL
  flow sends between checks of the high table);
* 8 ranks per node (block placement); AWP-ODC halos: 2 ghost layers of 9 single-precision fields
  per face (64² points per rank face, 4 rank faces per node face); compute per iteration
  (**swept**); CG class C (na = 150000: one 150 kB transpose message per node pair and
  iteration, 75 × 26 = 1950 iterations), 1 ms of compute per iteration.
"""
