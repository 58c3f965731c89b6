"""Independent checks of engine.ideal: ideal profiles and the C1/C2 similarity measures.

Every expected value is derived here from first principles (np.linalg.lstsq fits with an
intercept, hand-written formulas of JMLR 2007 Theorem 3.2, Proposition 3.3 and Theorem 3.4),
never from the engine's own helpers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ideal import (
    R2_CAP,
    c1,
    c1_from_stats,
    c2,
    c2_from_stats,
    ideal_profile,
    replace_ideal_profile,
    similarity_matrix,
)

# ----------------------------------------------------------------------------- independent helpers


def lstsq_fit(x: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, float]:
    """(beta, rss) of x regressed on [1, u] by np.linalg.lstsq; beta[0] is the intercept."""
    m = x.shape[0]
    design = np.column_stack([np.ones(m), u.reshape(m, -1)])
    beta = np.linalg.lstsq(design, x, rcond=None)[0]
    resid = x - design @ beta
    return beta, float(resid @ resid)


def ml_loglik(x: np.ndarray, u: np.ndarray) -> float:
    """ML log-likelihood (nats) of a linear-Gaussian family with intercept, sigma^2 = RSS / M."""
    m = x.shape[0]
    _, rss = lstsq_fit(x, u)
    with np.errstate(divide="ignore"):
        return -0.5 * m * (math.log(2.0 * math.pi) + float(np.log(rss / m)) + 1.0)


def hand_c1(y, z, sigma2):
    return float((y @ z) ** 2 / (2.0 * sigma2 * (z @ z)))


def hand_c2(y, z):
    cos2 = (y @ z) ** 2 / ((y @ y) * (z @ z))
    return float(-0.5 * y.shape[0] * math.log(1.0 - cos2))


# ------------------------------------------------------------------------------------- profiles


class TestIdealProfile:
    def test_equals_lstsq_residual(self):
        rng = np.random.default_rng(0)
        for k in range(4):
            m = 40
            u = rng.normal(size=(m, k)) + rng.normal(size=k) * 3
            x = 2.0 + u @ rng.normal(size=k) + rng.normal(size=m)
            beta, rss = lstsq_fit(x, u)
            y = ideal_profile(x, u, beta[1:], beta[0])
            design = np.column_stack([np.ones(m), u])
            np.testing.assert_allclose(y, x - design @ beta, atol=1e-12)
            # a residual of a fit with an intercept is orthogonal to 1 and to every parent
            np.testing.assert_allclose(design.T @ y, 0.0, atol=1e-9)
            assert float(y @ y) == pytest.approx(rss, rel=1e-10)

    def test_new_parent_equal_to_ideal_profile_fits_exactly(self):
        """Definition 3.1: with the ideal profile as an extra parent of scale 1, x is predicted exactly."""
        rng = np.random.default_rng(1)
        u = rng.normal(size=(30, 2))
        x = rng.normal(size=30)
        alpha, theta0 = np.array([0.3, -1.1]), 0.7
        y = ideal_profile(x, u, alpha, theta0)
        np.testing.assert_allclose(theta0 + u @ alpha + 1.0 * y, x, atol=1e-12)

    def test_no_parents(self):
        x = np.array([1.0, 2.0, 4.0])
        np.testing.assert_allclose(ideal_profile(x, np.zeros((3, 0)), np.zeros(0), 7.0 / 3.0), x - 7.0 / 3.0)

    def test_one_dimensional_parent_array_is_accepted(self):
        x = np.array([1.0, 2.0, 4.0, 3.0])
        u = np.array([0.0, 1.0, 2.0, 1.0])
        np.testing.assert_allclose(ideal_profile(x, u, np.array([1.5]), 0.5), x - 1.5 * u - 0.5)

    def test_does_not_modify_inputs(self):
        rng = np.random.default_rng(2)
        x, u = rng.normal(size=10), rng.normal(size=(10, 2))
        x0, u0 = x.copy(), u.copy()
        ideal_profile(x, u, np.array([1.0, 2.0]), 3.0)
        np.testing.assert_array_equal(x, x0)
        np.testing.assert_array_equal(u, u0)


class TestReplaceIdealProfile:
    def test_is_y_plus_alpha_u(self):
        rng = np.random.default_rng(3)
        y, u = rng.normal(size=25), rng.normal(size=25)
        for a in (-2.0, 0.0, 0.37):
            np.testing.assert_allclose(replace_ideal_profile(y, u, a), y + a * u, atol=1e-15)

    def test_equals_profile_of_family_without_that_parents_term(self):
        """Def 4.1: the replace profile is the ideal profile with U_i's term dropped, all else frozen."""
        rng = np.random.default_rng(4)
        m = 50
        u = rng.normal(size=(m, 3))
        x = 1.0 + u @ np.array([0.5, -1.0, 2.0]) + rng.normal(size=m)
        beta, _ = lstsq_fit(x, u)
        y = ideal_profile(x, u, beta[1:], beta[0])
        for i in range(3):
            keep = [j for j in range(3) if j != i]
            expect = x - u[:, keep] @ beta[1:][keep] - beta[0]
            np.testing.assert_allclose(replace_ideal_profile(y, u[:, i], beta[1 + i]), expect, atol=1e-12)


