"""``score DATA --model RESULT.json --covariates FILE`` (issue #22): the sample annotations are read
as ``learn`` read them, coded as the model's own covariate variables (its ``settings.parent_only``),
so that the score equals learn's; a model learned with covariates scored without them, or a table
that cannot give what the model needs, is one clear line (exit 2), never a traceback or a silently
different score."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.io.covariates import code_for_model

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_covariates import covariate_study  # noqa: E402


@pytest.fixture
def learned(tmp_path):
    frame, cov, _ = covariate_study(seed=5, m=60, n=12, n_batch=3)
    data, table, model = tmp_path / "d.csv", tmp_path / "cov.csv", tmp_path / "m.json"
    frame.to_csv(data)
    cov.to_csv(table, index=False)
    assert main(["learn", str(data), "--covariates", str(table), "--out", str(model), "--quiet"]) == 0
    return data, table, model, frame, cov


def _score(capsys, *argv) -> tuple[int, dict | None, str]:
    capsys.readouterr()
    rc = main(["score", *map(str, argv)])
    out, err = capsys.readouterr()
    return rc, (json.loads(out) if rc == 0 else None), err


def test_score_reads_the_covariates_and_agrees_with_learn(learned, capsys):
    data, table, model, _, _ = learned
    rc, out, err = _score(capsys, data, "--model", model, "--covariates", table)
    assert rc == 0, err
    res = json.loads(model.read_text())
    assert res["settings"]["parent_only"] == ["batch=b1", "batch=b2", "rin"]
    assert out["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-9)
    assert out["bic"] == pytest.approx(res["score"]["bic"], rel=1e-9)
    assert "covariates: batch=b1, batch=b2 (indicators of batch; b0: the reference), rin (numeric)" in err


def test_held_out_samples_with_fewer_levels_are_coded_as_the_model_was(learned, tmp_path, capsys):
    """A held-out table in one batch only: learn's coding would refuse it as constant; scoring codes
    the model's indicators (all 0 or all 1) and gives the same figures as the rows of the full file."""
    data, table, model, frame, cov = learned
    rows = cov["batch"] == "b2"
    part, part_cov = tmp_path / "part.csv", tmp_path / "part_cov.csv"
    frame[rows.to_numpy()].to_csv(part)
    cov[rows].to_csv(part_cov, index=False)
    rc, out, err = _score(capsys, part, "--model", model, "--covariates", part_cov)
    assert rc == 0, err
    assert out["n_samples"] == int(rows.sum()) and np.isfinite(out["loglik"])


def test_a_model_learned_with_covariates_scored_without_them_is_one_line(learned, capsys):
    data, _, model, _, _ = learned
    rc, _, err = _score(capsys, data, "--model", model)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "m.json was learned with covariates from cov.csv (batch=b1, batch=b2, rin)" in err
    assert "--covariates FILE" in err


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c.drop(columns="rin"), "cov.csv: no column 'rin' for the model's covariate rin"),
        (lambda c: c.assign(batch=["b9", "b8"] * 30), "column 'batch' has levels b8, b9 the model does not know"),
        (lambda c: c.assign(rin=["x"] * 60), "column 'rin' is not numeric, as the model's covariate rin is"),
    ],
)
def test_a_table_that_cannot_give_the_model_s_covariates_is_named(learned, tmp_path, capsys, edit, message):
    data, _, model, _, cov = learned
    bad = tmp_path / "cov.csv"
    edit(cov).to_csv(bad, index=False)
    rc, _, err = _score(capsys, data, "--model", model, "--covariates", bad)
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_covariates_for_a_model_learned_without_them_are_refused(learned, tmp_path, capsys):
    data, table, _, _, _ = learned
    plain = tmp_path / "plain.json"
    assert main(["learn", str(data), "--out", str(plain), "--quiet"]) == 0
    rc, _, err = _score(capsys, data, "--model", plain, "--covariates", table)
    assert rc == 2 and "plain.json was learned without covariates" in err


def test_a_model_saved_before_parent_only_was_recorded_finds_them_by_column(learned, tmp_path, capsys):
    data, table, model, _, _ = learned
    res = json.loads(model.read_text())
    del res["settings"]["parent_only"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(res))
    rc, out, err = _score(capsys, data, "--model", old, "--covariates", table)
    assert rc == 0, err
    assert out["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-9)


def test_code_for_model_by_hand():
    frame = pd.DataFrame({"id": ["s1", "s2", "s3"], "batch": ["b", "b", "a"], "rin": ["7", "8", "6"]})
    cov = code_for_model(frame, ["s3", "s1", "s2"], ["batch=b", "batch=c", "rin"])
    np.testing.assert_array_equal(cov.values, [[0, 0, 6], [1, 0, 7], [1, 0, 8]])
    assert cov.names == ("batch=b", "batch=c", "rin")


def test_an_empty_covariate_file_is_one_line(learned, tmp_path, capsys):
    data, _, model, _, _ = learned
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    rc, _, err = _score(capsys, data, "--model", model, "--covariates", empty)
    assert rc == 2 and "empty.csv: does not read as a CSV/TSV table" in err and len(err.strip().splitlines()) == 1


def test_a_new_level_that_cannot_be_the_reference_is_refused(learned, tmp_path, capsys):
    """learn's reference level sorts before every level it made an indicator for (b0 < b1 < b2): a
    level the model does not know that sorts after one of them (a new batch b9) is not the reference,
    and its samples cannot be coded (they were scored as b0, silently)."""
    data, _, model, _, cov = learned
    bad = tmp_path / "cov.csv"
    cov.assign(batch=cov["batch"].replace({"b0": "b9"})).to_csv(bad, index=False)
    rc, _, err = _score(capsys, data, "--model", model, "--covariates", bad)
    assert rc == 2 and "b9" in err and "reference" in err and len(err.strip().splitlines()) == 1, err
    ok = tmp_path / "ok.csv"
    cov.assign(batch=cov["batch"].replace({"b0": "a0"})).to_csv(ok, index=False)  # may be the reference: kept
    assert _score(capsys, data, "--model", model, "--covariates", ok)[0] == 0
