"""engine.listing.first_few: the one "first few and N more" of every message that names things that
may be many (it replaced six private copies and about a dozen inline ones)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cli.live import cap_lists
from engine.data import from_array
from engine.exceptions import DataValidationError
from engine.listing import first_few


def test_few_are_all_shown():
    assert first_few(["a", "b"]) == "a, b"
    assert first_few([]) == ""
    assert first_few(range(6)) == "0, 1, 2, 3, 4, 5"


def test_more_are_counted_with_thousands_separators():
    assert first_few([f"g{i}" for i in range(8)], 3) == "g0, g1, g2 and 5 more"
    assert first_few([f"g{i}" for i in range(2506)], 2) == "g0, g1 and 2,504 more"


def test_quoted_names():
    """Names a user must find in a file are quoted, whatever their type (a numpy string too)."""
    assert first_few(np.array(["TF A", "x"]), 1, quote=True) == "'TF A' and 1 more"


def test_total_when_only_the_first_are_described():
    assert first_few(["'a' (3 of 9 missing)"], total=40) == "'a' (3 of 9 missing) and 39 more"
    assert first_few(["a", "b"], total=2) == "a, b"


def test_semicolon_lists_and_the_live_lines_ellipsis():
    """Items that hold commas are joined by "; " and the tail follows suit; the CLI's live lines
    end in ", ... and N more", which :func:`cap_lists` leaves as it is."""
    assert (
        first_few(["3 cells 'n.d.', 1 cell 'NA'", "x", "y"], 2, sep="; ")
        == "3 cells 'n.d.', 1 cell 'NA'; x; and 1 more"
    )
    said = first_few([f"g{i}" for i in range(12)], 8, ellipsis=True)
    assert said == "g0, g1, g2, g3, g4, g5, g6, g7, ... and 4 more"
    assert cap_lists(said) == said
    assert cap_lists(", ".join(f"g{i}" for i in range(12))) == said


@pytest.mark.parametrize("n", [3, 9])
def test_a_message_uses_it(n):
    """Duplicate names in data: the refusal names the first six, quoted, and counts the rest."""
    names = [f"v{i}" for i in range(n)] * 2
    with pytest.raises(DataValidationError) as err:
        from_array(np.random.default_rng(0).normal(size=(5, 2 * n)), names)
    assert first_few([f"v{i}" for i in range(n)], quote=True) in str(err.value)
    assert ("more" in str(err.value)) == (n > 6)
