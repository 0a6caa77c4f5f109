"""datasched.engine.run_experiment_mode: the seed artifacts' way into the engine's
stand-alone experiment modes. A failing case must surface the engine's own line (the
sweep's log shows it), and a good one leave the experiment beside its outputs."""

import json
from pathlib import Path

import pytest

from datasched.engine import run_experiment_mode

REPO = Path(__file__).resolve().parents[3]
PLATFORM = REPO / "platforms" / "catalog" / "seed003-staging.xml"

pytestmark = pytest.mark.engine


def test_an_unknown_key_fails_with_the_engines_message_naming_it(tmp_path):
    prefix = tmp_path / "case" / "out"
    with pytest.raises(RuntimeError, match="no_such_key"):
        run_experiment_mode("--qos-staging", {"no_such_key": 1}, PLATFORM, prefix)
    # The document is kept beside the (absent) outputs so the case can be replayed by hand.
    assert json.loads(Path(f"{prefix}_experiment.json").read_text()) == {"no_such_key": 1}
