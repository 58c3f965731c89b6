"""engine.data: the Dataset type and from_array (copying, standardization, names, notes).

Loading files and DataFrames is tested in test_io.py. Every bad input must raise DataValidationError
with a message that names the problem, and the caller's data must come out untouched.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine._validation import identical_columns
from engine.data import from_array
from engine.exceptions import DataValidationError


@settings(max_examples=50, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(3, 12), st.integers(1, 4)),
        elements=st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False),
    )
)
def test_original_values_round_trip(values):
    spread = values.max(axis=0) - values.min(axis=0)
    if (spread < 1e-3).any():  # constant columns are rejected, tested elsewhere
        return
    ds = from_array(values)
    np.testing.assert_allclose(ds.original_values(), values, rtol=1e-9, atol=1e-9)


def test_from_array_copies_callers_array():
    values = np.array([[1.0, 2.0], [3.0, 1.0], [5.0, 9.0], [0.0, 4.0]])
    before = values.copy()
    ds = from_array(values, ["p", "q"])
    np.testing.assert_array_equal(values, before)
    assert values.flags.writeable  # the caller's array is not frozen
    values[0, 0] = 100.0
    assert ds.original_values()[0, 0] == pytest.approx(1.0)


def test_duplicate_names_named():
    with pytest.raises(DataValidationError, match=r"duplicate variable name\(s\) 'x'"):
        from_array(np.arange(8.0).reshape(4, 2) ** 2, ["x", "x"])


def test_wrong_number_of_names():
    with pytest.raises(DataValidationError, match="3 names for 2 columns"):
        from_array(np.arange(6.0).reshape(3, 2), ["x", "y", "z"])


def test_identical_columns_grouped_with_missing_cells():
    nan = np.nan
    values = np.array([[1.0, 2.0, 1.0, nan], [4.0, nan, 4.0, 3.0], [7.0, 9.0, 7.0, 2.0], [2.0, 5.0, 2.0, 5.0]])
    values = np.column_stack([values, values[:, 1]])
    assert identical_columns(values) == [[0, 2], [1, 4]]
    assert identical_columns(values[:, :1]) == []
    ds = from_array(values[:, :4], list("abcd"), standardize=False)
    assert ds.notes == ("variables 'a', 'c' have identical values: each explains the other exactly (drop the copies)",)
