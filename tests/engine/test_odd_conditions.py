"""Tests of engine/hidden/leverage.py's odd conditions (session 18): conditions odd in the whole
table (many cells at robust |z| > 4), the share of a profile's energy in them, and a kept H that
follows one with leverage under the half named by it in the report, its table and the Hidden page."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hidden.leverage import ODD_SHARE, odd_conditions, odd_share, profile_leverage


def _table(m: int = 30, n: int = 2500, seed: int = 0, shifts=((7, 100, 4.0),)):
    """Gaussian (m, n); each ``(row, genes, sd)`` shifts ``genes`` random columns at ``row``."""
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(m, n))
    for row, genes, sd in shifts:
        v[row, rng.choice(n, genes, replace=False)] += sd * rng.choice([-1, 1], genes)
    return v


class TestOddConditions:
    @pytest.mark.parametrize("seed", range(3))
    def test_the_odd_rows_and_only_them(self, seed):
        assert odd_conditions(_table(seed=seed)).tolist() == [7]
        two = _table(seed=seed, shifts=((3, 90, 3.5), (20, 120, 5.0)))
        assert odd_conditions(two).tolist() == [3, 20]
        assert odd_conditions(_table(seed=seed, shifts=())).size == 0

    def test_a_module_shifted_by_a_strain_is_not_odd(self):
        """R*'s deletion strain: 40 module genes 2.5 sd low (a coherent module, few cells past 4 robust
        sd), and a small odd condition under 1 % of the variables."""
        assert odd_conditions(_table(shifts=((5, 40, 2.5),))).size == 0
        assert odd_conditions(_table(shifts=((5, 20, 5.0),))).size == 0  # 20 of 2500 < 1 %
        assert odd_conditions(_table(shifts=((5, 30, 5.0),))).tolist() == [5]

    def test_a_few_dozen_variables(self):
        """On 40 variables the fence is 0 where most conditions have no far-off cell: one far-off
        cell is no odd condition, ten are."""
        v = _table(n=40, shifts=((4, 3, 6.0),))
        assert odd_conditions(v).size == 0
        assert odd_conditions(_table(n=40, shifts=((4, 12, 6.0),))).tolist() == [4]

    def test_few_conditions_and_missing_cells(self):
        assert odd_conditions(_table(m=9, shifts=((3, 200, 5.0),))).size == 0  # below MIN_INSTANCES
        v = _table()
        v[np.random.default_rng(1).random(v.shape) < 0.02] = np.nan
        assert odd_conditions(v).tolist() == [7]

    def test_share(self):
        z = np.array([3.0, -1.0, 0.0, 2.0, -4.0])
        zc = z - z.mean()
        assert odd_share(z, [0, 4]) == pytest.approx((zc[0] ** 2 + zc[4] ** 2) / (zc @ zc))
        assert odd_share(z, []) == 0.0 and odd_share(np.ones(5), [1]) == 0.0


def _odd_h_network(seed: int = 0):
    """An observed table with one odd row (7: 120 genes 4.5 sd) and a hidden H whose profile is
    0.67 x that row's indicator + a factor (|r| about 0.67 with the odd row, leverage under a half),
    with 20 children among the odd genes."""
    rng = np.random.default_rng(seed)
    m, n_obs = 30, 400
    v = rng.normal(size=(m, n_obs))
    odd_genes = rng.choice(n_obs, 120, replace=False)
    v[7, odd_genes] += 4.5
    ind = (np.arange(m) == 7).astype(float)
    ind = (ind - ind.mean()) / ind.std()
    fac = rng.normal(size=m)
    fac -= fac.mean()
    fac -= (fac @ ind) / (ind @ ind) * ind
    fac /= fac.std()
    h = 0.67 * ind + np.sqrt(1 - 0.67**2) * fac
    coef = np.zeros((n_obs + 1, n_obs + 1))
    coef[n_obs, odd_genes[:20]] = 1.0
    values = np.column_stack([v, h])
    names = [f"g{i}" for i in range(n_obs)] + ["H1"]
    labels = [f"c{i:02d}" for i in range(m)]
    return coef, values, names, n_obs, labels


class TestInTheReport:
    def test_odd_following_h_is_named(self):
        from engine.hidden import regulator_report, report_table
        from explorer.report_lines import report_line

        coef, values, names, n_obs, labels = _odd_h_network()
        lev = profile_leverage(values[:, n_obs], labels)
        assert 0.3 < lev.leverage < 0.5 and not lev.flagged  # the shares rule alone misses it
        (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, labels=labels)
        odd = rep.extra["odd_conditions"]
        assert odd["conditions"] == ["c07"] and odd["share"] > ODD_SHARE and odd["flagged"]
        assert odd["share"] == pytest.approx(odd_share(values[:, n_obs], [7]))
        assert report_table([rep])["odd_instances"].iloc[0] == "c07"
        assert f"**One odd sample?** {odd['share']:.0%} of its profile's energy is in c07" in report_line(rep, None)

    def test_a_profile_elsewhere_is_not(self):
        from engine.hidden import regulator_report
        from explorer.report_lines import report_line

        coef, values, names, n_obs, labels = _odd_h_network()
        values[:, n_obs] = np.random.default_rng(5).normal(size=values.shape[0])
        (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, labels=labels)
        odd = rep.extra["odd_conditions"]
        assert odd["conditions"] == ["c07"] and odd["share"] < ODD_SHARE and not odd["flagged"]
        assert "One odd sample?" not in report_line(rep, None)
