"""Scheduling with burst buffers in front of the SAN (not a paper figure; issue 37): EASY with
``sequential`` against ``random`` allocation on seed 000's SAN systems, with the write phases of
every job going straight to the I/O servers or through staging servers (seed 003's model:
receive buffer, SSD, lazy drain; datasched-sim ``--staging-layer``, sim/src/services/README.md),
swept over the number of staging servers.

Steps: ``spec`` (the runs), ``metrics`` (a run's numbers), ``table`` (paired ratios over
seeds), ``figure``, ``report``."""
