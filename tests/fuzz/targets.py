"""Fuzz targets of the Python input readers (issue 20).

Each target takes the raw bytes of one input file and runs the same code path as the
command a user would run on that file. The contract it checks: an input is either
accepted or refused with :class:`~datasched.errors.UserError` (the error the CLI prints
as one ``datasched: error: ...`` line). Any other exception escapes the target and is a
crash: a bug to fix in the reader, by the general mechanism.

The targets are run by ``bench/fuzz`` (coverage-guided, with atheris) and by the CI smoke
test ``tests/fuzz/test_fuzz_smoke.py`` (seed corpus plus seeded random mutations, see
:mod:`tests.fuzz.mutate`). Seed corpora live in ``tests/fuzz/corpus/<target>/``.
"""

from __future__ import annotations

import os
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from datasched.errors import UserError

#: Largest generated platform the ``platform_params`` target builds, in hosts: valid
#: parameters for a 10^6-node torus are legal, but building one per fuzz input would
#: measure the generator's speed, not its robustness (the parameters are still validated).
MAX_GENERATED_HOSTS = 300


class _Scratch:
    """One private folder per process for the files the readers open (tmpfs when
    there is one: each input is written once and read back by the reader under test)."""

    def __init__(self) -> None:
        base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        self._dir = Path(tempfile.mkdtemp(prefix="datasched-fuzz-", dir=base))

    def file(self, name: str, data: bytes) -> Path:
        path = self._dir / name
        path.write_bytes(data)
        return path

    def path(self, name: str) -> Path:
        return self._dir / name


_scratch: _Scratch | None = None


def scratch() -> _Scratch:
    global _scratch
    if _scratch is None:
        _scratch = _Scratch()
    return _scratch


def swf(data: bytes) -> None:
    """``datasched workload from-swf``: parse (strict and skip, standard and extended
    lines), clean and convert, write the workload JSON."""
    from datasched.workloads.swf_convert import convert_swf, make_options

    source = scratch().file("trace.swf", data)
    # the first byte picks the reader options, so the fuzzer reaches every mode
    mode = data[0] if data else 0
    options = make_options(
        shift_to_zero=not mode & 4,
        walltime_fallback=("runtime", "max_runtime")[mode >> 3 & 1],
        runtime_over_walltime=("keep", "extend", "clip")[(mode >> 4) % 3],
        cores_per_node=1 + (mode >> 6),
    )
    convert_swf(
        source,
        scratch().path("workload.json"),
        options,
        on_error=("reject", "skip")[mode & 1],
        extra_fields=("reject", "ignore")[mode >> 1 & 1],
    )


def workload_json(data: bytes) -> None:
    """``datasched cpsat-plan``: the Python reader of a Batsim workload JSON."""
    from datasched.optimum.schedule import instance_from_workload

    instance_from_workload(scratch().file("workload.json", data), 4, max_jobs=50)


def platform_xml(data: bytes) -> None:
    """A SimGrid platform XML as the Python side reads it: our structural checks
    (``platforms/validate.py``, which report problems as a list) and the topology reader
    of the locality-aware allocators (``datasched/policy/topology.py``)."""
    from datasched.platforms.validate import check_bytes
    from datasched.policy.topology import coordinates_from_xml

    problems = check_bytes(data)
    if not all(isinstance(p, str) and p for p in problems):
        raise AssertionError(f"check_bytes returned {problems!r}")
    coordinates = coordinates_from_xml(scratch().file("platform.xml", data))
    # the first hosts of every cluster, as a locality-aware allocator asks for them
    for cluster in ET.fromstring(data).iter("cluster"):
        first = cluster.get("radical", "").split(",")[0].split("-")[0]
        if first.isdecimal():
            for number in range(int(first), int(first) + 4):
                coordinates.get(f"{cluster.get('prefix', '')}{number}{cluster.get('suffix', '')}")


def platform_params(data: bytes) -> None:
    """``datasched platform generate --params``: load YAML/JSON, validate, and build
    the platform (when it is small) through the generator's own checks."""
    from datasched.platforms import cli as platform_cli
    from datasched.platforms.generator import generate, parse_params, to_xml
    from datasched.platforms.params import SystemParams

    suffix = ".json" if data[:1] == b"{" else ".yaml"
    path = scratch().file("params" + suffix, data)
    params = parse_params(platform_cli.load_params(path), str(path))
    if isinstance(params, SystemParams):
        hosts = params.interconnect.topology.node_count + params.storage.io_servers
    else:
        hosts = sum(v for k, v in params.model_dump().items() if k in {"clients", "forwarders", "servers"})
        hosts += getattr(params, "staging_servers", 0)
    if hosts <= MAX_GENERATED_HOSTS:
        to_xml(generate(params))


def workflow(data: bytes) -> None:
    """``datasched workload from-workflow``: load a workflow YAML, then convert it to a
    workload with every submission style."""
    from datasched.workflows.convert import workflow_to_workload
    from datasched.workflows.model import load_workflow
    from datasched.workflows.submission import apply_style
    from datasched.workloads.jsonio import dumps

    loaded = load_workflow(scratch().file("workflow.yaml", data))
    last = data[-1] if data else 0
    style = ("as-written", "single-script", "chain", "dependency")[last % 4]
    if style != "as-written":
        loaded = apply_style(loaded, style, "fuzz")
    dumps(workflow_to_workload(loaded, mode=("composed", "phases")[last >> 2 & 1]))


def sweep_config(data: bytes) -> None:
    """``datasched reproduce`` / the Snakefile: load and validate an experiment config."""
    from datasched.analysis.experiment_config import load_config_file

    load_config_file(scratch().file("config.yaml", data))


@dataclass(frozen=True)
class Target:
    name: str
    run: Callable[[bytes], None]
    #: modules whose code atheris instruments for coverage (the readers under test)
    modules: tuple[str, ...]


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(
            "swf", swf, ("datasched.workloads.swf", "datasched.workloads.swf_convert", "datasched.workloads.jsonio")
        ),
        Target("workload_json", workload_json, ("datasched.optimum.schedule",)),
        Target("platform_xml", platform_xml, ("datasched.platforms.validate", "datasched.policy.topology")),
        Target(
            "platform_params",
            platform_params,
            (
                "datasched.platforms.cli",
                "datasched.platforms.generator",
                "datasched.platforms.params",
                "datasched.platforms.system",
                "datasched.platforms.topologies",
                "datasched.platforms.setups",
                "datasched.platforms.validate",
            ),
        ),
        Target(
            "workflow",
            workflow,
            ("datasched.workflows.model", "datasched.workflows.convert", "datasched.workflows.submission"),
        ),
        Target("sweep_config", sweep_config, ("datasched.analysis.experiment_config",)),
    )
}


def run_one(target: Target, data: bytes) -> None:
    """Run one input under the contract: UserError is a clean refusal, anything else
    (including a UserError with an empty or multi-line message) propagates."""
    try:
        target.run(data)
    except UserError as exc:
        message = str(exc)
        if not message or "\n" in message:
            raise AssertionError(f"refusal is not one line: {message!r}") from exc


def corpus_dir(name: str) -> Path:
    return Path(__file__).resolve().parent / "corpus" / name
