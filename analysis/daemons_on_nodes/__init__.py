"""Scheduling with storage daemons on the compute nodes (not a paper figure; issue 37): EASY
with ``sequential`` against ``data_aware`` allocation, and external storage placed
``least_loaded`` against ``idle_nodes`` (off the nodes other jobs compute on), while every
node's NVM is served by a daemon whose CPU work competes with the jobs placed there
(datasched-sim ``--storage-daemons``, sim/src/services/README.md), swept over the daemons' cost.

Steps: ``spec`` (the runs), ``table`` (paired ratios over seeds), ``figure``, ``report``."""
