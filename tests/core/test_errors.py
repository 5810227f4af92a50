"""The checks of a number in range that every option and message uses (`bodoge.errors`)."""

from __future__ import annotations

import math
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bodoge.errors import is_int_in, is_number_in

ANYTHING = st.one_of(
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300),  # past any float
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.none(),
    st.lists(st.integers(), max_size=2),
)


@given(ANYTHING, st.integers(-5, 5), st.integers(0, 10))
def test_an_int_in_range_is_an_int_not_a_bool_within_both_bounds(value: Any, low: int, span: int) -> None:
    high = low + span
    expected = type(value) is int and low <= value <= high
    assert is_int_in(value, low, high) is expected


@given(ANYTHING, st.floats(-5, 5), st.floats(0, 10))
def test_a_number_in_range_is_finite_and_never_a_bool(value: Any, low: float, span: float) -> None:
    high = low + span
    finite = type(value) in (int, float) and abs(value) <= sys.float_info.max and not math.isnan(value)
    expected = finite and low <= value <= high
    assert is_number_in(value, low, high) is expected


def test_the_edges() -> None:
    assert is_int_in(0, 0, 0) and not is_int_in(True, 0, 1) and not is_int_in(1.0, 0, 1)
    assert is_number_in(1, 0, 1) and is_number_in(0.5, 0, 1) and not is_number_in(False, 0, 1)
    assert is_number_in(10.0**300, 0, math.inf)  # no bound above, but an infinity is refused
    assert not is_number_in(math.inf, 0, math.inf) and not is_number_in(math.nan, -math.inf, math.inf)
    # An int past the largest float is no finite float: refused, never an OverflowError.
    assert not is_number_in(10**400, 0, math.inf) and not is_number_in(-(10**400), -math.inf, 0)
    assert not is_int_in(10**400, 0, 10**9) and is_int_in(10**400, 0, 10**401)


def test_a_huge_integer_option_is_a_clear_error() -> None:
    from bodoge import agents
    from bodoge.errors import BadOption

    huge = "9" * 400
    for spec in (f"ismcts:c={huge}", f"ismcts:seconds={huge}", f"ismcts:z={huge}", f"nn:temperature={huge}"):
        with pytest.raises(BadOption):
            agents.make(spec)
