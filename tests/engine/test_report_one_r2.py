"""The regulator report shows one R^2 of a hidden variable H on its parents (QA, session 18): the
report's ``parents_r2`` (the model's ``1 - sigma_H^2 / Var(H)``) and its pooled reading's ``r2`` were
two different numbers for the same question (the pooled one a least-squares fit of H's posterior
profile). Now the report computes it once and the pooled reading carries it."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hidden.pooled import pooled_activity
from engine.hidden.report import implied_variances, regulator_report
from engine.hidden.report_table import report_table


def _network(seed: int = 0):
    """TF0, TF1 -> H -> g0..g7 (H last, hidden), H's profile with noise of its own."""
    rng = np.random.default_rng(seed)
    m, n_kids = 30, 8
    n_obs = 2 + n_kids
    n = n_obs + 1
    coef = np.zeros((n, n))
    coef[:2, n - 1] = [0.8, -0.5]
    coef[n - 1, 2:n_obs] = rng.uniform(0.5, 1.0, n_kids)
    variance = np.ones(n)
    variance[n - 1] = 0.6
    values = rng.normal(size=(m, n))
    values[:, n - 1] = values[:, :2] @ coef[:2, n - 1] + 0.2 * rng.normal(size=m)
    names = ["TF0", "TF1"] + [f"g{i}" for i in range(n_kids)] + ["H1"]
    return names, n_obs, coef, variance, values


@pytest.mark.parametrize("seed", range(2))
def test_one_r2_in_the_report_its_pooled_reading_and_table(seed):
    names, n_obs, coef, variance, values = _network(seed)
    (rep,) = regulator_report(names, n_obs, coef, variance, values, gains={"H1": (20.0, 20.0)})
    var_h = implied_variances(coef, variance, [n_obs])[n_obs]
    assert rep.parents_r2 == pytest.approx(1.0 - 0.6 / var_h)  # the model's share, by hand
    d = rep.to_dict()
    assert d["pooled"]["r2"] == d["parents_r2"] == rep.parents_r2  # the same number, both keys kept
    # the least-squares R^2 of the profile (what pooled showed before) is a different number here
    alone = pooled_activity(coef, values, names, n_obs, n_obs, 20.0)
    assert abs(alone.r2 - rep.parents_r2) > 0.05
    table = report_table([rep])
    assert f"R^2 {rep.parents_r2:.2f}" in str(table.iloc[0]["pooled_of"])
