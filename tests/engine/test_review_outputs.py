"""The files ``learn`` and ``bootstrap`` write never replace an input file: the regulator report
``FILE_regulators.csv`` that ``--csv FILE --hidden auto`` derives was not checked against DATA (data
named ``expr_regulators.csv`` with ``--csv expr.csv`` was overwritten after the search), and a
``--csv`` or ``--out`` that is the regulator list was not checked at all."""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.cli import main


def _data(path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 5))
    pd.DataFrame(x, columns=[f"g{i}" for i in range(5)]).to_csv(path, index=False)
    return path.read_bytes()


def test_the_regulator_report_is_not_written_over_the_data(tmp_path, capsys):
    data = tmp_path / "expr_regulators.csv"
    before = _data(data)
    rc = main(["learn", str(data), "--hidden", "auto", "--max-hidden", "1", "--csv", str(tmp_path / "expr.csv")])
    err = capsys.readouterr().err
    assert rc == 2 and "expr_regulators.csv" in err and "data file itself" in err
    assert data.read_bytes() == before


def test_csv_over_the_regulator_list_is_refused_naming_csv(tmp_path, capsys):
    data = tmp_path / "expr.csv"
    _data(data)
    regs = tmp_path / "tfs.txt"
    regs.write_text("g0\ng1\n")
    rc = main(["learn", str(data), "--regulators", str(regs), "--csv", str(regs)])
    err = capsys.readouterr().err
    assert rc == 2 and "--csv" in err and "tfs.txt" in err
    assert regs.read_text() == "g0\ng1\n"


def test_csv_and_out_may_not_be_one_file(tmp_path, capsys):
    data = tmp_path / "expr.csv"
    _data(data)
    out = tmp_path / "r.json"
    rc = main(["learn", str(data), "--out", str(out), "--csv", str(tmp_path / "." / "r.json")])
    err = capsys.readouterr().err
    assert rc == 2 and "--csv" in err and "--out" in err and not out.exists()
