"""The conformance comparers of the energy files (OUTPUT_KINDS' consumed_energy and
pstate_changes), on Batsim's own files of the energy_sleep case."""

import shutil

from datasched import conformance

CASE = conformance.DEFAULT_CASES / "energy_sleep"
KINDS = {kind.name: kind for kind in conformance.OUTPUT_KINDS}
ENERGY_KINDS = ("consumed_energy", "pstate_changes")


def _copy_expected(tmp_path):
    for name in ENERGY_KINDS:
        shutil.copy(CASE / KINDS[name].reference, tmp_path / KINDS[name].output())


def _compare(name, tmp_path):
    kind = KINDS[name]
    return kind.compare(CASE / kind.reference, tmp_path / kind.output())


def test_identical_files_have_no_difference(tmp_path):
    _copy_expected(tmp_path)
    assert all(_compare(name, tmp_path) == [] for name in ENERGY_KINDS)


def test_each_kind_of_difference_is_named(tmp_path):
    _copy_expected(tmp_path)
    energy = tmp_path / "out_consumed_energy.csv"
    lines = energy.read_text().splitlines()
    # row 1: "29.058000,88336.320000,s,3040.000000,3040.000000"
    lines[1] = "29.058000,88336.500000,s,3040.000000,3040.000000"  # energy off by 2e-6 relative
    lines[2] = lines[2].replace(",p,", ",e,")  # wrong event type
    lines[3] = lines[3].replace(",NA", ",12.5")  # a number where Batsim writes NA
    energy.write_text("\n".join(lines[:-1]) + "\n")  # and one row missing
    pstates = tmp_path / "out_pstate_changes.csv"
    pstates.write_text(pstates.read_text().replace("29.058,23,-2", "29.058,23,-1", 1))
    assert _compare("consumed_energy", tmp_path) == [
        "2035 rows != Batsim's 2036",
        "row 1: energy 88336.500000 != Batsim's 88336.320000",
        "row 2: event_type e != Batsim's p",
        "row 3: epower 12.5 != Batsim's NA",
    ]
    assert _compare("pstate_changes", tmp_path) == ["row 2: new_pstate -1 != Batsim's -2"]


def test_tolerance_is_relative(tmp_path):
    """88336.40 against 88336.32: 9e-7 relative, within max(1, |Batsim's|) x 1e-6."""
    _copy_expected(tmp_path)
    energy = tmp_path / "out_consumed_energy.csv"
    energy.write_text(energy.read_text().replace("88336.320000,s", "88336.400000,s", 1))
    assert _compare("consumed_energy", tmp_path) == []


def test_a_missing_output_is_a_difference(tmp_path):
    for name in ("jobs", "schedule", "machine_states"):
        shutil.copy(CASE / KINDS[name].reference, tmp_path / KINDS[name].output())
    result = conformance.compare_outputs(CASE, tmp_path)
    assert result.files == {
        "jobs": "identical",
        "schedule": "identical",
        "machine_states": "identical",
        "consumed_energy": "missing",
        "pstate_changes": "missing",
    }
    assert result.differences == [
        "consumed_energy: out_consumed_energy.csv was not written",
        "pstate_changes: out_pstate_changes.csv was not written",
    ]
