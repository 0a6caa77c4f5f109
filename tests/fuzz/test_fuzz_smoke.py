"""CI smoke of the Python fuzz targets (issue 20): each target's seed corpus plus a few
thousand seeded mutations must keep the contract of tests/fuzz/targets.py (accepted, or
refused with a one-line UserError). The same inputs on every run (seed 1), so a failure
names a reproducible input. bench/fuzz runs the coverage-guided version (atheris); the
engine's targets have their smoke in ctest (fuzz_smoke_*, sim/fuzz/CMakeLists.txt)."""

from __future__ import annotations

import pytest

from tests.fuzz.mutate import smoke_inputs
from tests.fuzz.targets import TARGETS, corpus_dir, run_one

#: mutations per target: the cheap readers get more, so that each target costs at most
#: about 3 s of CPU on the 2-core VM (measured rates: 550 to 15,000 inputs per CPU second)
MUTATIONS = {
    "swf": 3000,
    "workload_json": 5000,
    "platform_xml": 5000,
    "platform_params": 1500,
    "workflow": 1000,
    "sweep_config": 1000,
}


def test_every_target_has_a_smoke_budget_and_seeds():
    assert set(MUTATIONS) == set(TARGETS)
    for name in TARGETS:
        assert len(list(corpus_dir(name).iterdir())) >= 3, name


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz_smoke(name):
    target = TARGETS[name]
    seeds = [p.read_bytes() for p in sorted(corpus_dir(name).iterdir())]
    for index, data in enumerate(smoke_inputs(seeds, MUTATIONS[name], seed=1)):
        try:
            run_one(target, data)
        except Exception as exc:
            pytest.fail(f"{name}: input #{index} {data[:200]!r} crashed the reader: {type(exc).__name__}: {exc}")
