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
