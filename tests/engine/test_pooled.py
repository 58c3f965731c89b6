"""Tests of engine/hidden/pooled.py: a kept hidden variable read as the pooled activity of its
listed parents (#22 item 5, session 17): the decomposition against an independent least-squares
recomputation, the flag's conditions (at least two parents; under 3 nats of realized gain per child,
or, session 18, the parents explain R^2 >= 0.95 of H's profile) on hand-built networks, and the
reading carried by the report, its table, learn's stderr and the Hidden page."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from engine.hidden.pooled import COMBINATION_R2, MIN_PARENTS, STRONG_PER_CHILD, pooled_activity, pooled_reason


def _network(n_parents: int = 2, n_kids: int = 10, seed: int = 0, own: float = 0.3):
    """Observed: parents X0..X{k-1}, then ``n_kids`` children; hidden H last, H <- X, H -> children.
    Values: X random, H = w'X + ``own`` x noise (its posterior mean), children from H."""
    rng = np.random.default_rng(seed)
    m = 27
    n_obs = n_parents + n_kids
    n = n_obs + 1
    coef = np.zeros((n, n))
    w = np.array([0.9, -0.5, 0.3, 0.2])[:n_parents]
    coef[:n_parents, n - 1] = w
    coef[n - 1, n_parents:n_obs] = rng.uniform(0.5, 1.0, n_kids)
    values = rng.normal(size=(m, n))
    values[:, n - 1] = values[:, :n_parents] @ w + own * rng.normal(size=m)
    values[:, n_parents:n_obs] = np.outer(values[:, n - 1], coef[n - 1, n_parents:n_obs]) + rng.normal(size=(m, n_kids))
    names = [f"TF{i}" for i in range(n_parents)] + [f"g{i}" for i in range(n_kids)] + ["H1"]
    return coef, values, names, n_obs


class TestPooledActivity:
    @pytest.mark.parametrize("seed", range(3))
    def test_decomposition_against_lstsq(self, seed):
        coef, values, names, n_obs = _network(3, 12, seed)
        got = pooled_activity(coef, values, names, n_obs, n_obs, realized_gain=20.0)
        # independent: R^2 from numpy's lstsq with an intercept column; weights = coef * sd(X) / sd(H)
        x = np.column_stack([np.ones(values.shape[0]), values[:, :3]])
        y = values[:, n_obs]
        res = y - x @ np.linalg.lstsq(x, y, rcond=None)[0]
        r2 = 1.0 - res @ res / ((y - y.mean()) @ (y - y.mean()))
        assert got.r2 == pytest.approx(r2)
        want = {names[i]: coef[i, n_obs] * values[:, i].std() / y.std() for i in range(3)}
        assert dict(zip(got.regulators, got.weights, strict=True)) == pytest.approx(want)
        assert [abs(want[r]) for r in got.regulators] == sorted((abs(v) for v in want.values()), reverse=True)
        assert got.gain_per_child == pytest.approx(20.0 / 12)
        assert got.flagged  # 3 listed parents, 1.7 nats a child

    def test_strong_evidence_per_child_is_not_flagged(self):
        coef, values, names, n_obs = _network(2, 10)
        assert pooled_activity(coef, values, names, n_obs, n_obs, 10 * STRONG_PER_CHILD - 0.1).flagged
        got = pooled_activity(coef, values, names, n_obs, n_obs, 10 * STRONG_PER_CHILD)
        assert got.gain_per_child == pytest.approx(STRONG_PER_CHILD) and not got.flagged
        assert not pooled_activity(coef, values, names, n_obs, n_obs, math.nan).flagged

    def test_one_parent_or_none_is_not_pooled(self):
        coef, values, names, n_obs = _network(1, 10)
        got = pooled_activity(coef, values, names, n_obs, n_obs, 5.0)  # 0.5 nats a child
        assert MIN_PARENTS == 2 and got.regulators == ["TF0"] and not got.flagged
        coef[0, n_obs] = 0.0  # no parent: an on/off driver, say, is no listed regulator's activity
        assert pooled_activity(coef, values, names, n_obs, n_obs, 5.0) is None

    def test_candidates_restrict_the_parents(self):
        coef, values, names, n_obs = _network(2, 10)
        got = pooled_activity(coef, values, names, n_obs, n_obs, 5.0, candidates=[0])
        assert got.regulators == ["TF0"] and not got.flagged
        coef[n_obs, :n_obs] = 0.0  # no children
        assert pooled_activity(coef, values, names, n_obs, n_obs, 5.0) is None


