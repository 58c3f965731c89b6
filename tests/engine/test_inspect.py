"""Tests for engine.inspect: profiles, candidate tables, bound summaries and the paper's figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.exceptions import ParameterError
from engine.ideal import c1 as ideal_c1
from engine.ideal import c2 as ideal_c2
from engine.inspect import (
    bound_summary,
    candidate_table,
    family_profiles,
    ideal_parent_example,
    legal_add_candidates,
    select_rows,
    sigmoid_linearization_example,
)
from engine.learn import IdealParentSearch
from engine.search import CandidateTable, Operator, Stepper
from engine.synth import random_network, sample_dataset


@pytest.fixture(scope="module")
def dataset():
    net = random_network(8, expected_parents=1.5, seed=3)
    return sample_dataset(net, 150, seed=4)


@pytest.fixture()
def stepper(dataset):
    st = IdealParentSearch(method="ideal", k=2).make_stepper(dataset)
    st.run(max_steps=3)
    return st


def _lstsq_residual(values, child, parents):
    design = np.column_stack([np.ones(values.shape[0]), values[:, list(parents)]])
    coef = np.linalg.lstsq(design, values[:, child], rcond=None)[0]
    return values[:, child] - design @ coef


# ------------------------------------------------------------------ family_profiles
def test_ideal_profile_is_lstsq_residual(stepper, dataset):
    for child in range(dataset.n_vars):
        fp = family_profiles(stepper, dataset.values, child)
        resid = _lstsq_residual(dataset.values, child, fp.parents)
        np.testing.assert_allclose(fp.ideal, resid, atol=1e-9)
        np.testing.assert_allclose(fp.x - fp.prediction, fp.ideal, atol=1e-9)
        assert fp.weights is None and fp.ideal_star is None


def test_some_family_has_parents(stepper, dataset):
    assert any(len(stepper.parents(c)) for c in range(dataset.n_vars))


def test_alpha_is_projection_coefficient(stepper, dataset):
    child = next(c for c in range(dataset.n_vars) if stepper.parents(c))
    fp = family_profiles(stepper, dataset.values, child, top=4)
    assert fp.centred is True
    for j, z_idx in enumerate(fp.candidates):
        z = dataset.values[:, z_idx]
        zc = z - z.mean()
        assert fp.alpha[j] == pytest.approx((fp.ideal @ zc) / (zc @ zc), rel=1e-10)
        np.testing.assert_allclose(fp.scaled[:, j], fp.alpha[j] * zc, atol=1e-12)


def test_top_candidates_are_best_legal_by_c2(stepper, dataset):
    child = 0
    fp = family_profiles(stepper, dataset.values, child, top=3)
    legal = legal_add_candidates(stepper, child)
    c2_all = stepper.entry(child).add_c2[legal]
    expect = legal[np.argsort(-c2_all, kind="stable")][:3]
    np.testing.assert_array_equal(np.sort(fp.candidates), np.sort(expect))
    assert np.all(np.diff(fp.c2) <= 1e-12)
    # C1/C2 agree with engine.ideal on the profile route
    z = dataset.values[:, fp.candidates]
    np.testing.assert_allclose(fp.c1, ideal_c1(fp.ideal, z), rtol=1e-8)
    np.testing.assert_allclose(fp.c2, ideal_c2(fp.ideal, z), rtol=1e-8)
    # exact gains equal the model's, and bound the estimates
    np.testing.assert_allclose(fp.exact, stepper.model.exact_add(child, fp.parents, fp.candidates))
    assert np.all(fp.c1 <= fp.c2 + 1e-9) and np.all(fp.c2 <= fp.exact + 1e-9)


def test_order_and_names(stepper, dataset):
    fp = family_profiles(stepper, dataset.values, 1, order="ideal", names=dataset.names)
    assert np.all(np.diff(fp.ideal[fp.order]) >= 0)
    assert fp.child_name == dataset.names[1]
    assert fp.candidate_names == [dataset.names[i] for i in fp.candidates]
    fp2 = family_profiles(stepper, dataset.values, 1, order="index")
    np.testing.assert_array_equal(fp2.order, np.arange(dataset.n_samples))
    with pytest.raises(ParameterError):
        family_profiles(stepper, dataset.values, 1, order="random")
    with pytest.raises(ParameterError):
        family_profiles(stepper, dataset.values, 99)


def test_legal_candidates_match_propose(stepper, dataset):
    table = stepper.propose()
    for child in range(dataset.n_vars):
        rows = (table.child == child) & (table.op == Operator.ADD)
        np.testing.assert_array_equal(np.sort(table.parent[rows]), legal_add_candidates(stepper, child))


def test_inspection_does_not_change_the_search(dataset):
    """Inspecting every family mid-search leaves the trajectory and the final counters unchanged."""
    plain = IdealParentSearch(k=2).make_stepper(dataset)
    watched = IdealParentSearch(k=2).make_stepper(dataset)
    plain.run(max_steps=3)
    watched.run(max_steps=3)
    for child in range(dataset.n_vars):
        candidate_table(watched, child, compute_exact=True)
        family_profiles(watched, dataset.values, child)
    a, b = plain.run(), watched.run()
    assert a.edges == b.edges
    assert a.n_exact == b.n_exact and a.n_ranked == b.n_ranked


# ------------------------------------------------------------------ candidate_table
def test_candidate_table(stepper, dataset):
    child = 2
    lazy = candidate_table(stepper, child)
    full = candidate_table(stepper, child, compute_exact=True, names=dataset.names)
    np.testing.assert_array_equal(lazy.candidates, legal_add_candidates(stepper, child))
    assert full.n_exact == len(full)
    known = np.isfinite(lazy.exact)
    np.testing.assert_allclose(lazy.exact[known], full.exact[known])
    np.testing.assert_allclose(full.exact, stepper.model.exact_add(child, stepper.parents(child), full.candidates))
    # rank 1 = largest C2
    assert full.c2[full.rank == 1].max() == pytest.approx(np.nanmax(full.c2))
    assert full.best_by_c2 == int(full.candidates[np.argmax(full.c2)])
    assert full.best_by_exact == int(full.candidates[np.argmax(full.exact)])
    frame = full.to_frame()
    assert list(frame.columns[:5]) == ["rank (C2)", "candidate", "C1", "C2", "exact gain"]
    assert list(frame["rank (C2)"]) == sorted(frame["rank (C2)"])
    assert set(frame["candidate"]) == {dataset.names[i] for i in full.candidates}


def test_candidate_table_full_family(dataset):
    st = IdealParentSearch(max_parents=0).make_stepper(dataset)
    ct = candidate_table(st, 0, compute_exact=True)
    assert len(ct) == 0 and ct.best_by_c2 is None
    fp = family_profiles(st, dataset.values, 0)
    assert fp.candidates.size == 0 and fp.scaled.shape == (dataset.n_samples, 0)


# -------------------------------------------------------------------- bound_summary
def test_bound_summary_linear_is_all_below(stepper):
    table = stepper.evaluate_all(stepper.propose())
    s = bound_summary(table)
    assert s.n > 20 and s.n_add > 0
    assert s.frac_c1_below == 1.0
    assert s.frac_c2_below == 1.0
    assert s.frac_c1_le_c2 == 1.0
    assert s.max_excess_c2 <= 1e-9
    assert 0.5 < s.spearman_c2 <= 1.0
    assert 0.0 <= s.top_agreement <= 1.0 and s.n_families > 0
    # Delete/Reverse rows (no estimates) are ignored
    est = np.isfinite(table.c1) & np.isfinite(table.c2) & np.isfinite(table.delta_loglik)
    assert s.n == int(est.sum())


def test_bound_summary_counts_violations_and_agreement():
    def table(c1, c2, ex, child):
        n = len(c1)
        return CandidateTable(
            op=np.zeros(n, dtype=np.int8),
            parent=np.arange(n),
            child=np.asarray(child),
            removed=np.full(n, -1),
            c1=np.asarray(c1, float),
            c2=np.asarray(c2, float),
            delta_loglik=np.asarray(ex, float),
            delta_bic=np.asarray(ex, float) - 1,
            rank=np.zeros(n, dtype=int),
            selected=np.ones(n, dtype=bool),
        )

    s = bound_summary(table([1, 2, 5, 0.5], [1.5, 3, 6, 0.4], [2, 2.5, 5.5, np.nan], [0, 0, 1, 1]))
    assert s.n == 3
    assert s.frac_c1_below == 1.0
    assert s.frac_c2_below == pytest.approx(1 / 3)
    assert s.max_excess_c2 == pytest.approx(0.5)
    # family 0 has 2 rows: best C2 is row 1 (3.0) but best exact is row 1 (2.5) -> agree
    assert s.n_families == 1 and s.top_agreement == 1.0
    empty = bound_summary(table([np.nan], [np.nan], [1.0], [0]))
    assert empty.n == 0 and math.isnan(empty.spearman_c2)


def test_select_rows(stepper):
    table = stepper.propose()
    add = select_rows(table, ["add"])
    assert len(add) == int((table.op == Operator.ADD).sum()) and np.all(add.op == Operator.ADD)
    both = select_rows(table, [Operator.ADD, "Replace"])
    assert len(both) == int(np.isin(table.op, [Operator.ADD, Operator.REPLACE]).sum())
    both.delta_loglik[:] = 123.0
    assert not np.any(table.delta_loglik == 123.0)


# ------------------------------------------------------------------------- Figure 1
def test_ideal_parent_example_consistent_with_engine():
    ex = ideal_parent_example(n_samples=40, noise=0.3, seed=0)
    values = np.column_stack([ex.u, ex.x, ex.candidates])
    model = LinearGaussianFamilies(values)
    # (b) the ideal profile is the residual of X on U
    np.testing.assert_allclose(ex.ideal, _lstsq_residual(values, 1, (0,)), atol=1e-10)
    np.testing.assert_allclose(ex.ideal, ex.x - ex.prediction_u, atol=1e-10)
    # (c) C1/C2 from the profiles equal the engine's scatter-matrix values
    c1_all, c2_all = model.add_similarity(1, (0,))
    np.testing.assert_allclose(ex.c1, c1_all[[2, 3]], rtol=1e-8)
    np.testing.assert_allclose(ex.c2, c2_all[[2, 3]], rtol=1e-8)
    np.testing.assert_allclose(ex.c1, ideal_c1(ex.ideal, ex.candidates), rtol=1e-12)
    # the noisy copy of the hidden parent is the one closest to the ideal profile
    assert ex.best == 0 and ex.c2[0] > ex.c2[1]
    # (d) the gain of the refit equals the exact gain, and bounds hold
    assert ex.gain == pytest.approx(ex.exact[ex.best], rel=1e-8)
    assert np.all(ex.c1 <= ex.c2 + 1e-12) and np.all(ex.c2 <= ex.exact + 1e-9)
    resid_after = _lstsq_residual(values, 1, (0, 2))
    np.testing.assert_allclose(ex.x - ex.prediction_best, resid_after, atol=1e-10)


@pytest.mark.parametrize("noise,m,seed", [(0.0, 10, 1), (1.5, 200, 7), (0.3, 5, 2)])
def test_ideal_parent_example_ranges(noise, m, seed):
    ex = ideal_parent_example(n_samples=m, noise=noise, seed=seed)
    assert ex.x.shape == (m,) and ex.scaled.shape == (m, 2)
    assert np.all(np.isfinite(ex.c1)) and np.all(np.isfinite(ex.c2)) and np.isfinite(ex.gain)


def test_ideal_parent_example_rejects_bad_input():
    with pytest.raises(ParameterError):
        ideal_parent_example(n_samples=2)
    with pytest.raises(ParameterError):
        ideal_parent_example(noise=-1.0)


# ------------------------------------------------------------------------- Figure 4
def test_sigmoid_linearization_paper_numbers():
    sl = sigmoid_linearization_example((0.5, 0.85), theta0=0.0, theta1=1.0, s=0.0)
    assert sl.y[0] == pytest.approx(0.0, abs=1e-12)
    assert sl.gprime[0] == pytest.approx(0.25)
    assert sl.y[1] == pytest.approx(1.7346, abs=1e-4)
    assert sl.gprime[1] == pytest.approx(0.1275)


def test_sigmoid_linearization_surfaces():
    sl = sigmoid_linearization_example((0.5, 0.85), sigma=0.1, n_grid=51)
    g = sl.z_axis.shape[1]
    assert sl.surface_exact.shape == sl.surface_lin.shape == (g, g)
    mid = g // 2
    # at z = y the tangent touches the curve and both likelihoods peak
    np.testing.assert_allclose(sl.g_exact[:, mid], sl.x)
    np.testing.assert_allclose(sl.g_lin[:, mid], sl.x)
    np.testing.assert_allclose(sl.ll_exact[:, mid], sl.ll_lin[:, mid])
    assert sl.surface_lin.argmax() == np.ravel_multi_index((mid, mid), (g, g))
    # separable: rows follow instance 2, columns instance 1
    np.testing.assert_allclose(sl.surface_exact[3, 7], sl.ll_exact[1, 3] + sl.ll_exact[0, 7])
    # linearized log-likelihood is a parabola with curvature g'^2 / sigma^2
    d = sl.z_axis[0, 1] - sl.z_axis[0, 0]
    curv = (sl.ll_lin[:, mid + 1] - 2 * sl.ll_lin[:, mid] + sl.ll_lin[:, mid - 1]) / d**2
    np.testing.assert_allclose(-curv, sl.gprime**2 / sl.sigma**2, rtol=1e-6)
    np.testing.assert_allclose(sl.skewed_axis, sl.z_axis * sl.gprime[:, None])


def test_sigmoid_linearization_clips_outside_image():
    sl = sigmoid_linearization_example((1.2, -0.1))
    assert np.all(np.isfinite(sl.y)) and np.all(sl.gprime > 0)
    assert sl.p[0] < 1 and sl.p[1] > 0
    with pytest.raises(ParameterError):
        sigmoid_linearization_example(theta1=0.0)
    with pytest.raises(ParameterError):
        sigmoid_linearization_example(sigma=0.0)


# --------------------------------------------------------------- non-linear families
def test_family_profiles_sigmoid_weights():
    net = random_network(5, seed=2, cpd="sigmoid")
    ds = sample_dataset(net, 80, seed=3)
    st = IdealParentSearch(cpd="sigmoid", k=1).make_stepper(ds)
    st.step()
    child = next((c for c in range(ds.n_vars) if st.parents(c)), 0)
    fp = family_profiles(st, ds.values, child, top=2)
    assert fp.cpd == "sigmoid" and fp.weights is not None
    np.testing.assert_allclose(fp.weights, st.model.ideal_weights(child, st.parents(child)))
    np.testing.assert_allclose(fp.ideal_star, fp.ideal * fp.weights)
    ys, zs = fp.ideal * fp.weights, ds.values[:, fp.candidates] * fp.weights[:, None]
    np.testing.assert_allclose(fp.alpha, (ys @ zs) / np.einsum("mj,mj->j", zs, zs), rtol=1e-10)
    assert np.all(np.isfinite(fp.exact)) and np.all(np.isfinite(fp.prediction))


def test_stepper_type(stepper):
    assert isinstance(stepper, Stepper)
