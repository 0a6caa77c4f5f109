"""Hypothesis strategies shared by the test suite (one section per domain)."""

from __future__ import annotations

from hypothesis import strategies as st

# ============================================================ workloads: SWF records (issue 5)
# Job records whose 18 values survive a write -> parse round trip: integers, or finite
# floats (SWF allows e.g. 552.21 average CPU time); sizes/durations are -1 or >= 0 as
# the parser demands; job numbers unique.

_swf_int = st.integers(min_value=-1, max_value=10**9)
_swf_float = st.floats(min_value=0, max_value=1e9, allow_nan=False, allow_infinity=False)
_swf_value = st.one_of(_swf_int, _swf_float)
_swf_size = st.one_of(st.just(-1), st.integers(min_value=0, max_value=10**6))


@st.composite
def swf_records(draw, max_jobs: int = 30):
    """A list of 18-tuples (SWF job values), unique job numbers."""
    from datasched.workloads.swf import NON_NEGATIVE_FIELDS, N_FIELDS, SwfField

    numbers = draw(st.lists(st.integers(min_value=0, max_value=10**7), unique=True, max_size=max_jobs))
    records = []
    for number in numbers:
        values = [draw(_swf_value) for _ in range(N_FIELDS)]
        values[SwfField.JOB_NUMBER.index] = number
        for field in NON_NEGATIVE_FIELDS:
            values[field.index] = draw(_swf_size)
        records.append(tuple(values))
    return records


swf_header_values = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 .:-", min_size=0, max_size=20).map(str.strip)