class TestWeightedSum:
    """The second leg (session 18): H's profile is its listed parents' weighted sum (R^2 >= 0.95),
    flagged however much it gains per child (the h17m hub Hs: 3.5-4.9 nats a child, R^2 0.98-0.99)."""

    def test_strong_per_child_but_a_weighted_sum_is_flagged(self):
        coef, values, names, n_obs = _network(2, 10, own=0.05)
        got = pooled_activity(coef, values, names, n_obs, n_obs, 10 * 5.0)  # 5 nats a child
        assert got.r2 >= COMBINATION_R2 and got.gain_per_child == 5.0 and got.flagged
        assert pooled_reason(got.to_dict()) == f"its listed parents explain {got.r2:.0%} of its profile"
        assert pooled_activity(coef, values, names, n_obs, n_obs, math.nan).flagged  # no gain known: R^2 decides

    def test_learn_and_the_page_give_the_reason(self, capsys):
        from engine.cli.reports import report_hidden
        from engine.hidden import regulator_report
        from explorer.report_lines import report_line

        coef, values, names, n_obs = _network(2, 10, own=0.05)
        (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, gains={"H1": (60.0, 50.0)})
        pool = rep.extra["pooled"]
        why = f"its listed parents explain {pool['r2']:.0%} of its profile"
        assert pool["flagged"] and f"{why}, not a new regulator." in report_line(rep, ["TF0", "TF1"])
        h = {"name": "H1", "children": ["g1"], "parents": ["TF0", "TF1"], "pooled": pool}
        report_hidden(
            SimpleNamespace(max_hidden=3, hidden_log_=[]),
            SimpleNamespace(hidden=[h], flagged_proposals=[], score_info={}),
        )
        assert (
            f"(R^2 {pool['r2']:.2f}; 5.0 nats a child): {why}, read H1 as the pooled activity"
            in capsys.readouterr().err
        )

    def test_own_part_or_one_parent_is_not(self):
        coef, values, names, n_obs = _network(2, 10, own=0.6)  # R^2 about 0.75
        got = pooled_activity(coef, values, names, n_obs, n_obs, 10 * 5.0)
        assert got.r2 < COMBINATION_R2 and not got.flagged
        assert pooled_reason({**got.to_dict(), "gain_per_child": 1.5}) == "under 3 nats a child"
        coef, values, names, n_obs = _network(1, 10, own=0.05)  # one parent: R^2 near 1, still not pooled
        got = pooled_activity(coef, values, names, n_obs, n_obs, 10 * 5.0)
        assert got.r2 >= COMBINATION_R2 and not got.flagged

    def test_threshold_on_r2(self):
        """Just below and at the threshold: the same network with H's own part scaled."""
        rng = np.random.default_rng(3)
        m = 40
        x = rng.normal(size=(m, 2))
        u = rng.normal(size=m)
        u -= x @ np.linalg.lstsq(x - x.mean(0), u - u.mean(), rcond=None)[0]  # own part orthogonal to X
        base = x @ np.array([1.0, -0.6])
        for target, flagged in ((COMBINATION_R2 - 0.01, False), (COMBINATION_R2 + 0.001, True)):
            bc, uc = base - base.mean(), u - u.mean()
            scale = np.sqrt((bc @ bc) * (1 - target) / target / (uc @ uc))
            values = np.column_stack([x, rng.normal(size=(m, 3)), base + scale * u])
            coef = np.zeros((6, 6))
            coef[:2, 5] = [1.0, -0.6]
            coef[5, 2:5] = 1.0
            got = pooled_activity(coef, values, ["A", "B", "c1", "c2", "c3", "H1"], 5, 5, 3 * 10.0)
            assert got.r2 == pytest.approx(target) and got.flagged is flagged


class TestInTheReport:
    def test_report_table_and_line(self):
        from engine.hidden import regulator_report, report_table
        from explorer.report_lines import report_line

        coef, values, names, n_obs = _network(2, 10)
        variance = np.ones(len(names))
        (rep,) = regulator_report(names, n_obs, coef, variance, values, gains={"H1": (30.0, 15.0)})
        pool = rep.extra["pooled"]
        assert pool["flagged"] and pool["regulators"] == ["TF0", "TF1"] and pool["gain_per_child"] == 1.5
        assert rep.to_dict()["pooled"] == pool
        cell = report_table([rep])["pooled_of"].iloc[0]
        w0, w1 = pool["weights"]
        assert cell == f"{w0:.2f} TF0 - {abs(w1):.2f} TF1 (R^2 {pool['r2']:.2f}; 1.5 nats a child)"
        assert "**Pooled activity?** H1 ~ " + cell in report_line(rep, ["TF0", "TF1"])
        (rep,) = regulator_report(names, n_obs, coef, variance, values, gains={"H1": (30.0, 45.0)})
        assert not rep.extra["pooled"]["flagged"]
        assert report_table([rep])["pooled_of"].isna().all()
        assert "Pooled activity?" not in report_line(rep, ["TF0", "TF1"])

    def test_learn_says_it(self, capsys):
        from engine.cli.reports import report_hidden

        pool = {"regulators": ["TF042", "TF009"], "weights": [-0.78, 0.43], "r2": 0.95, "gain_per_child": 1.7}
        h = {"name": "H1", "children": ["g1", "g2"], "parents": ["TF042", "TF009"], "pooled": {**pool, "flagged": True}}
        quiet = {**h, "name": "H2", "pooled": {**pool, "flagged": False}}
        net = SimpleNamespace(hidden=[h, quiet], flagged_proposals=[], score_info={})
        report_hidden(SimpleNamespace(max_hidden=3, hidden_log_=[]), net)
        err = capsys.readouterr().err
        assert "H1 ~ -0.78 TF042 + 0.43 TF009 (R^2 0.95; 1.7 nats a child)" in err
        assert "read H1 as the pooled activity of TF042, TF009" in err
        assert "H2 ~" not in err
