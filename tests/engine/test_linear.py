"""Independent checks of engine.cpd.linear.LinearGaussianFamilies.

The engine computes everything from a centred scatter matrix; here every expected value comes from
np.linalg.lstsq fits on the raw rows (with an intercept column), so a slip in the sufficient
statistics algebra (centring, Frisch-Waugh-Lovell, Cholesky) shows up as a mismatch.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cpd.linear import LinearGaussianFamilies, linear_family_loglik
from engine.exceptions import MissingValuesError, NumericalWarning

# ----------------------------------------------------------------------------- independent helpers


def lstsq_fit(x: np.ndarray, u: np.ndarray):
    """(intercept, coefficients, rss) of x on [1, u] by np.linalg.lstsq on raw rows."""
    m = x.shape[0]
    design = np.column_stack([np.ones(m), u.reshape(m, -1)])
    beta = np.linalg.lstsq(design, x, rcond=None)[0]
    resid = x - design @ beta
    return float(beta[0]), beta[1:], float(resid @ resid)


def ml_loglik(values: np.ndarray, child: int, parents) -> float:
    x = values[:, child]
    m = x.shape[0]
    _, _, rss = lstsq_fit(x, values[:, list(parents)])
    return -0.5 * m * (math.log(2.0 * math.pi * rss / m) + 1.0)


def residual(values, child, parents):
    x = values[:, child]
    b0, b, _ = lstsq_fit(x, values[:, list(parents)])
    return x - b0 - values[:, list(parents)] @ b


def make_data(seed: int, m: int = 150, n: int = 7) -> np.ndarray:
    """Correlated, un-standardized data: different means and scales per column."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    for j in range(1, n):  # a random lower-triangular dependence
        x[:, j] += x[:, :j] @ (rng.normal(size=j) * (rng.uniform(size=j) < 0.5))
    return x * rng.uniform(0.1, 10, size=n) + rng.normal(size=n) * 20


PARENT_SETS = [(), (1,), (1, 2), (2, 4, 6), (1, 3, 5, 6)]


@pytest.fixture(scope="module")
def data():
    return make_data(0)


@pytest.fixture(scope="module")
def fam(data):
    return LinearGaussianFamilies(data)


# ----------------------------------------------------------------------------------------- fit


class TestFit:
    @pytest.mark.parametrize("parents", PARENT_SETS)
    def test_equals_lstsq_on_raw_rows(self, data, fam, parents):
        m = data.shape[0]
        b0, b, rss = lstsq_fit(data[:, 0], data[:, list(parents)])
        fit = fam.fit(0, parents)
        assert fit.child == 0 and tuple(fit.parents) == parents
        assert fit.loglik == pytest.approx(-0.5 * m * (math.log(2 * math.pi * rss / m) + 1), rel=1e-10)
        assert fit.params["intercept"] == pytest.approx(b0, rel=1e-8, abs=1e-8)
        np.testing.assert_allclose(fit.params["coefficients"], b, rtol=1e-8, atol=1e-10)
        assert fit.params["variance"] == pytest.approx(rss / m, rel=1e-9)  # ML, not unbiased
        assert fit.n_params == len(parents) + 2

    def test_every_child_and_parent_set_of_a_small_problem(self):
        vals = make_data(1, m=40, n=5)
        fam = LinearGaussianFamilies(vals)
        for child in range(5):
            others = [j for j in range(5) if j != child]
            for r in range(len(others) + 1):
                for ps in itertools.combinations(others, r):
                    assert fam.fit(child, ps).loglik == pytest.approx(ml_loglik(vals, child, ps), rel=1e-9)

    def test_linear_family_loglik_at_ml_parameters_equals_fit(self, data, fam):
        """l(theta_hat) with sigma^2 = RSS/M reduces to -(M/2)(log(2 pi sigma^2) + 1)."""
        for ps in PARENT_SETS:
            fit = fam.fit(0, ps)
            got = linear_family_loglik(fit.params, data[:, 0], data[:, list(ps)])
            assert got == pytest.approx(fit.loglik, rel=1e-9)

    def test_linear_family_loglik_by_hand(self):
        params = {"intercept": 1.0, "coefficients": [2.0], "variance": 0.5}
        x, u = np.array([3.0, 1.0]), np.array([1.0, 0.5])
        r = x - 1.0 - 2.0 * u  # [0, -1]
        expect = -0.5 * (2 * math.log(2 * math.pi * 0.5) + (r @ r) / 0.5)
        assert linear_family_loglik(params, x, u) == pytest.approx(expect, rel=1e-12)

    def test_ideal_profile_method_is_the_residual(self, data, fam):
        for ps in PARENT_SETS:
            np.testing.assert_allclose(fam.ideal_profile(data, 0, ps), residual(data, 0, ps), atol=1e-8)

    def test_from_moments_equals_direct(self, data, fam):
        mu = data.mean(axis=0)
        s = (data - mu).T @ (data - mu)
        fm = LinearGaussianFamilies.from_moments(mu, s, data.shape[0])
        for ps in PARENT_SETS:
            assert fm.fit(0, ps).loglik == pytest.approx(fam.fit(0, ps).loglik, rel=1e-12)
        np.testing.assert_allclose(fm.exact_add(0, (1,), np.arange(2, 7)), fam.exact_add(0, (1,), np.arange(2, 7)))

    def test_input_not_modified(self, data):
        before = data.copy()
        f = LinearGaussianFamilies(data)
        f.fit(0, (1, 2))
        f.add_similarity(0, (1,))
        np.testing.assert_array_equal(data, before)

    def test_n_params(self, fam):
        assert [fam.n_params(k) for k in range(4)] == [2, 3, 4, 5]


