"""Interventional data: the mutilated-network likelihood (Cooper & Yoo 1999) and its inputs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from engine.cpd import make_families
from engine.data import from_array
from engine.exceptions import DataValidationError, ParameterError
from engine.interventions import Interventions, MaskedFamilies, attach_conditions, read_targets, with_design
from engine.learn import IdealParentSearch
from engine.score import BIC
from engine.search import Stepper


def _lstsq_loglik(x: np.ndarray, u: np.ndarray, extra: np.ndarray | None = None) -> float:
    """ML Gaussian log-likelihood of x on [1, u] (and dummy columns ``extra``), by least squares."""
    design = np.column_stack([np.ones(len(x)), u] + ([] if extra is None else [extra]))
    coef = np.linalg.lstsq(design, x, rcond=None)[0]
    rss = float(np.sum((x - design @ coef) ** 2))
    m = len(x)
    return -0.5 * m * (math.log(2 * math.pi * rss / m) + 1.0)


def _design(n_rows: int, rng: np.random.Generator, names=("A", "B", "C", "D")):
    labels = rng.choice(["obs", "doB", "doC"], size=n_rows, p=[0.5, 0.25, 0.25])
    return labels, Interventions.from_labels(labels, names, [("doB", "B"), ("doC", "C"), ("doC", "D")])


@pytest.fixture
def masked_data():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 4))
    x[:, 1] += 0.8 * x[:, 0]
    x[:, 2] += 0.5 * x[:, 1] - 0.4 * x[:, 3]
    labels, design = _design(300, rng)
    return x, labels, design


def test_masked_likelihood_equals_refit_on_kept_rows(masked_data):
    x, labels, design = masked_data
    model = MaskedFamilies(lambda v: make_families(v, "linear"), x, design)
    keep = labels != "doC"
    fit = model.fit(2, (0, 1, 3))
    assert fit.n_rows == keep.sum()
    assert fit.loglik == pytest.approx(_lstsq_loglik(x[keep, 2], x[keep][:, [0, 1, 3]]), rel=1e-10)
    # a family with no intervention is scored on every row
    assert model.fit(0, (1,)).n_rows == 300
    assert model.fit(0, (1,)).loglik == pytest.approx(_lstsq_loglik(x[:, 0], x[:, [1]]), rel=1e-10)
    # exact gains are differences of refits on the family's own rows
    gains = model.exact_add(1, (), np.array([0, 2]))
    keep_b = labels != "doB"
    base = _lstsq_loglik(x[keep_b, 1], np.zeros((keep_b.sum(), 0)))
    for z, g in zip([0, 2], gains, strict=True):
        assert g == pytest.approx(_lstsq_loglik(x[keep_b, 1], x[keep_b][:, [z]]) - base, rel=1e-9)
    # the BIC penalty uses the family's row count
    assert BIC(300).family(fit) == pytest.approx(fit.loglik - 0.5 * math.log(keep.sum()) * fit.n_params)


def test_masked_sigmoid_equals_sigmoid_on_kept_rows(masked_data):
    x, labels, design = masked_data
    model = MaskedFamilies(lambda v: make_families(v, "sigmoid"), x, design)
    keep = labels != "doB"
    plain = make_families(x[keep], "sigmoid")
    assert model.fit(1, (0,)).loglik == pytest.approx(plain.fit(1, (0,)).loglik, rel=1e-9)
    np.testing.assert_allclose(model.add_similarity(1, ())[1], plain.add_similarity(1, ())[1], rtol=1e-9)


def test_condition_intercepts_equal_dummy_regression(masked_data):
    x, labels, design = masked_data
    model = MaskedFamilies(lambda v: make_families(v, "linear"), x, design, condition_intercept=True)
    keep = labels != "doC"
    dummies = (labels[keep][:, None] == np.array(["doB"])[None, :]).astype(float)  # obs and doB remain
    fit = model.fit(2, (0, 1))
    assert fit.loglik == pytest.approx(_lstsq_loglik(x[keep, 2], x[keep][:, [0, 1]], dummies), rel=1e-9)
    assert fit.n_params == 2 + 2 + 1  # two slopes, intercept, variance, one more condition intercept


def test_intercept_groups_equal_grouped_dummy_regression(masked_data):
    """Per-family intercept groups: family A gets one intercept per condition, the others share one
    between obs and doC (the study of benchmarks/bench_interventions_designs.py)."""
    x, labels, design = masked_data
    groups = np.tile(design.codes[:, None], (1, 4))
    merged = np.where(labels == "doC", int(design.codes[labels == "obs"][0]), design.codes)
    groups[:, 1:] = merged[:, None]
    model = MaskedFamilies(lambda v: make_families(v, "linear"), x, design, intercept_groups=groups)
    plain = MaskedFamilies(lambda v: make_families(v, "linear"), x, design)
    keep = labels != "doB"  # B's family: rows where B was not set (obs and doC share one intercept)
    assert model.fit(1, (0,)).loglik == pytest.approx(plain.fit(1, (0,)).loglik, rel=1e-12)
    assert model.fit(1, (0,)).n_params == plain.fit(1, (0,)).n_params
    every = (labels[:, None] == np.array(["doB", "doC"])[None, :]).astype(float)
    fit = model.fit(0, (3,))
    assert fit.loglik == pytest.approx(_lstsq_loglik(x[:, 0], x[:, [3]], every), rel=1e-9)
    assert fit.n_params == 1 + 2 + 2
    assert keep.sum() == model.family_rows[1]


def _two_node(truth: str, rng: np.random.Generator, n: int = 600) -> tuple[pd.DataFrame, list]:
    """X -> Y (or Y -> X) with observational rows and rows where an experiment set each variable."""
    cond = rng.choice(["obs", "doX", "doY"], size=n)
    cause = rng.normal(size=n)
    effect = cause + 0.7 * rng.normal(size=n)
    target_effect = "doY" if truth == "X->Y" else "doX"
    effect = np.where(cond == target_effect, rng.normal(size=n) * 1.3, effect)  # set by the experiment
    x, y = (cause, effect) if truth == "X->Y" else (effect, cause)
    frame = pd.DataFrame({"cond": cond, "X": x, "Y": y})
    return frame, [("doX", "X"), ("doY", "Y")]


@pytest.mark.parametrize("truth", ["X->Y", "Y->X"])
def test_interventions_orient_a_two_node_network(truth):
    frame, targets = _two_node(truth, np.random.default_rng(11))
    est = IdealParentSearch(score="bic").fit(frame, condition="cond", targets=targets)
    edges = [(p, c) for p, c, _ in est.network_.edges()]
    assert edges == ([("X", "Y")] if truth == "X->Y" else [("Y", "X")])


@pytest.mark.parametrize("forward", [True, False])
def test_interventions_orient_a_chain(forward):
    """A -> B -> C and C -> B -> A are Markov equivalent; setting the middle variable in some rows
    tells them apart (its family loses those rows, its children keep them)."""
    rng = np.random.default_rng(5 if forward else 6)
    n = 900
    cond = rng.choice(["obs", "doB"], size=n, p=[0.6, 0.4])
    first = rng.normal(size=n)
    mid = np.where(cond == "doB", rng.normal(size=n), first + 0.8 * rng.normal(size=n))
    last = mid + 0.8 * rng.normal(size=n)
    a, c = (first, last) if forward else (last, first)
    frame = pd.DataFrame({"A": a, "B": mid, "C": c, "cond": cond})
    est = IdealParentSearch(score="bic").fit(frame, condition="cond", targets={"doB": "B"})
    edges = sorted((p, c) for p, c, _ in est.network_.edges())
    assert edges == ([("A", "B"), ("B", "C")] if forward else [("B", "A"), ("C", "B")])


def test_without_targets_results_are_identical(masked_data):
    x, labels, _ = masked_data
    plain = IdealParentSearch(score="bic").fit(x)
    observational = IdealParentSearch(score="bic").fit(x, condition=list(labels), targets=None)
    assert plain.network_.edges() == observational.network_.edges()
    assert plain.score_ == observational.score_
    # an all-False mask through the masked model: the same search, move for move
    none = Interventions.from_labels(labels, ["A", "B", "C", "D"], [])
    masked = Stepper(MaskedFamilies(lambda v: make_families(v, "linear"), from_array(x).values, none), score="bic")
    ref = Stepper(make_families(from_array(x).values, "linear"), score="bic")
    assert masked.run().edges == ref.run().edges
    assert masked.score == pytest.approx(ref.score, rel=1e-12)


def test_result_records_the_design(masked_data):
    x, labels, _ = masked_data
    frame = pd.DataFrame(x, columns=list("ABCD")).assign(cond=labels)
    est = IdealParentSearch(score="bic").fit(frame, condition="cond", targets=[("doB", "B")])
    info = est.network_.to_dict()["interventions"]
    assert info["column"] == "cond"
    assert info["family_rows"]["B"] == int((labels != "doB").sum())
    assert info["left_out"] == {"B": ["doB"]}
    assert "cond" not in est.network_.variables


def test_subset_keeps_each_rows_mask(masked_data):
    x, labels, design = masked_data
    ds = attach_conditions(from_array(x, list("ABCD")), labels, design.targets)
    rows = np.array([5, 5, 0, 299])
    np.testing.assert_array_equal(ds.subset(rows).interventions.mask, ds.interventions.mask[rows])
    assert ds.with_columns(list("ABCDH"), np.zeros((300, 5))).interventions.mask.shape == (300, 5)


def test_bad_designs_get_clear_messages(masked_data, tmp_path):
    x, labels, _ = masked_data
    frame = pd.DataFrame(x, columns=list("ABCD")).assign(cond=labels)
    with pytest.raises(DataValidationError, match="variable.*'Z'.*not in the data"):
        with_design(frame, "cond", [("doB", "Z")])
    with pytest.raises(DataValidationError, match="condition.*'doQ'.*do not occur in column 'cond'"):
        with_design(frame, "cond", [("doQ", "B")])
    with pytest.raises(DataValidationError, match="no condition column named 'batch'"):
        with_design(frame, "batch", [])
    with pytest.raises(DataValidationError, match="every row"):
        Interventions.from_labels(["obs", None, "obs"], ["A"], [])
    with pytest.raises(DataValidationError, match="keeps 0 rows"):
        Interventions.from_labels(["do"] * 10, ["A", "B"], [("do", "A")])
    with pytest.raises(ParameterError, match="needs `condition`"):
        with_design(x, None, [("doB", "B")])
    bad = tmp_path / "t.csv"
    bad.write_text("cond,var\nx,y\n")
    with pytest.raises(DataValidationError, match="columns 'condition' and 'target'"):
        read_targets(bad)
    good = tmp_path / "g.csv"
    good.write_text("# Sachs-style targets\ncondition,target\ndoB, B\n\ndoC,C\n")
    assert read_targets(good) == [("doB", "B"), ("doC", "C")]


def test_em_and_positive_cpd_refuse_what_they_cannot_do(masked_data):
    x, labels, _ = masked_data
    frame = pd.DataFrame(x, columns=list("ABCD")).assign(cond=labels)
    frame.iloc[3, 0] = np.nan
    with pytest.raises(ParameterError, match="hidden variables with interventions are not implemented"):
        IdealParentSearch(hidden="auto").fit(frame, condition="cond", targets=[("doB", "B")])
    pos = from_array(np.exp(x), list("ABCD"), standardize=False)
    fitted = IdealParentSearch(cpd="multiplicative").fit(pos, condition=list(labels), targets=[("doB", "B")])
    assert fitted.network_.interventions["family_rows"]["B"] == int((labels != "doB").sum())
    with pytest.raises(ParameterError, match="additive CPD"):
        IdealParentSearch(cpd="multiplicative", condition_intercept=True).fit(
            pos, condition=list(labels), targets=[("doB", "B")]
        )


def test_family_profiles_use_the_familys_rows(masked_data):
    from engine.inspect import family_profiles

    x, labels, _ = masked_data
    frame = pd.DataFrame(x, columns=list("ABCD")).assign(cond=labels)
    est = IdealParentSearch(score="bic").fit(frame, condition="cond", targets=[("doB", "B")])
    fp = family_profiles(est.stepper_, est.dataset_.values, 1)
    assert fp.ideal.shape == ((labels != "doB").sum(),)
