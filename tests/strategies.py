"""Hypothesis strategies shared by the test suite (one section per domain)."""

from __future__ import annotations

from hypothesis import strategies as st

# ============================================================ scheduler policies (issue 6)
# Small workloads for the in-memory driver: (nb_hosts, [SimJob]) with integer times so
# results compare exactly with the CP-SAT model.


@st.composite
def sim_workloads(draw, *, max_hosts: int = 8, max_jobs: int = 12, walltimes: str = "any",
                  min_runtime: int = 0, oversized: bool = False):
    """``walltimes``: "exact" (runtime == walltime), "upper" (runtime <= walltime),
    "any" (may exceed: the job is killed at its walltime) or "none" (no walltime)."""
    from datasched.policy.driver import SimJob
    from datasched.policy.events import JobInfo

    nb_hosts = draw(st.integers(1, max_hosts))
    count = draw(st.integers(1, max_jobs))
    jobs = []
    submit = 0
    for index in range(count):
        submit += draw(st.integers(0, 8))
        hosts = draw(st.integers(1, nb_hosts + (1 if oversized else 0)))
        runtime = draw(st.integers(min_runtime, 20))
        if walltimes == "exact":
            walltime: float | None = float(runtime)
        elif walltimes == "upper":
            walltime = float(runtime + draw(st.integers(0, 10)))
        elif walltimes == "none":
            walltime = None
        else:
            walltime = float(draw(st.integers(max(runtime - 5, 0), runtime + 10)))
        jobs.append(SimJob(JobInfo(f"w0!{index}", float(submit), hosts, walltime), float(runtime)))
    return nb_hosts, jobs


allocation_names = st.sampled_from(["sequential", "random", "topology", "contiguous"])
any_subset_allocation_names = st.sampled_from(["sequential", "random", "topology"])
