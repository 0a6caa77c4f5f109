"""Seed-000 Markov generator: phase mix vs transition probabilities, Table 1 ranges,
determinism, and the emitted profiles."""

from __future__ import annotations

import json

import numpy as np
import pytest

from datasched.errors import UserError
from datasched.workloads import markov
from datasched.workloads.markov import (
    SAN_K_CHOICES,
    SINGLE_APP_SWEEPS,
    MultiApplicationParams,
    SingleApplicationParams,
    State,
    generate,
    generate_from_seed,
    parse_params,
    to_document,
    transition_matrix,
)
from datasched.workloads.phases import (
    EMBEDDED_PHASES_FIELD,
    AccessType,
    StorageAllocation,
    validate_phase_profile,
)

BATSIM_TYPES = {
    "delay",
    "parallel",
    "parallel_homogeneous",
    "parallel_homogeneous_total",
    "composed",
    "parallel_homogeneous_pfs",
    "data_staging",
}

#: Stated tolerance of the statistical tests: absolute difference of proportions.
#: With n draws a proportion's standard deviation is sqrt(p(1-p)/n); the sample sizes
#: below make the tolerance at least 4.5 standard deviations (and the seed is fixed,
#: so the test is deterministic, not flaky).
TOLERANCE = 0.02


def test_transition_rows_follow_table1():
    matrix = transition_matrix(0.25, 0.5, 0.5)
    for state in (State.INIT, State.COMP, State.COMM, State.READ, State.WRITE):
        row = matrix[state]
        assert sum(row.values()) == pytest.approx(1.0)
        assert row[State.COMP] + row[State.COMM] == pytest.approx(0.25)  # Prob(C/C)
        assert row[State.READ] + row[State.WRITE] == pytest.approx(0.75)  # Prob(I/O) = 1 - Prob(C/C)
        assert row[State.READ] == pytest.approx(0.375)


def test_single_application_phase_mix_is_75_percent_io():
    # 50 applications x 200 phases = 10,000 draws: sd(0.75) = 0.0043, tolerance 0.02 = 4.6 sd
    states: list[str] = []
    for seed in range(50):
        params = SingleApplicationParams(seed=seed, sizes={"n_phases": 200})
        states.extend(generate_from_seed(params).applications[0].states)
    n = len(states)
    assert n == 10_000
    io = sum(s in (State.READ, State.WRITE) for s in states) / n
    assert abs(io - 0.75) <= TOLERANCE
    for state, expected in ((State.COMP, 0.125), (State.COMM, 0.125), (State.READ, 0.375), (State.WRITE, 0.375)):
        assert abs(states.count(state) / n - expected) <= TOLERANCE, state


@pytest.mark.parametrize("prob_cc, read_share", [(0.0, 0.5), (0.6, 0.9), (1.0, 0.5)])
def test_phase_mix_follows_other_probabilities(prob_cc, read_share):
    params = SingleApplicationParams(seed=7, prob_cc=prob_cc, sizes={"n_phases": 10_000, "read_share": read_share})
    states = generate_from_seed(params).applications[0].states
    cc = sum(s in (State.COMP, State.COMM) for s in states) / len(states)
    assert abs(cc - prob_cc) <= TOLERANCE
    io = [s for s in states if s in (State.READ, State.WRITE)]
    if io:
        assert abs(sum(s is State.READ for s in io) / len(io) - read_share) <= TOLERANCE


