"""Files as lab instruments and spreadsheets export them (a data analyst's own files): a sample
with no measured value, a units row under the header."""

from __future__ import annotations

import numpy as np

from engine import load_table
from engine.cli import main


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
        assert "1 instance(s)" in note and "'S5'" in note and "remove them" in note

    def test_no_note_without_one(self, tmp_path):
        ds = load_table(_qpcr(tmp_path, empty_row=False))
        assert not [n for n in ds.notes if "no measured value" in n]

    def test_cli_says_it(self, tmp_path, capsys):
        assert main(["learn", str(_qpcr(tmp_path)), "--out", str(tmp_path / "n.json")]) == 0
        assert "have no measured value at all ('S5')" in capsys.readouterr().err
