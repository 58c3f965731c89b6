"""The quick fill of missing cells (engine.impute): LLSimpute against numpy least squares,
KNNimpute against a brute-force computation, the data as given left alone, positive data kept
positive, and the refusals."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import Dataset
from engine.exceptions import DataValidationError, ParameterError
from engine.impute import K_CHOICES, quick_fill


def _dataset(values: np.ndarray, names=None) -> Dataset:
    values = np.array(values, dtype=float)
    names = tuple(names or (f"g{i}" for i in range(values.shape[1])))
    return Dataset(names, values, np.isnan(values))


def _standardized(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each column's mean and sd over its observed cells, and the values standardized, NaN kept."""
    mu, sd = np.nanmean(x, axis=0), np.nanstd(x, axis=0)
    return mu, sd, (x - mu) / sd


def _table(seed: int = 0, n: int = 30, p: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(n, 1))
    return 5.0 + base @ rng.normal(size=(1, p)) + 0.5 * rng.normal(size=(n, p))


def test_lls_is_the_least_squares_prediction_from_the_other_variables():
    x = _table()
    x[5, 0] = np.nan
    ds = _dataset(x)
    filled = quick_fill(ds, method="lls", k=3, ridge=0.0)  # k = every other variable
    mu, sd, z = _standardized(x)
    rows = ~np.isnan(z[:, 0])
    beta = np.linalg.lstsq(z[rows][:, 1:], z[rows, 0], rcond=None)[0]
    expected = mu[0] + sd[0] * (z[5, 1:] @ beta)
    assert filled.dataset.values[5, 0] == pytest.approx(expected, rel=1e-9)
    assert (filled.n_missing, filled.method, filled.k, filled.n_filled_vars) == (1, "lls", 3, 1)


def test_knn_matches_a_brute_force_search_of_the_nearest_variables():
    rng = np.random.default_rng(1)
    x = _table(seed=1, n=20, p=8)
    x[:, 3] = -x[:, 3]  # an anti-correlated variable counts, sign-flipped
    holes = [(2, 0), (7, 4), (11, 6), (7, 1)]
    x[:, 7] = np.where(rng.random(20) < 0.2, np.nan, x[:, 7])  # a neighbour missing here and there
    for r, c in holes:
        x[r, c] = np.nan
    filled = quick_fill(_dataset(x), method="knn", k=3).dataset.values
    mu, sd, z = _standardized(x)
    for r, c in holes:
        scored = []
        for h in range(8):
            if h == c or np.isnan(z[r, h]):
                continue
            both = ~np.isnan(z[:, c]) & ~np.isnan(z[:, h])
            cor = (z[both, c] @ z[both, h]) / np.sqrt((z[both, c] ** 2).sum() * (z[both, h] ** 2).sum())
            scored.append((abs(cor), np.sign(cor), h))
        top = sorted(scored, reverse=True)[:3]
        w = np.array([1 / np.sqrt(2 * (1 - a)) for a, _, _ in top])
        guess = sum(wi * s * z[r, h] for wi, (_, s, h) in zip(w, top, strict=True)) / w.sum()
        assert filled[r, c] == pytest.approx(mu[c] + sd[c] * guess, rel=1e-9), (r, c)


def test_the_data_given_are_not_changed_and_the_observed_cells_are_kept():
    x = _table(seed=2, n=25, p=6)
    x[[1, 4, 9], [0, 2, 2]] = np.nan
    ds = _dataset(x)
    before_values, before_missing = ds.values.copy(), ds.missing.copy()
    filled = quick_fill(ds)
    np.testing.assert_array_equal(ds.values, before_values)  # NaNs in the same places
    np.testing.assert_array_equal(ds.missing, before_missing)
    out = filled.dataset
    assert not out.missing.any() and np.isfinite(out.values).all()
    np.testing.assert_array_equal(out.values[~before_missing], x[~before_missing])
    assert out.names == ds.names and out.notes[-1].startswith("filled 3 missing cell(s)")
    assert filled.k in K_CHOICES and set(filled.k_errors) == set(K_CHOICES)


def test_positive_data_stay_positive_for_a_positive_cpd():
    rng = np.random.default_rng(3)
    a = rng.uniform(1.0, 10.0, 40)
    x = np.column_stack([a, 11.0 - a + 0.01 * rng.normal(size=40), rng.uniform(1, 2, 40)])
    x[0, 0], x[0, 1] = 12.0, np.nan  # the line predicts -1 for this cell
    linear = quick_fill(_dataset(x), method="lls", k=1).dataset.values[0, 1]
    positive = quick_fill(_dataset(x), {"cpd": "multiplicative"}, method="lls", k=1).dataset.values[0, 1]
    assert linear < 0
    assert positive == pytest.approx(0.5 * np.nanmin(x[:, 1]))


def test_a_variable_with_no_observed_value_is_refused_by_name():
    x = _table(seed=4)
    x[:, 2] = np.nan
    with pytest.raises(DataValidationError, match="g2"):
        quick_fill(_dataset(x))


@pytest.mark.parametrize("options", [{"method": "mice"}, {"k": 0}])
def test_unknown_method_or_k_is_refused(options):
    x = _table(seed=5)
    x[0, 0] = np.nan
    with pytest.raises(ParameterError):
        quick_fill(_dataset(x), **options)
