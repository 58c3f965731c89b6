"""qPCR and assay exports write an undetected or censored measurement as a word ("Undetermined",
"No Ct", "n.d.", ...). Such a cell is missing, not text: it is read as missing (structural EM
handles missing cells), counted and named in one note; a column made mostly of them cannot be
used and is reported with that reason (engine.io.undetected)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine import load_table
from engine.cli import main
from engine.exceptions import DataValidationError
from engine.io import from_frame
from engine.io.undetected import UNDETECTED


def _plate(tmp_path, marks: dict[tuple[int, int], str], name="qpcr.csv", sep=",", decimal="."):
    """12 samples x 4 genes of Ct values, the cells ``marks`` {(row, col): word} replaced."""
    rng = np.random.default_rng(7)
    x = rng.normal(25, 2, size=(12, 4))
    x[:, 1] += 0.8 * x[:, 0]
    cols = ["TF1", "GeneA", "GeneB", "GeneC"]
    lines = [sep.join(["Sample", *cols])]
    for i, row in enumerate(x):
        cells = [marks.get((i, j), f"{v:.3f}".replace(".", decimal)) for j, v in enumerate(row)]
        lines.append(sep.join([f"S{i + 1}", *cells]))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path, x


def test_the_marker_list_is_the_one_the_brief_names():
    lowered = {m.casefold() for m in UNDETECTED}
    for word in ("Undetermined", "No Ct", "N/A", "NaN", "-", "nd", "n.d.", "ND", "Undet."):
        assert word.casefold() in lowered


class TestReadAsMissing:
    def test_undetermined_cells_are_missing_and_counted_in_one_note(self, tmp_path):
        marks = {(0, 2): "Undetermined", (3, 2): "Undetermined", (5, 2): "undetermined", (4, 3): "No Ct"}
        path, x = _plate(tmp_path, marks)
        ds = load_table(path, standardize=False)
        assert list(ds.names) == ["TF1", "GeneA", "GeneB", "GeneC"] and ds.n_samples == 12
        assert ds.missing.sum() == 4 and ds.missing[[0, 3, 5], 2].all() and ds.missing[4, 3]
        np.testing.assert_allclose(ds.values[~ds.missing], np.round(x, 3)[~ds.missing])  # the rest untouched
        notes = [n for n in ds.notes if "read as missing" in n]
        assert len(notes) == 1, ds.notes
        assert "'GeneB': 3 cells 'Undetermined'" in notes[0] and "'GeneC': 1 cell 'No Ct'" in notes[0]

    @pytest.mark.parametrize(
        "word", ["Undetermined", "UNDETERMINED", "No Ct", "no ct", "N/A", "n/a", "NaN", "NAN", "-", "nd", "n.d."]
    )
    def test_each_marker_in_any_case(self, tmp_path, word):
        path, _ = _plate(tmp_path, {(2, 1): word, (6, 1): f" {word} "})
        ds = load_table(path)
        assert ds.missing[[2, 6], 1].all() and ds.missing.sum() == 2

    @pytest.mark.parametrize("word", ["ND", "N.D.", "Undet.", "undet."])
    def test_abbreviations(self, tmp_path, word):
        path, _ = _plate(tmp_path, {(2, 1): word, (6, 1): word})
        ds = load_table(path)
        assert ds.missing[[2, 6], 1].all() and any(f"2 cells {word!r}" in n for n in ds.notes)

    def test_other_text_is_still_refused(self, tmp_path):
        path, _ = _plate(tmp_path, {(2, 1): "Undetermined", (6, 2): "failed"})
        with pytest.raises(DataValidationError, match=r"non-numeric column\(s\) 'GeneB'.*'failed'"):
            load_table(path)

    def test_decimal_commas_and_dotted_abbreviations(self, tmp_path):
        """'n.d.' holds dots: it is not a decimal point beside decimal commas."""
        path, x = _plate(tmp_path, {(1, 0): "n.d.", (2, 3): "Undet."}, sep=";", decimal=",")
        ds = load_table(path, standardize=False)
        assert ds.missing.sum() == 2 and abs(float(np.nanmean(ds.values)) - float(x.mean())) < 2

    def test_grouped_thousands_are_still_read_beside_them(self, tmp_path):
        """A European export (1.234,5 = 1234.5) with 'n.d.' cells: the cells left are still text, read
        with the file's convention (engine.io.number_marks), not a thousand times too small."""
        rows = [["1.234,5", "n.d.", "2.345,5"], ["2.001,0", "890,0", "Undetermined"], ["987,5", "1.100,0", "3.456,25"]]
        rows += [["1.500,0", "650,0", "2.100,75"], ["1.750,0", "720,0", "2.900,5"]]
        path = tmp_path / "de.csv"
        path.write_text("s;A;B;C\n" + "".join(f"r{i};" + ";".join(r) + "\n" for i, r in enumerate(rows)))
        ds = load_table(path, standardize=False)
        np.testing.assert_allclose(ds.values[:, 0], [1234.5, 2001, 987.5, 1500, 1750])
        assert ds.missing[0, 1] and ds.missing[1, 2] and ds.values[2, 1] == 1100
        assert any("thousands separator" in n for n in ds.notes)

    def test_a_first_sample_undetected_everywhere_is_not_a_units_line(self, tmp_path):
        path, _ = _plate(tmp_path, {(0, j): "Undetermined" for j in range(4)})
        ds = load_table(path, drop_non_numeric=True)
        assert ds.n_samples == 12 and ds.missing[0].all()  # kept as a sample, named as one without values
        assert any("no measured value at all: 'S1'" in n for n in ds.notes)

    def test_variables_in_rows(self, tmp_path):
        path = tmp_path / "genes.tsv"
        rng = np.random.default_rng(2)
        rows = ["gene\tc1\tc2\tc3\tc4\tc5\tc6"]
        for g in range(5):
            cells = [f"{v:.2f}" for v in rng.normal(20, 2, 6)]
            if g == 3:
                cells[1] = cells[4] = "Undetermined"
            rows.append(f"G{g}\t" + "\t".join(cells))
        path.write_text("\n".join(rows) + "\n")
        ds = load_table(path, transpose=True)
        assert ds.names[3] == "G3" and ds.missing[[1, 4], 3].all() and ds.missing.sum() == 2
        assert any("'G3': 2 cells 'Undetermined'" in n for n in ds.notes)

    def test_a_frame_from_a_spreadsheet(self):
        frame = pd.DataFrame({"s": list("abcdef"), "g1": [1.0, 2.0, 3.5, 4.0, 2.0, 1.0]})
        frame["g2"] = [3.0, "Undetermined", 2.0, 1.5, "Undetermined", 2.5]
        ds = from_frame(frame)
        assert ds.missing[[1, 4], 1].all() and frame["g2"].iloc[1] == "Undetermined"  # caller's frame unchanged

    def test_no_note_without_marker(self, tmp_path):
        path, _ = _plate(tmp_path, {})
        assert not any("read as missing" in n for n in load_table(path).notes)


