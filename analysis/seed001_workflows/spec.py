"""Seed 001 Table 4 step 1, the specification: the compared variants of the ``workflow`` policy,
the paper's T_all for each, the swept node NVM rates and submission styles
(``artifacts.seed001_workflows`` of a config), and the model runs' sweep beside them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasched.analysis.path_values import under_root
from datasched.analysis.seed001_workflows.model_spec import ModelSpec, parse_model_spec

#: the compared variants of schedulers/workflow.py: name -> its options (everything else equal)
POLICY_OPTIONS: dict[str, dict[str, bool]] = {
    "unaware": {"data_aware": False},
    "aware": {"data_aware": True},
    "aware+prestage": {"data_aware": True, "prestage": True, "post_move": True},
    "aware+hold": {"data_aware": True, "hold": True},
}
POLICIES = tuple(POLICY_OPTIONS)
#: the paper's T_all per variant: 490 s data-unaware, 280 s data-aware (its section 4.1
#: names pre-loading and post-moving as a further optimisation it does not evaluate)
PAPER_T_ALL = {p: 490.0 if p == "unaware" else 280.0 for p in POLICIES}


@dataclass(frozen=True)
class NvmVariant:
    """Node NVM rates (B/s) of one bookkeeping platform: the swept assumption."""

    name: str
    read_bw: float
    write_bw: float
    note: str = ""


@dataclass(frozen=True)
class Seed001Spec:
    workflow: Path
    styles: tuple[str, ...]
    nvm_variants: tuple[NvmVariant, ...]
    walltime_factor: float = 10.0
    #: Table 4 as a model prediction (model_spec.py and the other model_* modules); None: bookkeeping only
    model: ModelSpec | None = None

    def runs(self) -> list[tuple[str, NvmVariant, str]]:
        return [(s, v, p) for v in self.nvm_variants for s in self.styles for p in POLICIES]


def parse_spec(data: Mapping[str, Any], repo_root: Path) -> Seed001Spec:
    """The config section (validated against config/schema.json before)."""
    return Seed001Spec(
        workflow=under_root(data["workflow"], repo_root),
        styles=tuple(str(s) for s in data["styles"]),
        nvm_variants=tuple(
            NvmVariant(str(v["name"]), float(v["read_bw"]), float(v["write_bw"]), str(v.get("note", "")))
            for v in data["nvm_variants"]
        ),
        walltime_factor=float(data.get("walltime_factor", 10.0)),
        model=parse_model_spec(data["model"]) if "model" in data else None,
    )
