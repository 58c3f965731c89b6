"""An accepted hidden variable's realized change split into log-likelihood and penalty
(engine.hidden.verdict, #22): the identity with the realized change, the penalty recomputed from the
EBIC formula with scipy, BIC's part, and the conditions from which the same effect would pay."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import comb

from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden.verdict import PayBreakdown, _conditions_to_pay, baseline_model, pay_breakdown, score_parts


def few_conditions(seed: int = 1, m: int = 24, n: int = 40):
    """A 3-gene proposal on 24 conditions under EBIC (20 listed regulators) whose realized change is
    negative: it raises the likelihood by a few nats, EBIC charges more."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    h = rng.normal(size=m)
    x[:, :6] = 0.6 * h[:, None] + 0.8 * rng.normal(size=(m, 6))
    names = [f"g{i}" for i in range(n)]
    hs = HiddenSearch(from_array(x, names), em_options={"regulators": names[20:]})
    hs.fit_structure()
    return hs


def _ebic_penalty(em) -> float:
    """sum over families of log(M)/2 * (k + 2) + log C(p, k), from scipy (gamma = 1)."""
    p = em.scorer.n_candidates
    return sum(
        0.5 * math.log(em.n_samples) * (len(ps) + 2) + math.log(comb(p, min(len(ps), p), exact=True))
        for ps in em.parents()
    )


class TestPayBreakdown:
    def test_realized_change_is_loglik_gain_minus_penalty(self):
        hs = few_conditions()
        base = baseline_model(hs)
        assert base.observed_bic() == pytest.approx(hs.baseline_score())
        parts = score_parts(base)
        prop = hs.propose(3)[0]
        hv = hs.accept(prop, baseline=parts[0] - parts[1])
        b = pay_breakdown(base, hs.em, parts)
        assert b.score == "ebic" and b.n_samples == 24
        assert b.realized_gain == pytest.approx(hv.realized_gain, abs=1e-9) and not b.pays
        assert b.loglik_gain == pytest.approx(hs.em.observed_loglik() - base.observed_loglik())
        assert b.loglik_gain > 0  # it explains something, EBIC charges more
        assert b.penalty == pytest.approx(_ebic_penalty(hs.em) - _ebic_penalty(base))
        k = sum(len(p) + 2 for p in hs.em.parents()) - sum(len(p) + 2 for p in base.parents())
        assert b.n_params == k and b.bic_penalty == pytest.approx(0.5 * math.log(24) * k)
        assert b.bic_gain == pytest.approx(b.loglik_gain - b.bic_penalty)
        assert b.conditions_to_pay is not None and b.conditions_to_pay > 24

    def test_conditions_to_pay_is_the_first_m_where_the_gain_outweighs(self):
        gain, m, k = 4.0, 24, 4
        penalty = 0.5 * math.log(m) * k + 6.0  # EBIC's part: 6 nats, not growing with M
        got = _conditions_to_pay(gain, penalty, k, m)

        def pays(mm: int) -> bool:  # k / 2 nats of chance fit, the rest grows with the conditions
            return k / 2 + (gain - k / 2) * mm / m > 0.5 * math.log(mm) * k + 6.0

        assert pays(got) and not pays(got - 1) and got > m
        assert _conditions_to_pay(-1.0, penalty, k, m) is None  # the likelihood does not rise
        assert _conditions_to_pay(1e-6, penalty, k, m) is None  # beyond 100 M
        assert _conditions_to_pay(100.0, 1.0, k, m) == m  # pays already

    def test_a_gain_chance_alone_gives_is_not_extrapolated(self):
        """k more free parameters gain k / 2 nats by chance in expectation (Wilks); that part does not
        grow with the conditions, so a gain of k / 2 promises nothing at any M (it used to be scaled
        with M like an effect, and a pure-noise variable 'would pay' from a few times M)."""
        m, k = 24, 4
        penalty = 0.5 * math.log(m) * k + 6.0
        assert _conditions_to_pay(k / 2, penalty, k, m) is None
        assert _conditions_to_pay(k / 2 - 0.1, penalty, k, m) is None
        # 6 nats: 2 of chance fit, 4 of effect; counted as all effect it would pay from fewer conditions
        got = _conditions_to_pay(6.0, penalty, k, m)
        naive = next(mm for mm in range(m, 100 * m) if 6.0 * mm / m > 0.5 * math.log(mm) * k + 6.0)
        assert got is not None and got > naive > m

    def test_breakdown_is_a_record(self):
        b = PayBreakdown("bic", 30, -1.0, 5.0, 6.0, 6.0, 4, 40)
        assert not b.pays and b.bic_gain == -1.0
