"""datasched.engine.run_experiment_mode: the seed artifacts' way into the engine's
stand-alone experiment scenarios. A document its scenario's model refuses never reaches the
engine (one line naming the field); a failing run must surface the engine's own line (the
sweep's log shows it), and leave the experiment beside its outputs."""

import json
from pathlib import Path

import pytest

from datasched.engine import run_experiment_mode
from datasched.errors import UserError
from datasched.scenarios import ScenarioDocumentError

REPO = Path(__file__).resolve().parents[3]
PLATFORM = REPO / "platforms" / "catalog" / "seed003-staging.xml"

pytestmark = pytest.mark.engine


def test_an_unknown_key_is_refused_by_the_model_before_the_engine_starts(tmp_path):
    prefix = tmp_path / "case" / "out"
    with pytest.raises(ScenarioDocumentError, match=r"^qos-staging experiment: no_such_key: Extra inputs"):
        run_experiment_mode("qos-staging", {"no_such_key": 1}, PLATFORM, prefix)
    assert not Path(f"{prefix}_experiment.json").exists()


def test_an_engine_failure_is_the_engines_line_and_keeps_the_experiment(tmp_path):
    """A host the platform lacks: only the engine, with the platform, can tell."""
    prefix = tmp_path / "case" / "out"
    doc = {"transfers": [{"src": "client-000", "dst": "no-such-host", "bytes": 1000}]}
    with pytest.raises(RuntimeError, match=r"transfers\[0\]\.dst: no host 'no-such-host' in platform"):
        run_experiment_mode("qos-staging", doc, PLATFORM, prefix)
    # The document is kept beside the (absent) outputs so the case can be replayed by hand.
    assert json.loads(Path(f"{prefix}_experiment.json").read_text()) == doc


def test_the_scenario_is_named_as_in_the_engines_table():
    with pytest.raises(UserError, match="unknown scenario '--qos-staging' \\(known: io-forwarding, qos-staging"):
        run_experiment_mode("--qos-staging", {}, PLATFORM, Path("unused"))
