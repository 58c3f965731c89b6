"""Structural EM on interventional data with missing cells (engine.interventions.em): the masked
E- and M-steps orient what observational data cannot, and ``learn`` and ``score`` agree."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.exceptions import ParameterError
from engine.interventions import with_design
from engine.interventions.em import MaskedStructuralEM
from engine.learn import IdealParentSearch

TRUTH = [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")]
TARGETS = {"doB": "B", "doD": "D"}


def _chain(seed: int = 0, n: int = 900, missing: float = 0.05) -> pd.DataFrame:
    """A -> B -> C -> D -> E with B and D set by experiments in some rows, 5% of cells missing."""
    rng = np.random.default_rng(seed)
    cond = rng.choice(["obs", "doB", "doD"], size=n, p=[0.5, 0.25, 0.25])
    a = rng.normal(size=n)
    b = np.where(cond == "doB", rng.normal(size=n), a + 0.8 * rng.normal(size=n))
    c = b + 0.8 * rng.normal(size=n)
    d = np.where(cond == "doD", rng.normal(size=n), c + 0.8 * rng.normal(size=n))
    e = d + 0.8 * rng.normal(size=n)
    frame = pd.DataFrame({"A": a, "B": b, "C": c, "D": d, "E": e})
    frame = frame.mask(rng.random(frame.shape) < missing)
    return frame.assign(cond=cond)


def test_masked_em_orients_the_chain():
    frame = _chain()
    assert frame.drop(columns="cond").isna().to_numpy().mean() == pytest.approx(0.05, abs=0.01)
    est = IdealParentSearch(score="bic").fit(frame, condition="cond", targets=TARGETS)
    assert sorted((p, c) for p, c, _ in est.network_.edges()) == TRUTH
    assert est.network_.interventions["family_rows"]["B"] == int((frame.cond != "doB").sum())
    assert est.network_.missing_values.startswith("structural EM")
    # the same data without the design: the chain is only known up to Markov equivalence
    plain = IdealParentSearch(score="bic").fit(frame.drop(columns="cond"))
    assert sorted((p, c) for p, c, _ in plain.network_.edges()) != TRUTH


def test_masked_em_bound_never_decreases():
    ds = with_design(_chain(1), "cond", TARGETS)
    em = MaskedStructuralEM(ds, {"score": "bic"}, design=ds.interventions)
    em.e_step(em.params())
    em.run()
    bounds = np.array(em.lower_bounds_)
    assert len(bounds) >= 2
    assert np.all(np.diff(bounds) >= -1e-6 * np.abs(bounds[1:]))


def test_learn_and_score_agree_with_missing_cells(tmp_path, capsys):
    frame = _chain(2)
    frame.loc[frame.index[frame.cond == "doB"][:3], "B"] = np.nan  # a set variable missing too
    data = tmp_path / "d.csv"
    frame.to_csv(data, index=False)
    targets = tmp_path / "t.csv"
    targets.write_text("condition,target\ndoB,B\ndoD,D\n")
    out = tmp_path / "m.json"
    assert (
        main(["learn", str(data), "--condition", "cond", "--targets", str(targets), "--quiet", "--out", str(out)]) == 0
    )
    res = json.loads(out.read_text())
    capsys.readouterr()
    assert main(["score", str(data), "--model", str(out)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["score"] == pytest.approx(res["score"]["value"], rel=1e-8)
    assert got["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-8)
    assert main(["score", str(data), "--model", str(out), "--refit"]) == 0
    refit = json.loads(capsys.readouterr().out)
    assert refit["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-6)


def test_nonlinear_cpd_completes_under_the_mask():
    frame = _chain(3, n=400)
    est = IdealParentSearch(cpd="sigmoid", score="bic", max_parents=2).fit(frame, condition="cond", targets=TARGETS)
    assert est.network_.interventions["family_rows"]["D"] == int((frame.cond != "doD").sum())
    assert "filled with their posterior means" in est.network_.missing_values


def test_what_em_does_not_combine_is_refused():
    frame = _chain(4, n=300)
    with pytest.raises(ParameterError, match="hidden variables with interventions are not implemented"):
        IdealParentSearch(hidden="auto").fit(frame, condition="cond", targets=TARGETS)
    with pytest.raises(ParameterError, match="per-condition intercepts with missing values"):
        IdealParentSearch(condition_intercept=True).fit(frame, condition="cond", targets=TARGETS)
