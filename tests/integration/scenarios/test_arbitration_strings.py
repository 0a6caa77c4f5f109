"""The arbitration strings of --qos-staging (OpenSM's ``qos_ca_sl2vl`` and ``vl:weight,...``)
are a grammar no JSON Schema states: the model parses them as the C++ reader does
(``std::getline`` on commas, ``std::stoi``, ``std::stod`` with glibc's range errors). Each
string below must be accepted by both or refused by both."""

from __future__ import annotations

import pytest

from datasched.scenarios import ScenarioDocumentError, validate_document
from tests.integration.scenarios.engine_run import error_line, passed_the_reader, read_by_engine

pytestmark = pytest.mark.engine

PAPER = "0,1,2,3,4,5,6,7,15,15,15,15,15,15,15,15"
WEIGHTS = [
    "1:2",
    "1: 2",  # stod skips leading white space
    " 1:2",  # and so does stoi
    "1:2 ",  # a trailing one is left unread
    "1 :2",
    "+1:+2",
    "-0:2",
    "01:2",
    "1:2.5",
    "1:.5",
    "1:5.",
    "1:2e0",
    "1:2e",
    "1:0x10",
    "1:0x.8p1",
    "1:0x1p",
    "1:255",
    "1:255.0000001",
    "1:-0",
    "1:inf",
    "1:nan",
    "1:1e308",
    "1:1e309",
    "1:1e-400",  # underflow: glibc's ERANGE, stod throws
    "1:5e-324",  # the smallest subnormal, inexact: ERANGE
    "1:2.2250738585072014e-308",  # the smallest normal: fine
    "1:0x1p-1074",  # the smallest subnormal, exact: no ERANGE
    "1:0e-400",
    "1:2,",  # getline: a trailing comma adds no item
    "1:2,,3:4",
    "1:2:3",
    "1",
    ":2",
    "",
    "14:1",
    "15:1",
    "1:2,1:4",
]
SL2VL = [
    PAPER,
    PAPER + ",",
    PAPER + ",,",
    " " + PAPER,
    PAPER + " ",
    "+0," + PAPER[2:],
    "-0," + PAPER[2:],
    "00," + PAPER[2:],
    "16," + PAPER[2:],
    PAPER.replace("15", "14"),
    PAPER + ",15",
    PAPER[:-3],
    "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
    "",
]


def _document(arbitration: dict) -> dict:
    # SL0 -> VL0 (high table) and SL1 -> VL1 (low table, weight given or the paper's)
    return {
        "arbitration": {"vlarb_high": "0:40"} | arbitration,
        "transfers": [{"src": "a", "dst": "b", "bytes": 1, "sl": 0}],
    }


def _agree(tmp_path, doc: dict) -> None:
    try:
        validate_document("qos-staging", doc)
        model = True
    except ScenarioDocumentError:
        model = False
    proc = read_by_engine(tmp_path, "qos-staging", doc)
    engine = passed_the_reader(proc)
    assert model == engine, (model, error_line(proc))


@pytest.mark.parametrize("weights", WEIGHTS)
def test_a_weight_string_is_accepted_by_both_or_refused_by_both(tmp_path, weights):
    _agree(tmp_path, _document({"vlarb_low": weights}))


@pytest.mark.parametrize("sl2vl", SL2VL)
def test_an_sl2vl_string_is_accepted_by_both_or_refused_by_both(tmp_path, sl2vl):
    _agree(tmp_path, _document({"sl2vl": sl2vl}))


def test_both_sides_of_each_list_occur():
    """The lists hold strings each side accepts and refuses (checked on the model)."""
    for key, strings in (("vlarb_low", WEIGHTS), ("sl2vl", SL2VL)):
        outcomes = set()
        for text in strings:
            try:
                validate_document("qos-staging", _document({key: text}))
                outcomes.add(True)
            except ScenarioDocumentError:
                outcomes.add(False)
        assert outcomes == {True, False}, key
