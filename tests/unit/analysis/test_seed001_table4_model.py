"""Seed 001 Table 4 as a model prediction: the background load, the scaled workload, the
config's errors and the claims over the sweep (analysis/seed001_workflows/model_*.py)."""

from __future__ import annotations

import pytest

from datasched.analysis.seed001_workflows import model_claims, model_runs, model_spec
from datasched.analysis.verdicts import Word
from datasched.errors import UserError

GOOD = {
    "size_rates": [1e7, 1e9],
    "lustre_bws": [1e8],
    "node_tiers": ["ssd"],
    "styles": ["chain"],
    "load_intensities": [0.0, 0.5],
    "load_seeds": [1, 2],
}


def test_background_load_offers_the_intensity():
    """Offered load = sum(n_i x d_i) / (N x H) -> intensity, since arrivals are Poisson at
    lambda = intensity x N / (E[n] x E[d]) with E[n] = (1 + 8) / 2, E[d] = 100 s: over a long
    horizon (~16 000 jobs) the ratio is within 3 % of the intensity."""
    nodes, horizon = 20, 4e5
    jobs, profiles = model_runs.background_jobs(0.8, 7, horizon, nodes, 1e9)
    offered = sum(j["res"] * profiles[j["profile"]]["phases"][0]["nominal_seconds"] for j in jobs)
    assert offered / (nodes * horizon) == pytest.approx(0.8, rel=0.03)
    assert all(1 <= j["res"] <= model_runs.BACKGROUND_MAX_NODES and 0 <= j["subtime"] < horizon for j in jobs)
    for profile in profiles.values():
        (phase,) = profile["phases"]
        assert phase["kind"] == "compute" and phase["flops"] == pytest.approx(phase["nominal_seconds"] * 1e9)


def test_background_load_is_seeded():
    assert model_runs.background_jobs(0.5, 3, 2000, 20, 1e9) == model_runs.background_jobs(0.5, 3, 2000, 20, 1e9)
    assert model_runs.background_jobs(0.5, 3, 2000, 20, 1e9) != model_runs.background_jobs(0.5, 4, 2000, 20, 1e9)
    assert model_runs.background_jobs(0.0, 3, 2000, 20, 1e9) == ([], {})


def test_workload_scales_sizes_by_the_rate():
    """An I/O phase moves Table 4 seconds x r bytes per node: job 7's write (120 s, 4 nodes)
    at r = 0.1 GB/s is 12 GB per node, its item wf1.job7_output 48 GB over the nodes."""
    from datasched.workflows.model import load_workflow
    from tests.integration.pipeline.test_pipeline import REPO

    workflow = load_workflow(REPO / "workflows" / "nextgenio_table4.yaml")
    p = model_spec.ParamSet(1e8, 1e9, "ssd", "chain", 0.5)
    doc = model_runs.workload(workflow, p, 1, 2000.0)
    write = doc["profiles"]["step7"]["phases"][2]
    assert write["bytes"] == pytest.approx(12e9)
    assert write["items"][0]["bytes"] == pytest.approx(48e9)
    data = {d["name"]: d["bytes"] for d in doc["datasched_data"]}
    assert data["wf1.job7_output"] == pytest.approx(48e9)
    assert all(j["walltime"] == model_runs.NO_WALLTIME for j in doc["jobs"])
    assert any(j["id"] >= model_runs.BACKGROUND_FIRST_ID for j in doc["jobs"])
    assert [(j["subtime"], j["id"]) for j in doc["jobs"]] == sorted((j["subtime"], j["id"]) for j in doc["jobs"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": 1}, r"model: unknown key 'colour'"),
        ({"size_rates": [1e7, -1]}, r"model\.size_rates\[1\]"),
        ({"lustre_bws": []}, r"model\.lustre_bws: expected a non-empty list"),
        ({"node_tiers": ["dram"]}, r"model\.node_tiers\[0\]: unknown tier 'dram'"),
        ({"styles": ["telepathy"]}, r"model\.styles\[0\]"),
        ({"load_intensities": [1.0]}, r"model\.load_intensities"),
        ({"load_seeds": [1.5]}, r"model\.load_seeds"),
        ({"load_horizon": 0}, r"model\.load_horizon"),
    ],
)
def test_bad_model_spec_names_the_key(change, message):
    with pytest.raises(UserError, match=message):
        model_spec.parse_model_spec({**GOOD, **change})


def test_config_error_names_the_model_key(tmp_path):
    from datasched.analysis.experiment_config import load_config_file
    from tests.integration.pipeline.test_pipeline import TEST_CONFIG

    text = (TEST_CONFIG.parent / "quick.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("node_tiers: [ssd, memory]", "node_tiers: [ssd, dram]"))
    with pytest.raises(UserError, match=r"seed001_workflows\.model\.node_tiers"):
        load_config_file(bad)


def _row(name: str, load: float, seed: int, unaware: float, aware: float, wait: float) -> dict:
    return {"set": name, "size_rate": 1e8, "lustre_bw": 1e9, "tier": "ssd", "style": "chain", "load": load,
            "seed": seed, "t_all_unaware": unaware, "t_all_aware": aware, "wait9_unaware": wait}  # fmt: skip


def test_claims_over_the_sweep_and_the_best_set():
    """Set A (no load): 490 s, 280 s, (490 - 280) / 490 = 43 %, wait 0 -> job 9's wait is not
    reproduced there. Set B (load, three seeds): 500/300, 510/310, 520/320 s, waits 18, 20, 22 s
    (95 % interval 20 +- 4.30 x 2 / sqrt(3) = [15.0, 25.0]) -> every claim within 0.5-2x with an
    interval excluding 0: B satisfies all four, so the sweep calls every claim reproduced and B
    is the best set."""
    rows = [
        _row("A", 0.0, 0, 490.0, 280.0, 0.0),
        _row("B", 0.5, 1, 500.0, 300.0, 18.0),
        _row("B", 0.5, 2, 510.0, 310.0, 20.0),
        _row("B", 0.5, 3, 520.0, 320.0, 22.0),
    ]
    est = model_claims.estimates(rows)
    assert est["A"]["aware-reduction"].mean == pytest.approx(210 / 490)
    assert est["B"]["job9-wait"].mean == pytest.approx(20.0) and est["B"]["job9-wait"].n == 3
    assert est["B"]["job9-wait"].low == pytest.approx(20 - 4.303 * 2 / 3**0.5, abs=0.01)
    assert model_claims.best_set(rows) == ("B", [])
    assert {v.key: v.judgement.word for v in model_claims.verdicts(rows)} == {
        "table4.unaware-490": Word.REPRODUCED,
        "table4.aware-280": Word.REPRODUCED,
        "table4.aware-reduction": Word.REPRODUCED,
        "table4.job9-wait": Word.REPRODUCED,
    }
    # without B, job 9 never waits: the best set is A and it fails that claim
    assert model_claims.best_set(rows[:1]) == ("A", ["job9-wait"])
    assert model_claims.verdicts(rows[:1])[3].judgement.word is Word.NOT_REPRODUCED
