"""scripts/local-slurm's command line (the cluster itself is tested by make test-slurm)."""

from __future__ import annotations

import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "local-slurm"


def test_an_unknown_action_prints_the_usage_and_fails():
    done = subprocess.run([str(SCRIPT), "restart"], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert "usage: scripts/local-slurm start|stop|status" in done.stderr


def test_the_script_parses():
    assert subprocess.run(["bash", "-n", str(SCRIPT)], timeout=30, check=False).returncode == 0


def test_the_optional_packages_are_listed_apart_from_the_base_set_up():
    folder = SCRIPT.parent
    lines = (folder / "apt-packages-slurm.txt").read_text().splitlines()
    optional = [line for line in lines if not line.startswith("#")]
    assert optional == ["slurm-wlm", "munge"]
    assert not {"slurm-wlm", "munge"} & set((folder / "apt-packages.txt").read_text().split())