# ---------------------------------------------------------------------------------- exact gains


class TestExactAdd:
    @pytest.mark.parametrize("parents", PARENT_SETS)
    def test_every_candidate_equals_refit_difference(self, data, fam, parents):
        cand = np.array([j for j in range(data.shape[1]) if j != 0 and j not in parents])
        base = ml_loglik(data, 0, parents)
        expect = [ml_loglik(data, 0, sorted(parents + (int(z),))) - base for z in cand]
        np.testing.assert_allclose(fam.exact_add(0, parents, cand), expect, rtol=1e-7, atol=1e-8)

    def test_all_children(self):
        vals = make_data(2, m=60, n=6)
        fam = LinearGaussianFamilies(vals)
        for child in range(6):
            others = [j for j in range(6) if j != child]
            for ps in [(), tuple(others[:1]), tuple(others[1:3])]:
                cand = np.array([j for j in others if j not in ps])
                base = ml_loglik(vals, child, ps)
                expect = [ml_loglik(vals, child, sorted(ps + (int(z),))) - base for z in cand]
                np.testing.assert_allclose(fam.exact_add(child, ps, cand), expect, rtol=1e-7, atol=1e-8)

    def test_exact_add_many_equals_exact_add(self, fam):
        reqs = [(0, (1,), np.array([2, 3])), (3, (), np.array([0, 1, 6])), (5, (2, 4), np.array([0, 6]))]
        out = fam.exact_add_many(reqs)
        assert len(out) == 3
        for (c, p, idx), got in zip(reqs, out, strict=True):
            np.testing.assert_allclose(got, fam.exact_add(c, p, idx))


class TestExactReplace:
    @pytest.mark.parametrize("parents", [(1,), (1, 2), (2, 4, 6), (1, 3, 5, 6)])
    def test_equals_refit_difference(self, data, fam, parents):
        base = ml_loglik(data, 0, parents)
        cand = np.array([j for j in range(data.shape[1]) if j != 0 and j not in parents])
        for i in range(len(parents)):
            reduced = parents[:i] + parents[i + 1 :]
            expect = [ml_loglik(data, 0, sorted(reduced + (int(z),))) - base for z in cand]
            np.testing.assert_allclose(fam.exact_replace(0, parents, i, cand), expect, rtol=1e-7, atol=1e-8)


class TestDeleteGains:
    @pytest.mark.parametrize("parents", PARENT_SETS)
    def test_equals_refit_difference(self, data, fam, parents):
        base = ml_loglik(data, 0, parents)
        expect = [ml_loglik(data, 0, parents[:i] + parents[i + 1 :]) - base for i in range(len(parents))]
        got = fam.delete_gains(0, parents)
        assert got.shape == (len(parents),)
        np.testing.assert_allclose(got, expect, rtol=1e-7, atol=1e-8)
        assert np.all(got <= 1e-9)  # removing a parent never raises the ML likelihood


