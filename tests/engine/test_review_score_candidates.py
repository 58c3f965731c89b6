"""EBIC's candidate count in the result of a hidden-variable search without a regulator list: the
observed-data score (``score.value``) is computed with every variable but the child as a candidate,
the added hidden ones included (``StructuralEM.scorer``), but ``score.n_candidates`` said the
observed count, so ``score`` on the very same data gave another value than ``learn``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main


def test_learn_and_score_agree_on_ebic_with_a_hidden_variable(tmp_path, capsys):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(40, 30))
    x[:, :8] = 1.5 * rng.normal(size=40)[:, None] + 0.5 * rng.normal(size=(40, 8))
    data = tmp_path / "d.csv"
    pd.DataFrame(x, columns=[f"g{i}" for i in range(30)]).to_csv(data, index=False)
    model = tmp_path / "m.json"
    args = ["learn", str(data), "--score", "ebic", "--hidden", "auto", "--max-hidden", "1", "--out", str(model)]
    assert main(args) == 0
    err = capsys.readouterr().err
    res = json.loads(model.read_text())
    assert [h["name"] for h in res["hidden"]] == ["H1"]
    assert res["score"]["n_candidates"] == 30  # 29 observed + H1
    assert "EBIC counts 30 candidate parents in the result: the 29 said above" in err
    assert main(["score", str(data), "--model", str(model)]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["score"] == pytest.approx(res["score"]["value"], rel=1e-9)
