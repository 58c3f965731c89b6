"""The regulator list's header detection (engine.io.regulators.header_line) on lists that are not
tables: a one-column list exported with a separator after each name (``GAL4,``, a spreadsheet's
trailing empty cell) is a list, so an unmeasured first gene is a name, not a header."""

from __future__ import annotations

import warnings

from engine.io.regulators import header_line, read_regulators

DATA = ["tf0", "tf1", "tf2", "tf3", "g4"]


def test_trailing_separators_do_not_make_a_table():
    assert header_line("GAL4,\ntf0,\ntf1,\ntf2,\n", DATA) is None
    assert header_line("GAL4\t\ntf0\t\ntf1\t\ntf2\t\n", DATA) is None
    assert header_line('"GAL4",""\ntf0,""\ntf1,""\ntf2,""\n', DATA) is None


def test_an_unmeasured_first_gene_is_kept_and_not_called_a_header(tmp_path):
    path = tmp_path / "tfs.csv"
    path.write_text("GAL4,\ntf0,\ntf1,\ntf2,\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = read_regulators(path, DATA)
    assert names == ["GAL4", "tf0", "tf1", "tf2"]
    assert not [w for w in caught if "header" in str(w.message)]


def test_a_two_column_table_with_a_header_row_is_still_detected():
    assert header_line("TF list,source\ntf0,a\ntf1,a\ntf2,b\ntf3,b\n", DATA) is not None


def test_a_gene_named_like_a_header_word_is_kept_when_it_is_a_variable():
    assert header_line("ID\ntf0\ntf1\n", ["ID", *DATA]) is None
    assert header_line("Symbol,HTH\ntf0,HTH\ntf1,bZIP\ntf2,bZIP\n", ["Symbol", *DATA]) is None
    assert header_line("Symbol\ntf0\ntf1\n", DATA) is not None  # not a variable: the column's name