# ------------------------------------------------------------------------------------ measures


class TestC1:
    def test_theorem_3_2_raw(self):
        rng = np.random.default_rng(5)
        y, z = rng.normal(size=60), rng.normal(size=60) + 2.0
        for s2 in (0.1, 0.7, 3.0):
            assert float(c1(y, z, sigma2=s2, centred=False)) == pytest.approx(hand_c1(y, z, s2), rel=1e-12)

    def test_theorem_3_2_centred_uses_centred_candidate(self):
        rng = np.random.default_rng(6)
        y, z = rng.normal(size=60), rng.normal(size=60) + 2.0
        zc = z - z.mean()
        assert float(c1(y, z, sigma2=0.5, centred=True)) == pytest.approx(hand_c1(y, zc, 0.5), rel=1e-12)

    def test_c1_is_the_max_over_alpha_of_the_frozen_loglik_gain(self):
        """Thm 3.2 as a statement: max_a [l(y - a z; sigma2) - l(y; sigma2)], found by a dense grid."""
        rng = np.random.default_rng(7)
        y, z = rng.normal(size=40), rng.normal(size=40)
        s2 = 0.9
        a_star = (y @ z) / (z @ z)
        grid = a_star + np.linspace(-1, 1, 2001)
        gains = [-(1 / (2 * s2)) * (np.sum((y - a * z) ** 2) - y @ y) for a in grid]
        assert max(gains) == pytest.approx(float(c1(y, z, sigma2=s2, centred=False)), rel=1e-9)

    def test_prop_3_3_ml_variance_gives_m_over_2_cos2(self):
        rng = np.random.default_rng(8)
        for m in (5, 17, 200):
            y, z = rng.normal(size=m), rng.normal(size=m) + 1.0
            cos2 = (y @ z) ** 2 / ((y @ y) * (z @ z))
            assert float(c1(y, z, sigma2=float(y @ y) / m, centred=False)) == pytest.approx(m / 2 * cos2, rel=1e-12)
            # and the default sigma2 is that ML value
            assert float(c1(y, z, centred=False)) == pytest.approx(m / 2 * cos2, rel=1e-12)

    def test_maximised_by_any_multiple_of_y(self):
        rng = np.random.default_rng(9)
        y = rng.normal(size=30)
        y -= y.mean()
        for c in (-3.0, 0.01, 5.0):
            assert float(c1(y, c * y, centred=False)) == pytest.approx(30 / 2, rel=1e-12)

    def test_zero_ideal_profile_gives_zero_like_c2(self):
        y, z = np.zeros(5), np.arange(5.0)
        assert float(c2(y, z)) == 0.0
        with np.errstate(all="ignore"):
            assert float(c1(y, z)) == 0.0
            assert similarity_matrix(y[:, None], z[:, None])[0][0, 0] == 0.0

    def test_zero_candidate_gives_zero(self):
        y = np.array([1.0, -1.0, 0.5, -0.5])
        assert float(c1(y, np.zeros(4), centred=False)) == 0.0
        assert float(c1(y, np.full(4, 3.0), centred=True)) == 0.0  # constant: zero after centring

    def test_matrix_of_candidates_equals_columns(self):
        rng = np.random.default_rng(10)
        y, z = rng.normal(size=20), rng.normal(size=(20, 4)) + 1.0
        for centred in (True, False):
            got = c1(y, z, centred=centred)
            assert got.shape == (4,)
            for j in range(4):
                assert got[j] == pytest.approx(float(c1(y, z[:, j], centred=centred)), rel=1e-12)

    def test_from_stats(self):
        rng = np.random.default_rng(11)
        y, z = rng.normal(size=30), rng.normal(size=30)
        got = c1_from_stats(y @ z, y @ y, z @ z, 30)
        assert float(got) == pytest.approx(hand_c1(y, z, (y @ y) / 30), rel=1e-12)
        assert float(c1_from_stats(y @ z, y @ y, 0.0, 30)) == 0.0


