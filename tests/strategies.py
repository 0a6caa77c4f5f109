"""Hypothesis strategies shared by the test suite, one section per package."""

from __future__ import annotations

from hypothesis import strategies as st

# --------------------------------------------------------------------------- platforms

_positive_bw = st.floats(min_value=1e6, max_value=1e12, allow_nan=False, allow_infinity=False)
_latency = st.one_of(st.just(0.0), st.floats(min_value=1e-9, max_value=1e-3, allow_nan=False, allow_infinity=False))


@st.composite
def platform_topologies(draw):
    """Small but varied interconnects (<= 64 nodes so SimGrid loads them quickly)."""
    from datasched.platforms import DragonflyParams, FatTreeParams, TorusParams

    kind = draw(st.sampled_from(["torus", "fat_tree", "dragonfly"]))
    if kind == "torus":
        dims = draw(st.lists(st.integers(2, 4), min_size=1, max_size=3))
        return TorusParams(dims=tuple(dims))
    if kind == "fat_tree":
        k = draw(st.integers(2, 4))
        levels = draw(st.integers(1, 3 if k <= 3 else 2))
        return FatTreeParams(k=k, levels=levels)
    p, a, h = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 2))
    groups = draw(st.one_of(st.none(), st.integers(2, a * h + 1)))
    valiant = (groups if groups is not None else a * h + 1) >= 3 and draw(st.booleans())
    if valiant:
        return DragonflyParams(p=p, a=a, h=h, groups=groups, routing="valiant", routing_seed=draw(st.integers(0, 99)))
    return DragonflyParams(p=p, a=a, h=h, groups=groups)


@st.composite
def system_params(draw):
    from datasched.platforms import InterconnectParams, NodeParams, StorageNetworkParams, SystemParams

    return SystemParams(
        name=draw(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)),
        storage_mode=draw(st.sampled_from(["unified", "san"])),
        interconnect=InterconnectParams(
            topology=draw(platform_topologies()), link_bw=draw(_positive_bw), link_lat=draw(_latency)
        ),
        node=NodeParams(
            speed=draw(st.floats(1e6, 1e12)),
            cores=draw(st.integers(1, 64)),
            nvm_read_bw=draw(_positive_bw),
            nvm_write_bw=draw(_positive_bw),
            dram_bw=draw(_positive_bw),
        ),
        storage=StorageNetworkParams(
            io_servers=draw(st.integers(1, 16)), node_nic_bw=draw(_positive_bw), backend_lat=draw(_latency)
        ),
    )


@st.composite
def setup_params(draw):
    from datasched.platforms import ForwardingParams, StagingParams

    if draw(st.booleans()):
        return ForwardingParams(
            clients=draw(st.integers(1, 40)),
            forwarders=draw(st.integers(1, 8)),
            servers=draw(st.integers(1, 8)),
            link_bw=draw(_positive_bw),
            hdd_read_bw=draw(_positive_bw),
        )
    return StagingParams(
        clients=draw(st.integers(1, 40)), staging_servers=draw(st.integers(1, 8)), link_bw=draw(_positive_bw)
    )


def platform_params():
    return st.one_of(system_params(), setup_params())


# ============================================================ workloads: SWF records (issue 5)
# Job records whose 18 values survive a write -> parse round trip: integers, or finite
# floats (SWF allows e.g. 552.21 average CPU time); sizes/durations are -1 or >= 0 as
# the parser demands; job numbers unique.

_swf_int = st.integers(min_value=-1, max_value=10**9)
_swf_float = st.floats(min_value=0, max_value=1e9, allow_nan=False, allow_infinity=False)
_swf_value = st.one_of(_swf_int, _swf_float)
_swf_size = st.one_of(st.just(-1), st.integers(min_value=0, max_value=10**6))


@st.composite
def swf_records(draw, max_jobs: int = 30):
    """A list of 18-tuples (SWF job values), unique job numbers."""
    from datasched.workloads.swf import N_FIELDS, NON_NEGATIVE_FIELDS, SwfField

    numbers = draw(st.lists(st.integers(min_value=0, max_value=10**7), unique=True, max_size=max_jobs))
    records = []
    for number in numbers:
        values = [draw(_swf_value) for _ in range(N_FIELDS)]
        values[SwfField.JOB_NUMBER.index] = number
        for field in NON_NEGATIVE_FIELDS:
            values[field.index] = draw(_swf_size)
        records.append(tuple(values))
    return records


swf_header_values = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 .:-", min_size=0, max_size=20).map(str.strip)

# ============================================================ scheduler policies (issue 6)
# Small workloads for the in-memory driver: (nb_hosts, [SimJob]) with integer times so
# results compare exactly with the CP-SAT model.


@st.composite
def sim_workloads(
    draw,
    *,
    max_hosts: int = 8,
    max_jobs: int = 12,
    walltimes: str = "any",
    min_runtime: int = 0,
    oversized: bool = False,
):
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


