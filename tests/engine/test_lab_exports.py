"""Files as lab instruments and spreadsheets export them (a data analyst's own files): a sample
with no measured value, a units row under the header."""

from __future__ import annotations

import numpy as np
import pytest

from engine import load_table
from engine.cli import main
from engine.exceptions import DataValidationError


def _qpcr(tmp_path, empty_row: bool = True):
    rng = np.random.default_rng(3)
    lines = ["Sample,TF1,GeneA,GeneB"]
    for j in range(12):
        vals = rng.normal(8, 1, size=3).round(3)
        cells = ["", "NA", "#N/A"] if (empty_row and j == 5) else [str(v) for v in vals]
        lines.append(f"S{j}," + ",".join(cells))
    path = tmp_path / "qpcr.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


class TestEmptyInstance:
    def test_a_sample_with_no_value_is_named_and_kept(self, tmp_path):
        ds = load_table(_qpcr(tmp_path))
        assert ds.n_samples == 12  # kept: row counts stay the file's
        note = next(n for n in ds.notes if "no measured value" in n)
        assert "(1)" in note and "'S5'" in note and "remove them" in note

    def test_no_note_without_one(self, tmp_path):
        ds = load_table(_qpcr(tmp_path, empty_row=False))
        assert not [n for n in ds.notes if "no measured value" in n]

    def test_cli_says_it(self, tmp_path, capsys):
        assert main(["learn", str(_qpcr(tmp_path)), "--out", str(tmp_path / "n.json")]) == 0
        assert "no measured value at all: 'S5' (1)" in capsys.readouterr().err


def _units(tmp_path, sep=",", decimal=".", units=("Ct",), name="plate.csv", crlf=False):
    rng = np.random.default_rng(4)
    cols = ["TF1", "GeneA", "GeneB", "GeneC"]
    lines = [sep.join(["Well", *cols])]
    lines += [sep.join([u, *[u] * len(cols)]) for u in units]
    for j in range(10):
        lines.append(sep.join([f"A{j + 1}", *[f"{v:.3f}".replace(".", decimal) for v in rng.normal(8, 1, 4)]]))
    path = tmp_path / name
    path.write_bytes(("\r\n" if crlf else "\n").join(lines).encode("utf-8-sig") + b"\n")
    return path


class TestUnitsLine:
    def test_refused_naming_the_line_and_the_fix(self, tmp_path):
        with pytest.raises(DataValidationError, match=r"the line under the header holds text .*'Ct'.*--skip-unusable"):
            load_table(_units(tmp_path))

    def test_left_out_with_a_note_when_asked(self, tmp_path):
        ds = load_table(_units(tmp_path), drop_non_numeric=True)
        assert list(ds.names) == ["TF1", "GeneA", "GeneB", "GeneC"] and ds.n_samples == 10
        assert ds.instance_labels[0] == "A1"
        assert any("left out the line under the header" in n for n in ds.notes)

    def test_excel_export_with_two_lines_and_decimal_commas(self, tmp_path):
        path = _units(tmp_path, sep=";", decimal=",", units=("Ct", "mean of 3"), crlf=True)
        ds = load_table(path, drop_non_numeric=True, standardize=False)
        assert ds.n_samples == 10 and ds.instance_labels[0] == "A1"
        assert any("the 2 lines under the header" in n for n in ds.notes)
        assert any("decimal commas" in n for n in ds.notes)
        assert 4 < float(np.nanmean(ds.values)) < 12  # 8.1, not 8100

    def test_a_text_column_is_not_a_units_line(self, tmp_path):
        path = tmp_path / "t.csv"
        path.write_text("id,a,b,note\n" + "".join(f"r{i},{i},{i * i % 7},x{i}\n" for i in range(6)))
        ds = load_table(path, drop_non_numeric=True)
        assert ds.n_samples == 6 and list(ds.names) == ["a", "b"]

    def test_cli_skip_unusable(self, tmp_path, capsys):
        assert main(["learn", str(_units(tmp_path)), "--out", str(tmp_path / "a.json")]) == 2
        assert "holds text in every column" in capsys.readouterr().err
        assert main(["learn", str(_units(tmp_path)), "--skip-unusable", "--out", str(tmp_path / "a.json")]) == 0


