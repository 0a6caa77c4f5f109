"""Seed 000, Figure 10: traffic priorities with many applications on the dragonfly.

Workloads of ``n_apps`` Markov applications drawn from Table 1's multi-application column
(Prob(C/C) ~ U[0, 1], Tasks ~ U{1..system size}, storage allocation drawn among Internal,
External, Cache and SAN, access among D/A/L, memory hits and remote accesses ~ U[0, 100] %)
run on one dragonfly under each traffic policy: NP, FP and BA with 95-5, 50-50 and 5-95 of
a contended link to IPC and storage (the engine's ``--traffic-policy np | fp | ba:X``, one
solver for all: ``sim/src/execution/traffic.hpp``). Every policy of a seed runs the same
applications with the same queue policy, so the paired per-seed ratio to NP isolates the
policy. The paper plots the average run time of the applications (its caption) and speaks
of total times (its text): both are computed.

The classes meet here between applications (one application's all-to-all shares links with
another's remote-NVM reads), and, under ``io_distributions`` ``per_task`` (the I/O tasks
distribute what they read to the other tasks, seed 000 5.1; Figure 7's report), also within
one application. Each model is a dimension of the runs; the claims are judged on
``per_task`` when it was run.

Each completed simulation gives one row of the runs (its identity and its means over the
applications, ``runs.run_row``). The paper-sized variant, hours of CPU, accumulates
(analysis/accumulate.py): each run's summary is committed as it completes
(``runs/<path>.json``) and the figure is drawn from the complete seeds (the report counts them).

Steps: ``spec``, ``runs``, ``table``, ``figure``, ``claims``, ``report``.
"""
