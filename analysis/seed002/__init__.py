"""Seed 002 (TWINS, I/O forwarding request scheduling): the paper's experiments as engine
inputs (``datasched-sim --io-forwarding``, sim/src/forwarding/README.md), a runner, the summary,
figures and report, in one module per step: ``spec`` (the paper and the sweep), ``runs`` (engine
inputs and runs), ``table`` (makespans over seeds, ``intervals`` their 99.7 % intervals),
``claims`` (verdicts), ``figure`` / ``figure_ifer`` / ``figure_sizes``, ``report`` (with
``report_tables``); ``scheduling`` is the report's last section (EASY through the forwarding
layer; no paper claim).

The set-up the paper states: 32 client nodes x 4 processes (128), 4 I/O forwarders, 4 data
servers with HDDs, 10 Gbit/s Ethernet, 32 MB per process (4 GB per test), 32 KB (small) and
256 KB (large) requests, file per process / shared file 1D-strided / shared file
contiguous, read and write. What it does not state is ours and chosen here, never fitted:

* ``stripe_size`` 64 KiB (PVFS2's default strip size);
* ``max_in_flight`` 16 dispatches per forwarder, HBRR ``aggregation_limit`` 16;
* client node -> forwarder in blocks of 8 (static, as the paper);
* the HDD: 150 MB/s (platforms' ForwardingParams), contention curve ``hdd_alpha`` swept, and
  the engine's seek-aware form of it (``hdd_seek_scale``, bytes; 0 = count-only) swept too;
* each process starts after U[0, 1 ms) (the randomness the seeds vary).
"""
