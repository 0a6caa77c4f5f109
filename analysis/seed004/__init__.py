"""Seed 004 (on-demand file systems: storage daemons on compute nodes): the paper's
configurations as engine inputs (``datasched-sim --interference``,
sim/src/interference/README.md), a runner, the summary, figure and report,
in one module per step: ``spec`` (the paper and the sweep), ``runs`` (engine inputs and runs),
``table`` (slowdowns), ``claims`` (verdicts), ``figure``, ``report``.

What the paper states and we use: HPL of n = 16…128 nodes with the problem sizes of its
Table II (N, P x Q), about the same run time at every size; IOR (Table III): 56 processes per
node, file per process, 512-byte synchronous writes for as long as HPL runs; BeeOND with a
storage target on every node of the allocation and the metadata service on the lowest node;
the five configurations of its section III-E; dual-socket ThunderX2 nodes (2 x 28 cores),
EDR InfiniBand, one SATA SSD per node.

What it does not state is ours, chosen here and written down (never fitted):

* **the daemon CPU costs** — the question of the paper: *swept* (``request_costs_us``: µs of
  one core per 512-byte write, i.e. per-request plus 512 x per-byte cost, which this workload
  cannot tell apart; ``idle_fractions`` x ``idle_periods``: idle service load). The report
  says which values are consistent with the paper's numbers; none is a prediction;
* **how a service thread's CPU time reaches HPL** (``node_models``): ``spread`` models a node
  as its 56 cores and lets SimGrid share them between the 56 rank threads and the service
  threads (each thread ``C·s/(C + k)``): a service's work W delays the node by W/(56 s), as if
  the OS spread it over all cores; ``pinned`` models a node by the one core a service thread
  lands on, shared with the rank pinned there: W delays the node by about W/s, because the
  other 55 ranks wait for that one at the next synchronisation (the tight-coupling
  amplification of OS-noise studies). Real machines lie between; both are SimGrid sharing.
  ``memory`` is ``spread`` plus a memory-bandwidth resource per node (``memory`` section:
  swept bandwidths and HPL bytes per flop, ``io_copies`` stated), which HPL's ranks and the
  storage services' copies of the bytes they write share (sim/src/interference/README.md,
  "Memory bandwidth"); one analysis model per swept setting;
* HPL block size NB = 192 (iterations = N / NB; ``iterations`` of them are simulated: the
  slowdowns are per-iteration rates, the first iterations stand for all), 16 Gflop/s per core,
  a ring exchange of 8·N·NB·56/P bytes per node and iteration (its panel broadcast);
* synchronous 512-byte writes cost 8 KiB on the SSD (data block and log), SSD 500 MB/s write;
  BeeOND chunks of 512 KiB over 4 targets; 12 storage and 4 metadata worker threads;
  ``requests_per_batch`` requests simulated as one (sim/src/interference/README.md);
* Lustre: 8 external servers (``pfs-*``) with 5 GB/s each.
"""
