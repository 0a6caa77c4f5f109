"""Offline optimisation: the CP-SAT schedule of a workload (``schedule``: the model, its options
and the solve, with warm starts and proofs) and the bounds that certify it (``bounds``:
combinatorial; ``lagrangian``: the time-indexed relaxation; ``branching``: threshold branching on
the time-indexed model; ``warmstart``: the best heuristic schedule). Kept apart from
``datasched.policy`` (the framework online policies are written in): an offline baseline sees the
whole workload at once and decides nothing during a simulation; ``schedulers/replay.py`` replays
its plan."""
