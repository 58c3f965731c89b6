"""One score under interventions: ``score`` (and ``LearnedNetwork.evaluate``) gives the score
``learn`` reported on the same model and data, each family on the rows where its child was not set."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from engine.cli import main
from engine.data import from_array
from engine.interventions import Interventions
from engine.learn import IdealParentSearch


@pytest.fixture
def files(tmp_path):
    """A -> B -> C, D -> C; ``inhibit_b`` sets B, ``shift`` moves every level (no target)."""
    rng = np.random.default_rng(4)
    n = 500
    cond = rng.choice(["ctrl", "inhibit_b", "shift"], size=n, p=[0.5, 0.25, 0.25])
    up = np.where(cond == "shift", 1.5, 0.0)
    a = rng.normal(size=n) + up
    b = np.where(cond == "inhibit_b", rng.normal(size=n) - 1.0, a + 0.6 * rng.normal(size=n))
    d = rng.normal(size=n) - up
    c = b - 0.7 * d + 0.6 * rng.normal(size=n) + up
    data = tmp_path / "d.csv"
    frame = pd.DataFrame({"treatment": cond, "A": a, "B": b, "C": c, "D": d})
    frame.to_csv(data, index=False)
    targets = tmp_path / "t.csv"
    targets.write_text("condition,target\ninhibit_b,B\n")
    return data, targets, frame


def _learn(data, targets, tmp_path, *extra) -> dict:
    out = tmp_path / f"m{len(extra)}.json"
    args = ["learn", str(data), "--condition", "treatment", "--targets", str(targets), "--quiet", "--out", str(out)]
    assert main([*args, *extra]) == 0
    return json.loads(out.read_text()), out


def _score(data, model, capsys, *extra) -> tuple[int, dict | None, str]:
    capsys.readouterr()
    rc = main(["score", str(data), "--model", str(model), *extra])
    cap = capsys.readouterr()
    return rc, (json.loads(cap.out) if rc == 0 else None), cap.err


@pytest.mark.parametrize("intercepts", [False, True])
@pytest.mark.parametrize("refit", [False, True])
def test_learn_and_score_agree(files, tmp_path, capsys, intercepts, refit):
    data, targets, _ = files
    res, model = _learn(data, targets, tmp_path, *(["--condition-intercept"] if intercepts else []))
    assert ("condition_means" in res["interventions"]) is intercepts
    rc, out, err = _score(data, model, capsys, *(["--refit"] if refit else []))
    assert rc == 0, err
    assert "condition column 'treatment' (from the model), targets from the model" in err
    assert out["score"] == pytest.approx(res["score"]["value"], rel=1e-8)
    assert out["bic"] == pytest.approx(res["score"]["bic"], rel=1e-8)
    assert out["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-8)
    assert out["interventions"]["family_rows"] == res["interventions"]["family_rows"]
    # the same through explicit flags
    rc, again, _ = _score(data, model, capsys, "--condition", "treatment", "--targets", str(targets))
    assert again["score"] == pytest.approx(res["score"]["value"], rel=1e-8)


def test_sigmoid_with_intercepts_agrees_in_the_api(files):
    _, _, frame = files
    est = IdealParentSearch(cpd="sigmoid", condition_intercept=True, max_parents=2)
    est.fit(frame, condition="treatment", targets={"inhibit_b": "B"})
    out = est.network_.evaluate(est.dataset_)
    assert out["score"] == pytest.approx(est.network_.score_info["value"], rel=1e-8)


def test_without_the_condition_column(files, tmp_path, capsys):
    data, targets, frame = files
    plain = tmp_path / "plain.csv"
    frame.drop(columns="treatment").to_csv(plain, index=False)
    _, model = _learn(data, targets, tmp_path)
    rc, out, err = _score(plain, model, capsys)
    assert rc == 0 and "has no such column, so every row is scored as observational" in err
    assert "interventions" not in out
    _, with_icpt = _learn(data, targets, tmp_path, "--condition-intercept")
    rc, _, err = _score(plain, with_icpt, capsys)
    assert rc == 2 and "one intercept per condition" in err and "--condition treatment" in err
    assert "Traceback" not in err


def test_held_out_rows_of_some_conditions(files, tmp_path, capsys):
    data, targets, frame = files
    part = tmp_path / "part.csv"
    frame[frame.treatment == "inhibit_b"].to_csv(part, index=False)
    _, model = _learn(data, targets, tmp_path, "--condition-intercept")
    rc, out, err = _score(part, model, capsys)
    assert rc == 0, err
    assert out["interventions"]["family_rows"]["B"] == 0  # B was set in every row: its family adds nothing
    new = tmp_path / "new.csv"
    frame.assign(treatment="knockout").to_csv(new, index=False)
    rc, _, err = _score(new, model, capsys)
    assert rc == 2 and "'knockout' are not among those the model was learned on" in err and "--refit" in err
    _, plain = _learn(data, targets, tmp_path)
    rc, _, err = _score(data, plain, capsys, "--condition-intercept")
    assert rc == 2 and "no per-condition intercepts" in err


#: held-out rows (condition, k-th row of it): A is missing in the first two
CASES = [("ctrl", 0), ("inhibit_b", 0), ("ctrl", 1)]


def test_missing_cells_under_interventions_are_integrated_out(files):
    """Held-out rows with missing cells: the mutilated likelihood with the missing cell integrated
    out numerically equals the engine's closed form; complete rows equal the masked family sum."""
    _, _, frame = files
    est = IdealParentSearch(score="bic").fit(frame, condition="treatment", targets={"inhibit_b": "B"})
    net, ds = est.network_, est.dataset_
    full = net.evaluate(ds)
    raw = ds.original_values()
    design = ds.interventions
    rows = [int(np.flatnonzero(design.codes == design.condition_names.index(c))[k]) for c, k in CASES]
    sub = raw[rows].copy()
    sub[:2, ds.names.index("A")] = np.nan  # A is never a target: integrate it out
    held = from_array(sub, list(ds.names), standardize=False, min_samples=1, allow_constant=True)
    sub_design = Interventions.from_labels(
        [design.condition_names[design.codes[r]] for r in rows], ds.names, {"inhibit_b": "B"}, min_family_rows=0
    )
    got = net.evaluate(held, design=sub_design)["loglik"]
    x = net.align(held)
    fams = net.families

    def dens(row, value):
        v = dict(zip(net.variables, x[row], strict=True))
        v["A"] = value if math.isnan(v["A"]) else v["A"]
        total = 1.0
        for child, fam in fams.items():
            if child == "B" and CASES[row][0] == "inhibit_b":
                continue  # B was set in this row: its family is left out
            mean = fam.params["intercept"] + sum(w * v[p] for p, w in fam.params["coefficients"].items())
            total *= stats.norm.pdf(v[child], mean, math.sqrt(fam.params["variance"]))
        return total

    want = sum(math.log(integrate.quad(lambda a, i=i: dens(i, a), -12, 12)[0]) for i in range(2))
    want += math.log(dens(2, math.nan))
    assert got == pytest.approx(want, rel=1e-6)
    assert full["score"] == pytest.approx(net.score_info["value"], rel=1e-8)
