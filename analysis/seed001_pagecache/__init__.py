"""Seed 001 Tables 1-3: the producer-consumer I/O benchmark on one node, regenerated, in one
module per step: ``spec`` (the paper's hardware and tables, the sweep), ``hardware`` (storage
configurations and the platform), ``runs`` (workload and engine runs), ``table`` (our Tables 1-3),
``claims`` (verdicts), ``figure``, ``report``; ``python -m datasched.analysis.seed001_pagecache``
rebuilds a report from a run's ``values.json`` (``__main__``).

The paper (section 4) measures a producer that writes N files and a consumer that reads
them, on one dual-socket node (2 x Xeon Platinum 8160F, 192 GB DDR4, an 800 GB Intel SSD
DC S3710) against a 750 GB Lustre 2.9 file system, node memory (a memory-mapped file
system) and the SSD, without (Table 1) and with (Table 2) O/S caching, for one pair and
for 36 concurrent pairs (Table 3). Here both applications are ``datasched_phases`` jobs
on one compute node: the producer's write phase names its N files as data items, the
consumer (a dependency of the producer, started when it completes, on the same node:
``schedulers/pinned.py``) reads them. Where the files live:

* Lustre: central storage; the OSTs are the platform's I/O servers (every file striped
  over all of them), an OST's rate is its server's front-end link, the node reaches them
  through its NIC. The paper gives neither the OST count nor rates: both are swept.
* SSD: the node's NVM endpoint at the S3710 800 GB datasheet rates (below).
* Memory: the node's NVM endpoint at the node's memory bandwidth (a tmpfs: its pages are
  the page cache, so caching changes nothing there, by construction). Swept.

Caching is the engine's node page cache (sim/src/model/page_cache.hpp): capacity and dirty
ratio are DRAM-endpoint properties of the platform. Table 1 runs without it. Every time is a
job's execution time from ``out_jobs.csv``: the producer's is the write time, the consumer's
the read time, their sum the table's number. Nothing is fitted; every unstated parameter is
swept and the report names the parameter set that satisfies the most claims together.
"""