# ------------------------------------------------------------------------------------- rankings


def _hand_c(y, z, centred):
    """C1 (sigma^2 = y.y/M) and C2 of Theorems 3.2/3.4, written out."""
    if centred:
        z = z - z.mean()
    m = y.shape[0]
    cos2 = (y @ z) ** 2 / ((y @ y) * (z @ z))
    return m / 2 * cos2, -m / 2 * math.log(1 - cos2)


class TestAddSimilarity:
    @pytest.mark.parametrize("centred", [True, False])
    @pytest.mark.parametrize("parents", PARENT_SETS)
    def test_values_bounds_and_nans(self, data, parents, centred):
        fam = LinearGaussianFamilies(data, centred=centred)
        a1, a2 = fam.add_similarity(0, parents)
        n = data.shape[1]
        assert a1.shape == a2.shape == (n,)
        own = [0, *parents]
        assert np.all(np.isnan(a1[own])) and np.all(np.isnan(a2[own]))
        cand = np.array([j for j in range(n) if j not in own])
        assert np.all(np.isfinite(a1[cand])) and np.all(np.isfinite(a2[cand]))
        y = residual(data, 0, parents)
        base = ml_loglik(data, 0, parents)
        for z in cand:
            h1, h2 = _hand_c(y, data[:, z], centred)
            assert a1[z] == pytest.approx(h1, rel=1e-6, abs=1e-9)
            assert a2[z] == pytest.approx(h2, rel=1e-6, abs=1e-9)
            exact = ml_loglik(data, 0, sorted(parents + (int(z),))) - base
            assert a1[z] <= a2[z] + 1e-9
            assert a2[z] <= exact + 1e-7 * max(1.0, abs(exact))

    def test_raw_measures_underrate_offset_candidates(self):
        """With large column means the raw (paper) measures are far below the centred ones."""
        vals = make_data(3)
        raw1, raw2 = LinearGaussianFamilies(vals, centred=False).add_similarity(0, (1,))
        cen1, cen2 = LinearGaussianFamilies(vals, centred=True).add_similarity(0, (1,))
        ok = np.isfinite(raw2)
        assert np.all(raw2[ok] <= cen2[ok] + 1e-9)


class TestReplaceSimilarity:
    @pytest.mark.parametrize("centred", [True, False])
    @pytest.mark.parametrize("parents", [(1,), (1, 2), (2, 4, 6), (1, 3, 5, 6)])
    def test_bounds_and_nans(self, data, parents, centred):
        fam = LinearGaussianFamilies(data, centred=centred)
        r1, r2 = fam.replace_similarity(0, parents)
        n = data.shape[1]
        assert r1.shape == r2.shape == (len(parents), n)
        own = [0, *parents]
        assert np.all(np.isnan(r1[:, own])) and np.all(np.isnan(r2[:, own]))
        cand = np.array([j for j in range(n) if j not in own])
        base = ml_loglik(data, 0, parents)
        for i in range(len(parents)):
            reduced = parents[:i] + parents[i + 1 :]
            exact = np.array([ml_loglik(data, 0, sorted(reduced + (int(z),))) - base for z in cand])
            assert np.all(np.isfinite(r1[i, cand])) and np.all(np.isfinite(r2[i, cand]))
            assert np.all(r1[i, cand] <= r2[i, cand] + 1e-9)
            assert np.all(r2[i, cand] <= exact + 1e-7 * np.maximum(1.0, np.abs(exact))), (r2[i, cand], exact)

    def test_c2_replace_is_loglik_at_a_feasible_point(self, data):
        """C2_rep equals the gain of the frozen model x ~ theta0' + sum_{j!=i} alpha_j u_j + a z with
        only a and sigma refitted, computed here on raw rows (with the intercept re-centred)."""
        fam = LinearGaussianFamilies(data, centred=True)
        parents = (1, 2, 4)
        m = data.shape[0]
        b0, b, rss = lstsq_fit(data[:, 0], data[:, list(parents)])
        r1, r2 = fam.replace_similarity(0, parents)
        for i in range(3):
            keep = [j for j in range(3) if j != i]
            yi = data[:, 0] - data[:, [parents[j] for j in keep]] @ b[keep]
            yi = yi - yi.mean()  # the intercept absorbs the dropped term's mean
            for z in (3, 5, 6):
                zc = data[:, z] - data[:, z].mean()
                a = (yi @ zc) / (zc @ zc)
                rss_new = float(np.sum((yi - a * zc) ** 2))
                assert r2[i, z] == pytest.approx(-(m / 2) * math.log(rss_new / rss), rel=1e-6, abs=1e-8)
                assert r1[i, z] == pytest.approx((m / 2) * (1 - rss_new / rss), rel=1e-6, abs=1e-8)

    def test_no_parents(self, fam):
        r1, r2 = fam.replace_similarity(0, ())
        assert r1.shape == r2.shape == (0, 7)


