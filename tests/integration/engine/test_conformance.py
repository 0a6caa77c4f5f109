"""Conformance with real Batsim 4.2.1 on every shared reference case."""

import pytest

from datasched import conformance
from datasched.runner import run_simulation

CASES = conformance.case_dirs() if conformance.DEFAULT_CASES.is_dir() else []


@pytest.mark.skipif(not CASES, reason="../shared/conformance is not present")
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_is_identical_to_batsim(case, tmp_path):
    result = conformance.check_case(case, tmp_path)
    assert result.identical, "\n".join(result.differences[:20])
    assert result.nb_jobs > 0


def test_justified_cases_exist_and_are_explained():
    names = {c.name for c in CASES}
    for name, reason in conformance.JUSTIFIED_BY_REPLAY.items():
        assert name in names, f"justification for a case that does not exist: {name}"
        assert len(reason) > 100


@pytest.mark.skipif("pfs_contention_filler" not in {c.name for c in CASES}, reason="case absent")
def test_filler_schedule_depends_on_the_process_memory_layout(tmp_path, monkeypatch):
    """Evidence for the justification: only the environment's size changes between
    these runs, yet pybatsim's fillerSched produces different schedules."""
    case = conformance.DEFAULT_CASES / "pfs_contention_filler"
    outputs = set()
    for pad in (1, 5000, 20000):
        monkeypatch.setenv("DATASCHED_PAD", "x" * pad)
        r = run_simulation(case / "platform.xml", case / "workload.json", "fillerSched", tmp_path / str(pad),
                           engine_args=["-r", "pfs0:storage"])
        outputs.add(r.jobs_csv.read_bytes())
    assert len(outputs) > 1
