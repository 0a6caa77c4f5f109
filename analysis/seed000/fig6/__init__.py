"""Seed 000, Figure 6: one application alone on the 72-node (2,4,2) dragonfly.

Run time against the share of memory hits (panel a, 50 % remote accesses) and of remote
accesses (panel c, 50 % memory hits), for each storage assignment (STG-k internal NVMs,
CACHE, SAN-4), with the Disperse pattern; panels b and d give Affinity's run time
relative to Disperse. The application is one Markov application of Table 1's
single-application column (Prob(C/C) 0.25, our stated sizes, the same seed for every
variant, so every variant runs the same phases); it runs with our FCFS policy and the
engine's default devices (internal: the first k nodes' NVMs).

The paper gives these results as figures and sentences, not numbers; :func:`verdicts`
checks each stated claim against our table and says how it compares.

Steps: ``spec``, ``table``, ``figure``, ``claims``, ``report`` (with
``report_routing``; ``links``, the routes' link loads).
"""