class TestC2:
    def test_theorem_3_4(self):
        rng = np.random.default_rng(12)
        y, z = rng.normal(size=60), rng.normal(size=60) + 2.0
        assert float(c2(y, z, centred=False)) == pytest.approx(hand_c2(y, z), rel=1e-12)
        assert float(c2(y, z, centred=True)) == pytest.approx(hand_c2(y, z - z.mean()), rel=1e-12)

    def test_c2_is_the_gain_with_variance_refitted(self):
        """Thm 3.4 as a statement: alpha_z and sigma refitted, everything else frozen."""
        rng = np.random.default_rng(13)
        m = 50
        y, z = rng.normal(size=m), rng.normal(size=m)
        a = (y @ z) / (z @ z)
        s2_old, s2_new = (y @ y) / m, np.sum((y - a * z) ** 2) / m
        expect = -(m / 2) * (math.log(s2_new) - math.log(s2_old))  # the quadratic terms cancel (both = M/2)
        assert float(c2(y, z, centred=False)) == pytest.approx(expect, rel=1e-10)

    def test_identical_profile_is_capped_not_infinite(self):
        y = np.array([1.0, -2.0, 0.5, 0.5])
        got = float(c2(y, 2.0 * y, centred=False))
        assert math.isfinite(got)
        assert got == pytest.approx(-0.5 * 4 * math.log1p(-R2_CAP), rel=1e-6)

    def test_from_stats(self):
        rng = np.random.default_rng(14)
        y, z = rng.normal(size=30), rng.normal(size=30)
        assert float(c2_from_stats(y @ z, y @ y, z @ z, 30)) == pytest.approx(hand_c2(y, z), rel=1e-12)
        assert float(c2_from_stats(y @ z, y @ y, 0.0, 30)) == 0.0

    def test_c1_le_c2_pointwise(self):
        rng = np.random.default_rng(15)
        y = rng.normal(size=(200, 12))
        z = rng.normal(size=(200, 12)) + y * rng.uniform(0, 3, size=12)
        for j in range(12):
            assert float(c1(y[:, j], z[:, j])) <= float(c2(y[:, j], z[:, j])) + 1e-12


