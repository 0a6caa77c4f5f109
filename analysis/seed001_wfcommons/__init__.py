"""Seed 001 on real workflow shapes: WfCommons instances (``workflows/wfcommons_instances``)
converted to our workflow format (:mod:`datasched.workflows.wfcommons`), scheduled
data-aware against data-unaware, per submission style, on a node-SCM platform and on a
SAN platform. One module per step: ``spec`` (the sweep), ``runs`` (platforms, workloads, engine
runs; ``measure`` reads a run's metrics), ``table`` (means and ranges over instances), ``claims``
(data-aware against data-unaware), ``figure``, ``report``.

Each run: instance -> workflow (runtime x the platform's 1 Gflop/s, files -> named data
items, file sizes x ``size_scale``) -> submission style -> workload (``phases`` profiles)
-> the platform -> a *variant* (a scheduler plus its options, from the config; e.g.
``workflow`` with ``data_aware`` false or true). Metrics per run, from the engine's
outputs:

- ``makespan``: T_all of the workflow, last end minus first submission (s);
- ``interconnect_bytes``: bytes over the compute interconnect: items read from another
  node's NVM (``remote_nvm_bytes``) plus IPC (``network_bytes``). Central storage is
  reached over each node's storage Ethernet, never over the interconnect
  (platforms/README.md), on both platforms;
- ``central_write_bytes`` / ``central_read_bytes``: bytes written to / read from central
  storage (items written there, write-backs of evicted items; items read from there);
- ``peak_nvm_bytes``: the highest total occupancy of the node NVMs (``out_nvm.csv``);
  ``peak_node_nvm_bytes``: the highest of one NVM.

Replicates: the real instances listed for each workflow *shape* (each a separate recorded
run of the same workflow and input size on the original system: different measured
runtimes, sometimes file sizes). They are not draws from one distribution (blast-small's
run 001 records a 5.1 GB file that its four other runs record as 0 bytes), so a t
interval over them says little (at x100 it reached below 0 s): the report and figure give
the mean and the range (min..max) of the runs; a shape with one instance has no range.
A variant with ``needs_nvm`` runs only on platforms with node NVM (the data-aware policy
keeps items on node NVM; a SAN platform has none).
"""
