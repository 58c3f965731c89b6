"""The regulator report's two R^2 of a hidden variable H on its parents, and why both stay (QA,
session 18). ``parents_r2`` is the model's share of H's variance its parents explain
(``1 - sigma_H^2 / Var(H)``); the pooled reading's ``r2`` is the least-squares R^2 of H's posterior
profile on the same parents, the number its R^2 >= 0.95 leg was measured on (genome-null-hub-targets
decision page). The report computes each once and the table's ``pooled_of`` shows the pooled one."""

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
def test_parents_r2_is_the_models_share_and_pooled_r2_the_profiles_least_squares(seed):
    names, n_obs, coef, variance, values = _network(seed)
    (rep,) = regulator_report(names, n_obs, coef, variance, values, gains={"H1": (20.0, 20.0)})
    var_h = implied_variances(coef, variance, [n_obs])[n_obs]
    assert rep.parents_r2 == pytest.approx(1.0 - 0.6 / var_h)  # the model's share, by hand
    prof = values[:, n_obs] - values[:, n_obs].mean()
    x = values[:, :2] - values[:, :2].mean(axis=0)
    beta, *_ = np.linalg.lstsq(x, prof, rcond=None)
    ls_r2 = 1.0 - ((prof - x @ beta) ** 2).sum() / (prof @ prof)
    d = rep.to_dict()
    assert d["pooled"]["r2"] == pytest.approx(ls_r2)  # an independent least-squares refit
    assert d["pooled"]["r2"] == pooled_activity(coef, values, names, n_obs, n_obs, 20.0).r2
    assert abs(d["pooled"]["r2"] - rep.parents_r2) > 0.05  # two questions, two numbers here
    table = report_table([rep])
    assert f"R^2 {d['pooled']['r2']:.2f}" in str(table.iloc[0]["pooled_of"])