allocation_names = st.sampled_from(
    ["sequential", "random", "topology", "contiguous", "staging_spread", "staging_bytes"]
)
any_subset_allocation_names = st.sampled_from(["sequential", "random", "topology", "staging_spread", "staging_bytes"])


# --------------------------------------------------------------------------- storage model


@st.composite
def phase_jobs(draw, nodes: int = 4):
    """1-2 small datasched_phases jobs on disjoint nodes of a ``nodes``-node platform:
    a list of (res, profile) whose descriptors are feasible there (devices derivable)."""
    jobs = []
    free = nodes
    for _ in range(draw(st.integers(1, 2))):
        if free == 0:
            break
        res = draw(st.integers(1, min(3, free)))
        free -= res
        allocation = draw(st.sampled_from(["internal", "external", "cache", "san"]))
        if allocation == "external" and nodes - res < 1:
            allocation = "internal"
        k_max = {"internal": res, "external": nodes - res, "cache": res, "san": 2}[allocation]
        staging = allocation != "san" and draw(st.booleans())
        amounts = st.sampled_from([0.0, 1e8, 2.5e8, 1e9])
        phases = draw(
            st.lists(
                st.one_of(
                    st.builds(lambda a: {"kind": "compute", "flops": a * 10}, amounts),
                    st.builds(lambda a: {"kind": "communicate", "bytes": a}, amounts),
                    st.builds(
                        lambda kind, a, n: {"kind": kind, "bytes": a, **({"nodes": n} if n else {})},
                        st.sampled_from(["read", "write"]),
                        amounts,
                        st.integers(0, res),
                    ),
                ),
                min_size=1,
                max_size=4,
            )
        )
        storage = {
            "allocation": allocation,
            "stg_k": res if allocation == "cache" else draw(st.integers(1, k_max)),
            "mem_hit_pct": draw(st.sampled_from([0, 25, 50, 100])),
            "remote_pct": draw(st.sampled_from([0, 30, 100])),
            "access": draw(st.sampled_from(["disperse", "affinity", "local"])),
            "san_k": draw(st.integers(1, 2)),
        }
        if staging:
            storage["stage_in_bytes"] = draw(amounts)
            storage["stage_out_bytes"] = draw(amounts)
        io_tasks = draw(st.integers(1, res))
        for phase in phases:
            phase["nominal_seconds"] = 0
            if phase["kind"] == "communicate":
                phase["pattern"] = "all_to_all"
        jobs.append(
            (
                res,
                {
                    "type": "datasched_phases",
                    "version": 1,
                    "res": res,
                    "io_tasks": io_tasks,
                    "storage": storage,
                    "phases": phases,
                },
            )
        )
    return jobs


# ============================================================ workflows: WfCommons instances (issue 14)
# Small WfFormat 1.5 documents whose tasks only depend on earlier tasks (a DAG) and whose
# files are written by at most one task and read only by later tasks.


@st.composite
def wfformat_instances(draw, max_tasks: int = 8):
    n = draw(st.integers(1, max_tasks))
    names = [f"t{i}" for i in range(n)]
    parents = [sorted(set(draw(st.lists(st.sampled_from(names[:i]), max_size=3)))) if i else [] for i in range(n)]
    sizes = st.floats(min_value=0, max_value=1e10, allow_nan=False, allow_infinity=False)
    files: dict[str, float] = {}
    inputs: list[list[str]] = [[] for _ in range(n)]
    outputs: list[list[str]] = [[] for _ in range(n)]
    for f in range(draw(st.integers(0, 2 * n))):
        name = f"f{f}"
        files[name] = draw(sizes)
        producer = draw(st.one_of(st.none(), st.integers(0, n - 1)))
        readers = range(0 if producer is None else producer + 1, n)
        if producer is not None:
            outputs[producer].append(name)
        if readers:
            inputs_of = draw(st.lists(st.sampled_from(list(readers)), max_size=3, unique=True))
            for r in inputs_of:
                inputs[r].append(name)
        if producer is None and not any(name in i for i in inputs):
            inputs[draw(st.integers(0, n - 1))].append(name)
    runtimes = draw(st.lists(st.floats(0, 1e4, allow_nan=False), min_size=n, max_size=n))
    cores = draw(st.lists(st.integers(1, 8), min_size=n, max_size=n))
    return {
        "name": "generated",
        "schemaVersion": "1.5",
        "workflow": {
            "specification": {
                "tasks": [
                    {
                        "name": names[i],
                        "id": names[i],
                        "parents": parents[i],
                        "children": [names[j] for j in range(n) if names[i] in parents[j]],
                        "inputFiles": inputs[i],
                        "outputFiles": outputs[i],
                    }
                    for i in range(n)
                ],
                "files": [{"id": k, "sizeInBytes": v} for k, v in files.items()],
            },
            "execution": {
                "makespanInSeconds": 1.0,
                "tasks": [{"id": names[i], "runtimeInSeconds": runtimes[i], "coreCount": cores[i]} for i in range(n)],
            },
        },
    }