def test_multi_application_mix_tracks_each_apps_drawn_probability():
    model = generate_from_seed(MultiApplicationParams(seed=11, max_tasks=512, n_apps=50, sizes={"n_phases": 2000}))
    # per app: 2000 draws, sd <= 0.0112, tolerance 0.05 = 4.5 sd
    for app in model.applications:
        io = sum(s in (State.READ, State.WRITE) for s in app.states) / len(app.states)
        assert abs(io - (1 - app.prob_cc)) <= 0.05, app.app_id


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("max_tasks", [1, 64, 512, 600])
def test_multi_application_parameters_stay_inside_table1_ranges(seed, max_tasks):
    params = MultiApplicationParams(seed=seed, max_tasks=max_tasks, sizes={"n_phases": 5})
    model = generate_from_seed(params)
    assert len(model.applications) == 50
    doc = to_document(model)
    for app, job in zip(model.applications, doc["jobs"], strict=True):
        assert 0.0 <= app.prob_cc <= 1.0
        drawn = job["datasched_app"]
        assert drawn["prob_io"] == pytest.approx(1 - drawn["prob_cc"])
        assert 1 <= app.tasks <= max_tasks  # Tasks in [1, Exp]
        assert 1 <= app.io_tasks <= app.tasks  # I/O tasks in [1, Tasks]
        storage = app.storage
        assert storage.allocation in set(StorageAllocation)  # Internal, External, Cache, SAN
        assert 1 <= storage.stg_k <= app.tasks  # STG-k in [1, Tasks]
        if storage.allocation is StorageAllocation.CACHE:
            assert storage.stg_k == app.tasks  # "with Cache, k is the size of the application"
        assert 0 <= storage.mem_hit_pct <= 100
        assert 0 <= storage.remote_pct <= 100
        assert storage.access in set(AccessType)  # D, A, L
        assert storage.san_k in SAN_K_CHOICES  # 1, 2, 4, ..., 64
        assert job["res"] == app.tasks and doc["nb_res"] == max_tasks


def test_multi_application_draws_cover_the_ranges():
    model = generate_from_seed(MultiApplicationParams(seed=3, max_tasks=64, n_apps=400, sizes={"n_phases": 1}))
    apps = model.applications
    assert {a.storage.allocation for a in apps} == set(StorageAllocation)
    assert {a.storage.access for a in apps} == set(AccessType)
    assert {a.storage.san_k for a in apps} == set(SAN_K_CHOICES)
    assert min(a.tasks for a in apps) <= 4 and max(a.tasks for a in apps) >= 60
    assert min(a.prob_cc for a in apps) < 0.05 and max(a.prob_cc for a in apps) > 0.95


def test_single_application_defaults_are_table1_single_column_values():
    params = SingleApplicationParams(seed=0)
    for key, allowed in SINGLE_APP_SWEEPS.items():
        value = {"stg_k": params.effective_stg_k, "io_tasks": params.effective_io_tasks}.get(key, getattr(params, key))
        assert value in allowed, key
    cache = SingleApplicationParams(seed=0, allocation="cache", tasks=72, io_tasks=64)
    assert cache.effective_stg_k == 72


@pytest.mark.parametrize(
    "bad, key",
    [
        ({"prob_cc": 1.5}, "prob_cc"),
        ({"tasks": 8, "io_tasks": 9}, "io_tasks"),
        ({"tasks": 8, "stg_k": 9}, "stg_k"),
        ({"allocation": "cache", "tasks": 8, "stg_k": 2}, "stg_k"),
        ({"mem_hit_pct": 101}, "mem_hit_pct"),
        ({"remote_pct": -1}, "remote_pct"),
        ({"access": "X"}, "access"),
        ({"allocation": "tape"}, "allocation"),
        ({"colour": 1}, "colour"),
        ({"sizes": {"n_phases": 0}}, "n_phases"),
    ],
)
def test_out_of_range_single_parameters_are_rejected_by_name(bad, key):
    with pytest.raises(UserError, match=key):
        parse_params({"seed": 1, **bad})


def test_multi_parameters_reject_non_positive_san_k():
    with pytest.raises(UserError, match="san_k_choices"):
        parse_params({"kind": "multi", "seed": 1, "max_tasks": 8, "san_k_choices": [0]})
    wide = parse_params({"kind": "multi", "seed": 1, "max_tasks": 8, "san_k_choices": [128]})
    assert isinstance(wide, markov.MultiApplicationParams) and wide.san_k_choices == (128,)