class TestEuropeanNumbers:
    """A spreadsheet in a European locale exports ';'-separated text with ',' as the decimal mark
    and '.' between thousands: '1.234' there is 1234. Read as a decimal it was silently 1000 times
    too small beside '987' (counts, areas, intensities above 999)."""

    def _write(self, tmp_path, rows, name="de.csv"):
        path = tmp_path / name
        path.write_text(
            "sample;GeneA;GeneB;GeneC\n" + "".join(f"S{i};" + ";".join(r) + "\n" for i, r in enumerate(rows))
        )
        return path

    def test_grouped_thousands_beside_decimal_commas_are_read(self, tmp_path):
        rows = [["1.234", "567", "2.345,5"], ["2.001", "890", "1.234,0"], ["987", "1.100", "3.456,25"]]
        rows += [["1.500", "650", "2.100,75"], ["1.750", "720", "2.900,5"]]
        ds = load_table(self._write(tmp_path, rows), standardize=False)
        np.testing.assert_allclose(ds.values[:, 0], [1234, 2001, 987, 1500, 1750])
        np.testing.assert_allclose(ds.values[:, 1], [567, 890, 1100, 650, 720])
        np.testing.assert_allclose(ds.values[:, 2], [2345.5, 1234.0, 3456.25, 2100.75, 2900.5])
        assert any("thousands separator" in n for n in ds.notes)

    def test_grouped_or_decimal_is_refused_with_both_readings(self, tmp_path):
        rows = [["1.234", "567", "5"], ["2.001", "890", "6"], ["987", "1.100", "7"], ["1.500", "650", "8"]]
        with pytest.raises(DataValidationError, match=r"'GeneA' holds '1.234'.*'987'.*1234 with '.' between"):
            load_table(self._write(tmp_path, rows))
        with pytest.raises(DataValidationError, match="1234"):  # the same from a tab-separated export
            path = tmp_path / "de.tsv"
            path.write_text("s\ta\tb\n" + "".join(f"r{i}\t{a}\t{b}\n" for i, (a, b, _) in enumerate(rows)))
            load_table(path)

    def test_decimal_points_with_three_decimals_are_decimals(self, tmp_path):
        rows = [["8.002", "5.606", "7.5"], ["7.715", "6.123", "8.25"], ["9.100", "5.001", "6.75"]]
        rows += [["8.388", "7.694", "5.5"]]
        ds = load_table(self._write(tmp_path, rows), standardize=False)
        np.testing.assert_allclose(ds.values[:, 0], [8.002, 7.715, 9.1, 8.388])
        assert not any("thousands" in n for n in ds.notes)

    def test_mixed_decimal_marks_are_refused(self, tmp_path):
        rows = [["1.234,5", "5.5", "1"], ["2.001,0", "6.5", "2"], ["987,5", "7.5", "3"], ["1.500,0", "8.5", "4"]]
        with pytest.raises(DataValidationError, match=r"'5.5' .* decimal point while other cells use a decimal comma"):
            load_table(self._write(tmp_path, rows))

    def test_a_comma_separated_file_is_unchanged(self, tmp_path):
        path = tmp_path / "c.csv"
        path.write_text("s,a,b\nr1,1.234,5\nr2,2.001,6\nr3,987,7\nr4,1.5,8\n")
        np.testing.assert_allclose(load_table(path, standardize=False).values[:, 0], [1.234, 2.001, 987, 1.5])


def test_excel_error_values_are_missing_cells_not_text(tmp_path):
    """One #DIV/0! in a gene's column (a fold change of a zero) made the whole gene text: refused, or
    left out with its 19 good measurements under --skip-unusable and in the explorer."""
    path = _qpcr(tmp_path, empty_row=False)
    lines = path.read_text().splitlines()
    cells = lines[3].split(",")
    cells[1], cells[2] = "#DIV/0!", "#VALUE!"
    lines[3] = ",".join(cells)
    lines[6] = lines[6].rsplit(",", 1)[0] + ",#NUM!"
    path.write_text("\n".join(lines) + "\n")
    ds = load_table(path)
    assert list(ds.names) == ["TF1", "GeneA", "GeneB"] and ds.n_samples == 12
    assert int(np.isnan(ds.values).sum()) == 3
    assert np.isnan(ds.values[2, 0]) and np.isnan(ds.values[2, 1]) and np.isnan(ds.values[5, 2])
