"""Seed 002's scheduling section (analysis/seed002/scheduling.py): config, workload, layer
documents and the report section."""

from __future__ import annotations

import pytest

from datasched.analysis.experiment_config import load_config_file
from datasched.analysis.seed002 import scheduling

SPEC = scheduling.SchedulingSpec(
    configurations=("fifo", "twins-8ms"),
    seeds=(1, 2),
    n_apps=4,
    n_phases=5,
    io_bytes=1e6,
    mean_interarrival=2.0,
)


def test_quick_and_full_configs_define_it():
    """Both variants configure the section, quick with fewer runs than full."""
    quick_twins = load_config_file("config/quick.yaml").seed002_twins
    full_twins = load_config_file("config/full.yaml").seed002_twins
    assert quick_twins is not None and full_twins is not None
    quick, full = quick_twins.scheduling, full_twins.scheduling
    assert quick is not None and full is not None
    assert len(quick.runs()) < len(full.runs())


def test_unknown_configuration_is_named():
    with pytest.raises(ValueError, match="lifo"):
        scheduling.parse_scheduling_spec(
            {
                "configurations": ["lifo"],
                "seeds": [1],
                "n_apps": 1,
                "n_phases": 1,
                "io_bytes": 1,
                "mean_interarrival": 0,
            }
        )


def test_workload_keeps_all_io_on_the_san_and_is_seeded():
    """Every application: allocation san, no DRAM hits, san_k among the platform's 1, 2, 4
    servers; the same seed gives the same workload, another seed another one."""
    model = scheduling.workload_model(SPEC, 1)
    assert len(model.applications) == 4
    for app in model.applications:
        assert app.storage.allocation.value == "san"
        assert app.storage.mem_hit_pct == 0
        assert app.storage.san_k in (1, 2, 4)
    again = scheduling.workload_model(SPEC, 1)
    assert [a.states for a in again.applications] == [a.states for a in model.applications]
    other = scheduling.workload_model(SPEC, 2)
    assert [a.states for a in other.applications] != [a.states for a in model.applications]


def test_layer_documents():
    assert scheduling.layer_document(SPEC, "twins-8ms")["window"] == 0.008
    assert scheduling.layer_document(SPEC, "twins-8ms-drain")["drain"] is True
    assert scheduling.layer_document(SPEC, "fifo")["scheduler"] == "fifo"


def test_report_section_says_there_is_no_paper_claim():
    rows = [
        {
            "configuration": c,
            "seed": float(s),
            "jobs": 4.0,
            "completed": 4.0,
            "walltime_reached": 0.0,
            "makespan": 10.0 + s,
            "mean_waiting_time": w + s,
            "mean_turnaround_time": 5.0,
            "mean_slowdown": 1.5,
            "mean_san_seconds": 1.0,
            "san_bytes": 1e6,
        }
        for c, w in (("fifo", 1.0), ("twins-8ms", 3.0))
        for s in (1, 2)
    ]
    text = "\n".join(scheduling.report_section(SPEC, rows))
    assert "no paper claim" in text
    assert "twins-8ms − fifo: +2.00 s ± 0.00" in text
    assert "Not configured" in "\n".join(scheduling.report_section(None, []))
