"""Tests for engine.teaching: the paper's Figure 1 and Figure 4 built live."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.exceptions import ParameterError
from engine.ideal import c1 as ideal_c1
from engine.teaching import ideal_parent_example, sigmoid_linearization_example


# ------------------------------------------------------------------------- Figure 1
def test_ideal_parent_example_consistent_with_engine(lstsq_residual):
    ex = ideal_parent_example(n_samples=40, noise=0.3, seed=0)
    values = np.column_stack([ex.u, ex.x, ex.candidates])
    model = LinearGaussianFamilies(values)
    # (b) the ideal profile is the residual of X on U
    np.testing.assert_allclose(ex.ideal, lstsq_residual(values, 1, (0,)), atol=1e-10)
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
    resid_after = lstsq_residual(values, 1, (0, 2))
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
