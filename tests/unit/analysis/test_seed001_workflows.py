"""Seed 001 Table 4 artifact logic: the config, and the eqs. 1-5 terms of a hand-made run."""

from __future__ import annotations

import pytest

from datasched.analysis.seed001_workflows.claims import claims
from datasched.analysis.seed001_workflows.measure import measure
from datasched.errors import UserError


def test_quick_config_defines_every_style_and_two_nvm_variants():
    from datasched.analysis.experiment_config import load_config_file
    from tests.integration.pipeline.test_pipeline import TEST_CONFIG

    config = load_config_file(TEST_CONFIG.parent / "quick.yaml")
    spec = config.seed001_workflows
    assert spec is not None and spec.workflow.name == "nextgenio_table4.yaml"
    assert spec.styles == ("single-script", "chain", "dependency")
    assert len(spec.runs()) == 3 * 2 * 4  # styles x NVM variants x (unaware, aware, aware+prestage, aware+hold)


def test_config_errors_name_the_key(tmp_path):
    from datasched.analysis.experiment_config import load_config_file
    from tests.integration.pipeline.test_pipeline import TEST_CONFIG

    text = (TEST_CONFIG.parent / "quick.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("styles: [single-script, chain, dependency]", "styles: [telepathy]"))
    with pytest.raises(UserError, match=r"artifacts\.seed001_workflows\.styles"):
        load_config_file(bad)


def write_csv(path, header, rows):
    path.write_text(",".join(header) + "\n" + "".join(",".join(str(v) for v in r) + "\n" for r in rows))


def test_terms_of_a_chained_workflow(tmp_path):
    """Steps 1 -> 2 (chained), 4 nodes each. Step 1 runs [0, 90]; step 2 is submitted by
    step 1 at 90 and starts at 130: T(2,queue) = 130 - 90 = 40, T_all = 130 + 330 - 0 = 460
    = eq. 4's sum (0 + 90) + (40 + 330); R_all eq. 3 = 4 x 90 + 4 x 330 = 1680, eq. 2 =
    4 x 460 = 1840."""
    write_csv(
        tmp_path / "out_jobs.csv",
        ["job_id", "starting_time", "finish_time", "execution_time"],
        [[1, 0, 90, 90], [2, 130, 460, 330], [5, 0, 500, 500]],
    )
    write_csv(
        tmp_path / "out_io.csv",
        ["job_id", "read_phase_seconds", "write_phase_seconds", "compute_phase_seconds"],
        [[1, 10, 30, 50], [2, 30, 120, 180]],
    )
    flow = {"workflow": "wf1"}
    workload = {
        "jobs": [
            {"id": 1, "subtime": 0, "res": 4, "datasched_workflow": flow},
            {"id": 2, "subtime": 0, "res": 4, "datasched_submit_after": [1], "datasched_workflow": flow},
            {"id": 5, "subtime": 0, "res": 2, "datasched_workflow": {"workflow": None}},
        ]
    }
    row = measure(tmp_path, workload, "chain", "nvm", "unaware")
    assert row["t_all"] == 460 and row["t_all_eq"] == 460 and row["t_queue"] == 40
    assert row["t_io"] == 190 and row["t_compute"] == 230
    assert row["r_all_eq3"] == 1680 and row["r_all_eq2"] == 1840
    assert row["makespan"] == 500


def test_table4_claims_are_by_construction_never_reproduced():
    from datasched.analysis.verdicts import VerdictError, Word

    rows = [
        {"policy": "unaware", "nvm": "seed000", "style": "chain", "t_all": 470.0},
        {"policy": "aware", "nvm": "seed000", "style": "chain", "t_all": 280.0},
    ]
    table = claims(rows)
    assert [(v.key, v.judgement.word) for v in table] == [("table4.sums", Word.BY_CONSTRUCTION)]
    assert "1 GB/s" in table[0].judgement.why  # names the input definition
    with pytest.raises(VerdictError):
        claims(rows[:1])  # a missing policy is an error, not a dropped row