class TestMostlyUndetected:
    def _mostly(self, tmp_path):
        marks = {(i, 3): "Undetermined" for i in range(8)} | {(1, 1): "Undetermined"}
        return _plate(tmp_path, marks)[0]

    def test_refused_naming_the_column_the_reason_and_the_fix(self, tmp_path):
        with pytest.raises(DataValidationError) as err:
            load_table(self._mostly(tmp_path))
        msg = str(err.value)
        assert "'GeneC'" in msg and "8 of 12 cells 'Undetermined'" in msg and "--drop GeneC" in msg, msg
        assert "--skip-unusable" in msg and "\n" not in msg

    def test_left_out_with_the_reason_when_asked(self, tmp_path):
        ds = load_table(self._mostly(tmp_path), drop_non_numeric=True, max_missing=0.5)
        assert list(ds.names) == ["TF1", "GeneA", "GeneB"] and ds.missing[1, 1] and ds.missing.sum() == 1
        left = [n for n in ds.notes if n.startswith("left out ")]
        assert len(left) == 1 and "'GeneC' (8 of 12 cells 'Undetermined')" in left[0], ds.notes
        assert "'GeneA': 1 cell 'Undetermined'" in next(n for n in ds.notes if "read as missing" in n)

    def test_kept_when_only_text_columns_are_left_out(self, tmp_path):
        """score --skip-unusable keeps a model's variables: the column is read, its marks missing."""
        ds = load_table(self._mostly(tmp_path), drop_non_numeric=True)
        assert ds.names[3] == "GeneC" and ds.missing[:, 3].sum() == 8
        assert "'GeneC': 8 cells 'Undetermined'" in next(n for n in ds.notes if "read as missing" in n)

    def test_half_is_still_usable(self, tmp_path):
        path, _ = _plate(tmp_path, {(i, 3): "nd" for i in range(6)})
        ds = load_table(path)
        assert ds.missing[:, 3].sum() == 6

    def test_cli(self, tmp_path, capsys):
        path = self._mostly(tmp_path)
        assert main(["learn", str(path), "--out", str(tmp_path / "a.json")]) == 2
        err = capsys.readouterr().err
        assert "8 of 12 cells 'Undetermined'" in err and "Traceback" not in err
        assert main(["learn", str(path), "--skip-unusable", "--out", str(tmp_path / "a.json")]) == 0
        err = capsys.readouterr().err
        assert "'GeneC' (8 of 12 cells 'Undetermined')" in err and "1 cell 'Undetermined'" in err


def test_cli_reads_a_plate_with_undetermined_cells(tmp_path, capsys):
    path, _ = _plate(tmp_path, {(0, 2): "Undetermined", (3, 2): "Undetermined", (4, 3): "No Ct"})
    assert main(["learn", str(path), "--out", str(tmp_path / "n.json")]) == 0
    assert "'GeneB': 2 cells 'Undetermined'" in capsys.readouterr().err
