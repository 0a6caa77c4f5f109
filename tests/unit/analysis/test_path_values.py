"""Case paths name their floats exactly (the seed 003 granularity 1048576 read back as 1048580);
a config's relative paths are the repository's."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from datasched.analysis.path_values import number, under_root


@pytest.mark.parametrize("value", [1048576.0, 65536.0, 4.0e9, 0.1, 0.0, 0.03125, 1e-6, 2.5e-4, 123456789.125, 1e20])
def test_number_round_trips(value):
    assert float(number(value)) == value


def test_integral_values_are_written_as_integers():
    assert number(1048576.0) == "1048576"
    assert number(4.0e9) == "4000000000"


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_non_finite_values_cannot_name_a_case(value):
    with pytest.raises(ValueError):
        number(value)


def test_config_paths_are_relative_to_the_root_unless_absolute():
    root = Path("/repo")
    assert under_root("workflows/table4.yaml", root) == Path("/repo/workflows/table4.yaml")
    assert under_root(Path("/data/x.xml"), root) == Path("/data/x.xml")