def test_io_volume_staging_stages_the_device_bytes_of_reads_in_and_writes_out():
    """Per app: stage_in = io_tasks x io_bytes x (1 - mem_hit/100) x (read phases), and
    likewise for writes; none for SAN applications; the same draws as without staging."""
    base = {"kind": "multi", "seed": 4, "max_tasks": 16, "n_apps": 12}
    plain = generate_from_seed(parse_params(base)).applications
    staged = generate_from_seed(parse_params({**base, "staging": "io_volume"})).applications
    assert [a.states for a in plain] == [a.states for a in staged]
    for app in staged:
        s = app.storage
        if s.allocation.value == "san":
            assert s.stage_in_bytes == 0 and s.stage_out_bytes == 0
            continue
        share = app.io_tasks * app.sizes.io_bytes * (1 - s.mem_hit_pct / 100)
        assert s.stage_in_bytes == pytest.approx(share * sum(p.kind.value == "read" for p in app.phases))
        assert s.stage_out_bytes == pytest.approx(share * sum(p.kind.value == "write" for p in app.phases))
    assert any(a.storage.stage_in_bytes > 0 for a in staged)
    dataset = generate_from_seed(parse_params({**base, "staging": "dataset"})).applications
    for app, upper in zip(dataset, staged, strict=True):
        s = app.storage
        share = app.io_tasks * app.sizes.io_bytes * (1 - s.mem_hit_pct / 100)
        has_read = any(p.kind.value == "read" for p in app.phases) and s.allocation.value != "san"
        assert s.stage_in_bytes == pytest.approx(share if has_read else 0.0)
        assert s.stage_in_bytes <= upper.storage.stage_in_bytes + 1e-6
    with pytest.raises(UserError, match="kind"):
        parse_params({"kind": "many", "seed": 1})


def test_same_seed_same_bytes_different_seed_different_bytes(tmp_path):
    params = MultiApplicationParams(seed=42, max_tasks=128, sizes={"n_phases": 20})
    paths = [tmp_path / f"{i}.json" for i in range(3)]
    markov.write(generate_from_seed(params), paths[0])
    markov.write(generate(params, np.random.default_rng(42)), paths[1])
    markov.write(generate_from_seed(params.model_copy(update={"seed": 43})), paths[2])
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert paths[0].read_bytes() != paths[2].read_bytes()
    doc = json.loads(paths[0].read_text())
    assert doc["datasched_meta"]["seed"] == 42
    assert doc["datasched_meta"]["params"]["max_tasks"] == 128


def test_composed_output_uses_only_batsim_types_and_carries_the_phases():
    model = generate_from_seed(MultiApplicationParams(seed=5, max_tasks=32, n_apps=10, sizes={"n_phases": 30}))
    doc = to_document(model, profile_mode="composed")
    assert {p["type"] for p in doc["profiles"].values()} <= BATSIM_TYPES
    for job, app in zip(doc["jobs"], model.applications, strict=True):
        assert isinstance(job["id"], int)
        composed = doc["profiles"][job["profile"]]
        assert composed["type"] == "composed"
        assert all(name in doc["profiles"] for name in composed["seq"])
        exact = composed[EMBEDDED_PHASES_FIELD]
        validate_phase_profile(exact)
        assert [p["kind"] for p in exact["phases"]] == [markov.STATE_TO_PHASE[s].value for s in app.states]
        assert exact["res"] == app.tasks and exact["io_tasks"] == app.io_tasks
        assert job["walltime"] >= job["datasched_app"]["nominal_seconds"]


def test_phases_mode_emits_only_phase_profiles():
    model = generate_from_seed(MultiApplicationParams(seed=5, max_tasks=32, n_apps=10, sizes={"n_phases": 30}))
    doc = to_document(model, profile_mode="phases")
    assert len(doc["profiles"]) == 10
    for profile in doc["profiles"].values():
        validate_phase_profile(profile)


def test_poisson_arrivals_are_increasing_and_seeded():
    params = MultiApplicationParams(seed=9, max_tasks=16, mean_interarrival=60.0, sizes={"n_phases": 2})
    times = [a.subtime for a in generate_from_seed(params).applications]
    assert times[0] == 0.0 and times == sorted(times) and times[-1] > 0
    assert abs(np.mean(np.diff(times)) - 60.0) < 30.0  # 49 gaps: loose sanity bound
