"""Tests of engine/hidden/pooled.py: a kept hidden variable read as the pooled activity of its
listed parents (#22 item 5, session 17): the standardized weights against an independent
recomputation, the flag's conditions (at least two parents; under 3 nats of realized gain per child,
or, session 18, the parents explain R^2 >= 0.95 of H's variance: since session 19 the report's
``parents_r2``, the model's share, computed by the report from H's noise variance) on hand-built
networks, and the reading carried by the report, its table, learn's stderr and the Hidden page."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from engine.hidden.pooled import COMBINATION_R2, MIN_PARENTS, STRONG_PER_CHILD, pooled_activity, pooled_reason

#: a parents_r2 below the weighted-sum leg's threshold
LOW = 0.5


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
    def test_weights_and_the_r2_given(self, seed):
        coef, values, names, n_obs = _network(3, 12, seed)
        got = pooled_activity(coef, values, names, n_obs, n_obs, realized_gain=20.0, parents_r2=0.61)
        assert got.r2 == 0.61  # the report's parents_r2, not refitted here
        # independent: weights = coef * sd(X) / sd(H)
        y = values[:, n_obs]
        want = {names[i]: coef[i, n_obs] * values[:, i].std() / y.std() for i in range(3)}
        assert dict(zip(got.regulators, got.weights, strict=True)) == pytest.approx(want)
        assert [abs(want[r]) for r in got.regulators] == sorted((abs(v) for v in want.values()), reverse=True)
        assert got.gain_per_child == pytest.approx(20.0 / 12)
        assert got.flagged  # 3 listed parents, 1.7 nats a child

    def test_strong_evidence_per_child_is_not_flagged(self):
        coef, values, names, n_obs = _network(2, 10)
        assert pooled_activity(coef, values, names, n_obs, n_obs, 10 * STRONG_PER_CHILD - 0.1, parents_r2=LOW).flagged
        got = pooled_activity(coef, values, names, n_obs, n_obs, 10 * STRONG_PER_CHILD, parents_r2=LOW)
        assert got.gain_per_child == pytest.approx(STRONG_PER_CHILD) and not got.flagged
        assert not pooled_activity(coef, values, names, n_obs, n_obs, math.nan, parents_r2=LOW).flagged

    def test_one_parent_or_none_is_not_pooled(self):
        coef, values, names, n_obs = _network(1, 10)
        got = pooled_activity(coef, values, names, n_obs, n_obs, 5.0, parents_r2=LOW)  # 0.5 nats a child
        assert MIN_PARENTS == 2 and got.regulators == ["TF0"] and not got.flagged
        coef[0, n_obs] = 0.0  # no parent: an on/off driver, say, is no listed regulator's activity
        assert pooled_activity(coef, values, names, n_obs, n_obs, 5.0, parents_r2=LOW) is None

    def test_candidates_restrict_the_parents(self):
        coef, values, names, n_obs = _network(2, 10)
        got = pooled_activity(coef, values, names, n_obs, n_obs, 5.0, candidates=[0], parents_r2=LOW)
        assert got.regulators == ["TF0"] and not got.flagged
        coef[n_obs, :n_obs] = 0.0  # no children
        assert pooled_activity(coef, values, names, n_obs, n_obs, 5.0, parents_r2=LOW) is None


def _report(coef, values, names, n_obs, own: float, realized: float):
    """The regulator report's H1 on the network of :func:`_network` with H's noise variance
    ``own**2`` (its parents are roots of unit variance): ``parents_r2 = w'w / (w'w + own**2)``."""
    from engine.hidden import regulator_report

    variance = np.ones(len(names))
    variance[n_obs] = own**2
    (rep,) = regulator_report(names, n_obs, coef, variance, values, gains={"H1": (realized, realized)})
    return rep


class TestWeightedSum:
    """The second leg (session 18): H is its listed parents' weighted sum (they explain >= 0.95 of its
    variance, the report's ``parents_r2`` since session 19), flagged however much it gains per child
    (the h17m hub Hs: 3.5-4.9 nats a child, parents_r2 0.98)."""

    def test_strong_per_child_but_a_weighted_sum_is_flagged(self):
        coef, values, names, n_obs = _network(2, 10, own=0.05)
        rep = _report(coef, values, names, n_obs, own=0.05, realized=10 * 5.0)  # 5 nats a child
        w = coef[:2, n_obs]
        assert rep.parents_r2 == pytest.approx(w @ w / (w @ w + 0.05**2))  # by hand
        pool = rep.extra["pooled"]
        assert pool["r2"] == rep.parents_r2 >= COMBINATION_R2 and pool["gain_per_child"] == 5.0 and pool["flagged"]
        assert pooled_reason(pool) == f"its listed parents explain {rep.parents_r2:.0%} of its variance"
        got = pooled_activity(coef, values, names, n_obs, n_obs, math.nan, parents_r2=rep.parents_r2)
        assert got.flagged  # no gain known: R^2 decides

    def test_learn_and_the_page_give_the_reason(self, capsys):
        from engine.cli.reports import report_hidden
        from explorer.report_lines import report_line

        coef, values, names, n_obs = _network(2, 10, own=0.05)
        rep = _report(coef, values, names, n_obs, own=0.05, realized=50.0)
        pool = rep.extra["pooled"]
        why = f"its listed parents explain {pool['r2']:.0%} of its variance"
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
        coef, values, names, n_obs = _network(2, 10, own=0.6)
        rep = _report(coef, values, names, n_obs, own=0.6, realized=10 * 5.0)  # parents_r2 about 0.75
        assert rep.parents_r2 < COMBINATION_R2 and not rep.extra["pooled"]["flagged"]
        assert pooled_reason({**rep.extra["pooled"], "gain_per_child": 1.5}) == "under 3 nats a child"
        coef, values, names, n_obs = _network(1, 10, own=0.05)  # one parent: R^2 near 1, still not pooled
        rep = _report(coef, values, names, n_obs, own=0.05, realized=10 * 5.0)
        assert rep.parents_r2 >= COMBINATION_R2 and not rep.extra["pooled"]["flagged"]

    def test_threshold_on_parents_r2(self):
        """Just below and at the threshold: the same network with H's noise variance set so that its
        parents explain ``target`` of its variance (w'w / (w'w + s) = target)."""
        coef, values, names, n_obs = _network(2, 10, own=0.05)
        w = coef[:2, n_obs]
        for target, flagged in ((COMBINATION_R2 - 0.01, False), (COMBINATION_R2 + 0.001, True)):
            own = math.sqrt(w @ w * (1 - target) / target)
            rep = _report(coef, values, names, n_obs, own=own, realized=10 * 5.0)
            assert rep.parents_r2 == pytest.approx(target) and rep.extra["pooled"]["r2"] == rep.parents_r2
            assert rep.extra["pooled"]["flagged"] is flagged


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
