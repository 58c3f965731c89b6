"""Tests for engine.inspect: family profiles, alpha_z, legal candidates and candidate tables."""

from __future__ import annotations

import numpy as np
import pytest

from engine.exceptions import ParameterError
from engine.ideal import c1 as ideal_c1
from engine.ideal import c2 as ideal_c2
from engine.inspect import candidate_table, family_profiles, legal_add_candidates, most_promising_child
from engine.learn import IdealParentSearch
from engine.search import Operator, Stepper
from engine.synth import random_network, sample_dataset


# ------------------------------------------------------------------ family_profiles
def test_ideal_profile_is_lstsq_residual(stepper, dataset, lstsq_residual):
    for child in range(dataset.n_vars):
        fp = family_profiles(stepper, dataset.values, child)
        resid = lstsq_residual(dataset.values, child, fp.parents)
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


def test_cosine_gives_c1_and_c2(stepper, dataset):
    """Issue 24: the inspector's scatter of ideal profile against candidate is labelled with cos phi;
    C1 = (M/2) cos^2 phi and C2 = -(M/2) log(1 - cos^2 phi) (Proposition 3.3, Theorem 3.4)."""
    child = next(c for c in range(dataset.n_vars) if stepper.parents(c))
    fp = family_profiles(stepper, dataset.values, child, top=4)
    m = dataset.n_samples
    np.testing.assert_allclose(fp.profiles, dataset.values[:, fp.candidates] - dataset.values[:, fp.candidates].mean(0))
    np.testing.assert_allclose(fp.c1, m / 2 * fp.cosine**2, rtol=1e-8)
    np.testing.assert_allclose(fp.c2, -m / 2 * np.log1p(-(fp.cosine**2)), rtol=1e-8)
    assert fp.profiles_star is None


def test_most_promising_child_has_the_largest_c2(stepper, dataset):
    best = most_promising_child(stepper)
    tops = [
        np.nanmax(stepper.entry(c).add_c2[legal_add_candidates(stepper, c)], initial=-np.inf)
        for c in range(dataset.n_vars)
    ]
    assert tops[best] == max(tops)


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
    zs = fp.profiles * fp.weights[:, None]
    np.testing.assert_allclose(fp.profiles_star, zs)
    cos = (ys @ zs) / np.sqrt(np.einsum("mj,mj->j", zs, zs) * (ys @ ys))
    np.testing.assert_allclose(fp.cosine, cos, rtol=1e-10)


def test_stepper_type(stepper):
    assert isinstance(stepper, Stepper)
