"""datasched.conformance.compare_energy: Batsim's energy files against ours."""

import shutil

from datasched import conformance

CASE = conformance.DEFAULT_CASES / "energy_sleep"


def _copy_expected(tmp_path):
    for name in ("consumed_energy", "pstate_changes"):
        shutil.copy(CASE / f"expected_{name}.csv", tmp_path / f"out_{name}.csv")


def test_identical_files_have_no_difference(tmp_path):
    _copy_expected(tmp_path)
    assert conformance.compare_energy(CASE, tmp_path) == []


def test_each_kind_of_difference_is_named(tmp_path):
    _copy_expected(tmp_path)
    energy = tmp_path / "out_consumed_energy.csv"
    lines = energy.read_text().splitlines()
    # line 2: "29.058000,88336.320000,s,3040.000000,3040.000000"
    lines[1] = "29.058000,88336.500000,s,3040.000000,3040.000000"  # energy off by 2e-6 relative
    lines[2] = lines[2].replace(",p,", ",e,")  # wrong event type
    lines[3] = lines[3].replace(",NA", ",12.5")  # a number where Batsim writes NA
    energy.write_text("\n".join(lines[:-1]) + "\n")  # and one row missing
    pstates = tmp_path / "out_pstate_changes.csv"
    pstates.write_text(pstates.read_text().replace("29.058,23,-2", "29.058,23,-1", 1))
    diffs = conformance.compare_energy(CASE, tmp_path)
    assert "consumed_energy: 2035 rows != Batsim's 2036" in diffs
    assert "consumed_energy line 2: energy 88336.500000 != Batsim's 88336.320000" in diffs
    assert "consumed_energy line 3: event_type 'e' != Batsim's 'p'" in diffs
    assert "consumed_energy line 4: epower 12.5 != Batsim's NA" in diffs
    assert "pstate_changes line 3: new_pstate '-1' != Batsim's '-2'" in diffs
    assert len(diffs) == 5


def test_tolerance_is_relative(tmp_path):
    _copy_expected(tmp_path)
    energy = tmp_path / "out_consumed_energy.csv"
    energy.write_text(energy.read_text().replace("88336.320000,s", "88336.400000,s", 1))  # 9e-7 relative
    assert conformance.compare_energy(CASE, tmp_path) == []


def test_a_missing_output_is_a_difference(tmp_path):
    assert conformance.compare_energy(CASE, tmp_path) == [
        "consumed_energy: our run wrote no out_consumed_energy.csv",
        "pstate_changes: our run wrote no out_pstate_changes.csv",
    ]
