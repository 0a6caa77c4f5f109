"""How far are the allocators from the data-access optimum? (issue 21, our own artifact), in
one module per step: ``spec`` (the compared methods and the sweep), ``platform_view`` (the
compute hosts and hop distances of a platform, from the engine), ``scenarios`` (the seeded
moments), ``placements`` (each method's placement of one moment), ``runs`` (every moment of a
platform placed and scored), ``table`` (the plotted rows and their summary), ``figure``,
``report``. There is no paper number, so no claims step.

At one moment of a seed-000-like machine, a fraction of the compute nodes is busy
and a handful of jobs wait, each with its data on a few nodes' NVM (anywhere on
the machine, busy nodes included: data outlives the jobs that wrote it). Every
method places the jobs; each placement is scored by the data-access cost of
``datasched.policy.placement_optimum`` (bytes x hops, every task reading an equal
share from every holder), reported as **hops per byte** (cost / total bytes):

- ``optimum``: the joint CP-SAT optimum over all waiting jobs;
- ``online optimum``: each job optimal given the previous jobs' hosts, in queue
  order (what a perfect one-job-at-a-time allocator could reach);
- the allocators (``schedulers/alloc_*.py``), each placing the jobs one by one in
  queue order, through the same ``AllocationRequest`` a queue policy sends.

Seed 000 computes no optimum, so there is no paper number to compare: the
report says how close each allocator gets, and where the gap comes from (the
allocator's own criterion, or placing one job at a time).
"""