class TestSimilarityMatrix:
    @pytest.mark.parametrize("centred", [True, False])
    def test_equals_loops(self, centred):
        rng = np.random.default_rng(16)
        ideal = rng.normal(size=(35, 4))
        cands = rng.normal(size=(35, 6)) + np.arange(6)  # candidates with different means
        cands[:, 2] = 0.5 * ideal[:, 1] + 0.1 * cands[:, 2]
        m1, m2 = similarity_matrix(ideal, cands, centred=centred)
        assert m1.shape == m2.shape == (4, 6)
        for f in range(4):
            for j in range(6):
                zj = cands[:, j] - cands[:, j].mean() if centred else cands[:, j]
                yf = ideal[:, f]
                assert m1[f, j] == pytest.approx(hand_c1(yf, zj, (yf @ yf) / 35), rel=1e-10)
                assert m2[f, j] == pytest.approx(hand_c2(yf, zj), rel=1e-10)
                assert m1[f, j] == pytest.approx(float(c1(yf, cands[:, j], centred=centred)), rel=1e-12)
                assert m2[f, j] == pytest.approx(float(c2(yf, cands[:, j], centred=centred)), rel=1e-12)

    def test_constant_candidate_column(self):
        rng = np.random.default_rng(17)
        ideal = rng.normal(size=(10, 2))
        cands = np.column_stack([np.full(10, 4.0), rng.normal(size=10)])
        m1, m2 = similarity_matrix(ideal, cands, centred=True)
        np.testing.assert_array_equal(m1[:, 0], 0.0)
        np.testing.assert_array_equal(m2[:, 0], 0.0)
        assert np.all(np.isfinite(m1)) and np.all(np.isfinite(m2))


# -------------------------------------------------------------- the bound C1 <= C2 <= exact gain


@st.composite
def family_case(draw):
    """A child, 0-3 parents and one candidate; the candidate may have a large mean, be nearly
    collinear with the parents, or be strongly related to the child."""
    m = draw(st.integers(5, 60))
    k = draw(st.integers(0, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    shift = draw(st.floats(-20, 20, allow_nan=False))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    collinear = draw(st.floats(0, 5, allow_nan=False))
    related = draw(st.floats(0, 5, allow_nan=False))
    noise = draw(st.sampled_from([1e-3, 0.3, 1.0]))
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(m, k)) * rng.uniform(0.2, 5, size=k) + rng.normal(size=k) * 3
    x = rng.normal() + u @ rng.normal(size=k) + rng.normal(size=m)
    z = (shift + collinear * (u @ rng.normal(size=k) if k else 0.0) + related * x + noise * rng.normal(size=m)) * scale
    return x, u, z


class TestLowerBoundProperty:
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(family_case(), st.booleans())
    def test_c1_le_c2_le_exact_gain(self, case, centred):
        x, u, z = case
        beta, rss = lstsq_fit(x, u)
        if rss <= 1e-12 * max(1.0, float(np.sum((x - x.mean()) ** 2))):
            return  # child already fitted exactly: nothing to bound
        y = ideal_profile(x, u, beta[1:], beta[0])
        # exact gain: two independent least-squares refits (may be +inf when M = k + 2 and z
        # completes an interpolating design)
        exact = ml_loglik(x, np.column_stack([u, z])) - ml_loglik(x, u)
        a = float(c1(y, z, centred=centred))
        b = float(c2(y, z, centred=centred))
        assert math.isfinite(a) and math.isfinite(b)
        assert 0.0 <= a <= b + 1e-9 * max(1.0, abs(b))
        assert b <= exact + 1e-6 * max(1.0, abs(exact)), (a, b, exact)

    def test_centred_is_tighter_for_a_candidate_with_a_large_mean(self):
        """Reference 1.3's example: the raw profile under-rates an offset candidate; centring helps."""
        rng = np.random.default_rng(18)
        m = 200
        z = rng.normal(size=m) + 1.5
        x = 0.5 * z + rng.normal(size=m)
        beta, _ = lstsq_fit(x, np.zeros((m, 0)))
        y = ideal_profile(x, np.zeros((m, 0)), np.zeros(0), beta[0])
        exact = ml_loglik(x, z[:, None]) - ml_loglik(x, np.zeros((m, 0)))
        raw, cen = float(c2(y, z, centred=False)), float(c2(y, z, centred=True))
        assert raw < cen <= exact + 1e-9
        # with no parents the centred C2 is the exact gain (z_perp is just the centred z)
        assert cen == pytest.approx(exact, rel=1e-10)
