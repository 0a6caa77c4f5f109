"""The pipeline config is rejected before anything runs, with the key named."""

import copy
from pathlib import Path

import pytest
import yaml

from datasched.analysis.experiment_config import NO_SEED, REPO_ROOT, Run, load_config, load_config_file
from datasched.errors import UserError

pytest.importorskip("datasched.policy.registry")

TEST_CONFIG = REPO_ROOT / "config" / "test.yaml"


@pytest.fixture
def config() -> dict:
    return yaml.safe_load(TEST_CONFIG.read_text())


def rejected(data: dict) -> str:
    with pytest.raises(UserError) as info:
        load_config(data, source="cfg.yaml")
    return str(info.value)


@pytest.mark.parametrize("name", ["quick", "full", "test"])
def test_shipped_configs_are_valid(name):
    exp = load_config_file(REPO_ROOT / "config" / f"{name}.yaml")
    assert exp.variant == name
    assert exp.all_runs()


def test_unknown_top_level_key_is_named(config):
    config["resutls_dir"] = "x"
    assert "cfg.yaml" in (msg := rejected(config)) and "resutls_dir: unknown key" in msg


def test_unknown_nested_key_is_named_with_its_path(config):
    config["artifacts"]["policies_on_traces"]["seed"] = [1]
    assert "artifacts.policies_on_traces.seed: unknown key" in rejected(config)


def test_negative_node_count_is_named(config):
    config["traces"]["hpc2n"]["nodes"] = -240
    assert "traces.hpc2n.nodes: -240 is less than the minimum of 1" in rejected(config)


def test_unknown_policy_name_is_named(config):
    config["artifacts"]["policies_on_traces"]["policies"] = ["fcfs", "eazy"]
    msg = rejected(config)
    assert "artifacts.policies_on_traces.policies[1]" in msg and "'eazy'" in msg and "easy" in msg


def test_unknown_allocation_name_is_named(config):
    config["artifacts"]["policies_on_traces"]["allocations"] = ["locality"]
    assert "artifacts.policies_on_traces.allocations[0]: unknown allocation policy 'locality'" in rejected(config)


def test_bad_platform_parameter_is_named(config):
    config["traces"]["hpc2n"]["platform"]["interconnect"]["topology"]["dims"] = [4, 4, 4]
    assert "traces.hpc2n.platform" in (msg := rejected(config)) and "node_count" in msg


def test_bad_conversion_option_is_named(config):
    config["traces"]["hpc2n"]["conversion"]["max_jobz"] = 3
    assert "traces.hpc2n.conversion" in (msg := rejected(config)) and "max_jobz" in msg


def test_undefined_trace_reference_is_named(config):
    config["artifacts"]["policies_on_traces"]["traces"] = ["hpc2n", "sdsc"]
    assert "artifacts.policies_on_traces.traces[1]: unknown trace 'sdsc'" in rejected(config)


def test_every_violation_is_reported_at_once(config):
    broken = copy.deepcopy(config)
    broken["traces"]["hpc2n"]["nodes"] = 0
    broken["bogus"] = 1
    msg = rejected(broken)
    assert "traces.hpc2n.nodes" in msg and "bogus" in msg


def test_runs_expand_seeds_only_for_stochastic_allocators(config):
    runs = load_config(config).all_runs()
    assert Run("hpc2n", "easy", "sequential", NO_SEED) in runs
    assert Run("hpc2n", "easy", "random", "2") in runs
    assert len(runs) == 2 * (1 + 2)  # 2 policies x (sequential once + random x 2 seeds)
    assert len({r.path for r in runs}) == len(runs)


def test_run_path_and_options_encode_parameters():
    run = Run("hpc2n", "easy", "random", "7")
    assert run.path == "trace=hpc2n/policy=easy/allocation=random/seed=7"
    assert run.scheduler_options == {"allocation": {"name": "random", "seed": 7}}
    assert Run("t", "fcfs", "sequential", NO_SEED).scheduler_options == {"allocation": "sequential"}


def test_relative_paths_resolve_against_the_repository(config):
    exp = load_config(config)
    assert exp.results_dir == REPO_ROOT / "results" / "test"
    assert exp.traces["hpc2n"].swf.is_file()
    assert isinstance(exp.traces["hpc2n"].swf, Path)


@pytest.mark.parametrize("policy", ["np", "fp", "ba:75", "weights:ipc=3,storage=1"])
def test_traffic_policy_is_passed_to_the_simulations(policy):
    import yaml

    from tests.conftest import REPO

    data = yaml.safe_load((REPO / "config" / "test.yaml").read_text())
    assert load_config({**data, "traffic_policy": policy}).traffic_policy == policy
    assert load_config(data).traffic_policy == "none"


@pytest.mark.parametrize("policy", ["nope", "ba:", "ba:x", "weights:ipc=1"])
def test_a_malformed_traffic_policy_is_refused_by_name(policy):
    import yaml

    from tests.conftest import REPO

    data = yaml.safe_load((REPO / "config" / "test.yaml").read_text())
    with pytest.raises(UserError, match="traffic_policy"):
        load_config({**data, "traffic_policy": policy})