class TestBoundsProperty:
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 10_000), st.integers(8, 60), st.booleans(), st.integers(0, 3))
    def test_add_and_replace_bounds(self, seed, m, centred, k):
        vals = make_data(seed, m=m, n=6)
        fam = LinearGaussianFamilies(vals, centred=centred)
        parents = tuple(range(1, 1 + k))
        cand = np.arange(1 + k, 6)
        a1, a2 = fam.add_similarity(0, parents)
        ex = fam.exact_add(0, parents, cand)
        base = ml_loglik(vals, 0, parents)
        ref = np.array([ml_loglik(vals, 0, parents + (int(z),)) - base for z in cand])
        np.testing.assert_allclose(ex, ref, rtol=1e-6, atol=1e-7)
        assert np.all(a1[cand] <= a2[cand] + 1e-9)
        assert np.all(a2[cand] <= ref + 1e-6 * np.maximum(1, np.abs(ref)))
        r1, r2 = fam.replace_similarity(0, parents)
        for i in range(k):
            rex = fam.exact_replace(0, parents, i, cand)
            assert np.all(r1[i, cand] <= r2[i, cand] + 1e-9)
            assert np.all(r2[i, cand] <= rex + 1e-6 * np.maximum(1, np.abs(rex)))


# ---------------------------------------------------------------------------- awkward inputs


class TestAwkwardData:
    def test_missing_values_rejected(self):
        vals = make_data(4, m=20, n=3)
        vals[5, 1] = np.nan
        with pytest.raises(MissingValuesError):
            LinearGaussianFamilies(vals)

    def test_duplicated_column(self):
        vals = make_data(5, m=80, n=5)
        vals = np.column_stack([vals, vals[:, 1]])  # column 5 duplicates column 1
        fam = LinearGaussianFamilies(vals)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            fit = fam.fit(0, (1, 5))
            assert np.isfinite(fit.loglik)
            assert all(np.isfinite(fit.params["coefficients"]))
            # the duplicate adds nothing: same likelihood as the family with one copy
            assert fit.loglik == pytest.approx(ml_loglik(vals, 0, (1,)), rel=1e-8)
            g = fam.exact_add(0, (1,), np.array([2, 3, 4, 5]))
            assert np.all(np.isfinite(g))
            assert g[-1] == pytest.approx(0.0, abs=1e-6)
            for out in (*fam.add_similarity(0, (1,)), *fam.replace_similarity(0, (1,))):
                assert np.all(np.isfinite(out[..., [2, 3, 4]]))
            # the duplicate as a child of its twin: a perfect fit, floored variance, finite
            assert np.isfinite(fam.fit(5, (1,)).loglik)
            assert np.all(np.isfinite(fam.exact_add(5, (), np.array([0, 1, 2]))))
            assert np.all(np.isfinite(fam.add_similarity(5, ())[1][[0, 1, 2]]))
            assert np.all(np.isfinite(fam.delete_gains(0, (1, 5))))
            assert np.all(np.isfinite(fam.exact_replace(0, (1, 5), 0, np.array([2, 3]))))

    def test_affine_collinear_parents(self):
        vals = make_data(6, m=50, n=4)
        vals = np.column_stack([vals, 3.0 * vals[:, 2] - 7.0])  # column 4 = affine function of column 2
        fam = LinearGaussianFamilies(vals)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            fit = fam.fit(0, (2, 4))
            assert np.isfinite(fit.loglik)
            assert fit.loglik == pytest.approx(ml_loglik(vals, 0, (2,)), rel=1e-6)
            assert np.all(np.isfinite(fam.exact_add(0, (2, 4), np.array([1, 3]))))
            assert np.all(np.isfinite(fam.exact_add(0, (2,), np.array([1, 3, 4]))))
