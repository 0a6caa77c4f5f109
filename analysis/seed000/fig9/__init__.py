"""Seed 000, Figure 9: the number of central I/O servers, 1 to 128.

The same multi-application workloads as Figure 8 run with n I/O servers in the central
storage back-end: (a) Internal-Affinity (I-A) and Cache on the unified platforms, where the
servers only stage each application's data in and out (striped over all n servers), and
(b) SAN on the SAN-mode platforms (no node NVM), every I/O striped over the n servers.
How much is staged the paper does not say, so it is swept (``staging``: the markov
generator's ``io_volume`` upper bound and ``dataset``; SAN ignores staging and runs once).
Platforms are the catalogue's seed-000 systems with ``io_servers = n``
(``platform_params``); the metric is Figure 8's (average total time, 95 % t interval
over workload seeds).

Steps: ``spec``, ``table``, ``figure``, ``claims``, ``report``.
"""
