"""Seed 000, Figure 8: many applications sharing the machine, per storage assignment.

Workloads of ``n_apps`` Markov applications drawn from Table 1's multi-application column
(every application drawn as Internal, so each has an STG-k ~ U{1..Tasks}; Tasks ~
U{1..system size}) run on each topology under each storage-assignment policy (Cache,
Internal and External, each with Disperse / Affinity / Local access): the storage
*policy* (schedulers/storage_*.py, the queue policy's ``storage`` option) overrides the
drawn allocation and access, so every variant of a seed runs the same applications. The
metric is the paper's: the average total time (waiting + running) of the applications,
averaged over workload seeds with a 95 % t interval.

The paper states its results in sentences; :func:`verdicts` checks each one against
our table with an explicit rule.

Steps: ``spec``, ``table``, ``figure``, ``claims``, ``report``.
"""
