"""The order auto tries a round's proposals in, and the other family's turn at genome scale
(engine/hidden/trying_order.py; JMLR 2007 section 5, thesis ch. 4, #22)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from engine.cpd.linear import LinearGaussianFamilies
from engine.data import from_array
from engine.hidden import ClusterProposal, HiddenSearch
from engine.hidden import trying_order as order_module
from engine.hidden.candidates import propose_from_search
from engine.hidden.onoff import ONOFF
from engine.hidden.report import HiddenVariable
from engine.hidden.trying_order import Turns, family, trying_order
from engine.search import Stepper


def prop(i: int, source: str, est: float, common: float, complete: float = 1.0) -> ClusterProposal:
    members = [3 * i, 3 * i + 1, 3 * i + 2]
    names = [f"g{j:03d}" for j in members]
    return ClusterProposal(
        members, names, np.zeros(20), np.ones(3), 1.0, 0.5, 1.0, np.ones(3), est,
        key=frozenset(names), source=source, complete_gain=complete, common_variance=common,
    )  # fmt: skip


# a round as on the E. coli table: positive profile clusters, small semi-cliques, and a large grown
# semi-clique whose estimate charges every removed edge
PROFILES_A = prop(0, "profiles", 900.0, 40.0)
PROFILES_B = prop(1, "profiles", 300.0, 60.0)
SEMI = prop(2, "semi-clique", -5.0, 3.0)
GROWN = prop(3, "semi-clique, grown", -24_000.0, 90.0)
SEMI_POS = prop(4, "semi-clique", 2.0, 1.5)
ROUND = [PROFILES_A, PROFILES_B, SEMI_POS, SEMI, GROWN]


@pytest.fixture
def turn_on(monkeypatch):
    """The other family's turn is measured and off by default (FAMILY_TURN); these tests switch it on."""
    monkeypatch.setattr(order_module, "FAMILY_TURN", True)


def test_off_by_default_the_base_order_after_a_kept_h():
    assert order_module.FAMILY_TURN is False
    got = trying_order(ROUND, two_layer=False, small=False, kept_sources=["profiles"], turns=Turns())
    assert got == [PROFILES_A, PROFILES_B, SEMI_POS, GROWN, SEMI]


def test_family_of_each_source():
    assert [family(s) for s in ("profiles", "semi-clique", "semi-clique, grown", "profiles + semi-clique")] == [
        "profiles",
        "semi-clique",
        "semi-clique",
        "semi-clique",
    ]
    assert family(ONOFF) == ONOFF


def test_base_order_is_kept_before_an_h_and_on_small_networks(turn_on):
    base = [PROFILES_A, PROFILES_B, SEMI_POS, GROWN, SEMI]  # positive estimates, then common variance
    assert trying_order(ROUND, two_layer=False, small=False, kept_sources=[], turns=Turns()) == base
    for small, two_layer in ((True, False), (False, True)):
        got = trying_order(ROUND, two_layer=two_layer, small=small, kept_sources=["profiles"], turns=Turns())
        assert got == ([PROFILES_A, PROFILES_B, SEMI_POS] if two_layer else base)


def test_after_a_profile_h_the_semi_cliques_get_one_turn(turn_on):
    """The grown set (largest common variance of its family, estimate -24,000) is tried first once
    a profile cluster is kept; once its turn is spent the base order is back until the next H."""
    turns = Turns()
    first = trying_order(ROUND, two_layer=False, small=False, kept_sources=["profiles"], turns=turns)
    assert first == [GROWN, PROFILES_A, PROFILES_B, SEMI_POS, SEMI]
    assert turns.used == {"semi-clique"}
    rest = [p for p in ROUND if p is not GROWN]  # the turn was tried and not kept
    again = trying_order(rest, two_layer=False, small=False, kept_sources=["profiles"], turns=turns)
    assert again == [PROFILES_A, PROFILES_B, SEMI_POS, SEMI]
    # a second profile H kept: a new turn
    assert trying_order(ROUND, two_layer=False, small=False, kept_sources=["profiles"] * 2, turns=turns)[0] is GROWN
    # both families kept: the base order
    both = trying_order(ROUND, two_layer=False, small=False, kept_sources=["profiles", GROWN.source], turns=Turns())
    assert both[0] is PROFILES_A


def test_after_a_semi_clique_h_the_profile_cluster_of_largest_common_variance_goes_first(turn_on):
    got = trying_order(ROUND, two_layer=False, small=False, kept_sources=["semi-clique, grown"], turns=Turns())
    assert got[0] is PROFILES_B


def test_on_off_steps_keep_their_place_and_the_turn_waits_for_them(turn_on):
    step = prop(5, ONOFF, -30.0, 10.0)
    turns = Turns()
    got = trying_order(ROUND + [step], two_layer=False, small=False, kept_sources=["profiles"], turns=turns)
    assert got[:2] == [step, GROWN] and turns.used == set()


@pytest.mark.parametrize("n_vars, expected_first", [(160, "grown"), (100, "profiles")])
def test_auto_candidates_apply_the_turn_above_the_small_network_size(turn_on, monkeypatch, n_vars, expected_first):
    """HiddenSearch._auto_candidates on a network above RELEARN_MAX_VARS (150) observed variables with a
    kept profile H: the grown set goes first; at 100 variables the base order."""
    x = np.random.default_rng(0).normal(size=(20, n_vars))
    hs = HiddenSearch(from_array(x, [f"g{j:03d}" for j in range(n_vars)]))
    monkeypatch.setattr(hs, "propose", lambda **kw: list(ROUND))
    hs.hidden = [HiddenVariable("H1", [], 900.0, ["g000"], source="profiles")]
    first = hs._auto_candidates(set())[0]
    assert first is (GROWN if expected_first == "grown" else PROFILES_A)


def _one_factor_common_variance(corr: np.ndarray) -> float:
    """Sum of squared ML one-factor loadings of a correlation matrix, by direct minimization of
    log det S + tr(S^-1 R), S = diag(psi) + a a^T (not the EM of candidates.factor_fit)."""
    n = corr.shape[0]

    def nll(theta):
        a, psi = theta[:n], np.exp(theta[n:])
        s = np.diag(psi) + np.outer(a, a)
        return np.linalg.slogdet(s)[1] + np.trace(np.linalg.solve(s, corr))

    w, v = np.linalg.eigh(corr)
    a0 = v[:, -1] * np.sqrt(w[-1])
    res = minimize(nll, np.r_[a0, np.log(np.maximum(1 - a0**2, 0.05))], method="L-BFGS-B")
    return float(np.sum(res.x[:n] ** 2))


def test_common_variance_the_turn_ranks_by_is_recomputed_independently():
    """The turn picks by ``common_variance``: for each proposal of at least four members of a small
    generated network (a semi-clique with ten inside edges, a profile cluster with one; with three
    members one factor fits any weak correlations exactly, a boundary case where ML loadings are not
    unique), recompute it from the data: each member refitted by least squares on its parents outside
    the set, the residuals' correlation matrix, one-factor ML loadings by direct minimization."""
    rng = np.random.default_rng(3)
    m, n = 400, 12
    h = rng.normal(size=m)
    x = rng.normal(size=(m, n))
    x[:, :5] += 1.2 * h[:, None]  # five children of a hidden h: tied by edges in the observed search
    x[:, 6] += 0.8 * x[:, 5]
    x[:, 7] += 0.7 * x[:, 6]
    names = [f"v{j}" for j in range(n)]
    st = Stepper(LinearGaussianFamilies(x))
    st.run()
    props = propose_from_search(st, x, names, min_size=3, n_proposals=6)
    assert {family(p.source) for p in props if len(p.members) >= 4} == {"semi-clique", "profiles"}
    xc = x - x.mean(axis=0)
    for p in [p for p in props if len(p.members) >= 4]:
        inside = set(p.members)
        res = []
        for i in p.members:
            outs = [q for q in st.parents(i) if q not in inside]
            design = np.column_stack([np.ones(m)] + [xc[:, q] for q in outs])
            res.append(xc[:, i] - design @ np.linalg.lstsq(design, xc[:, i], rcond=None)[0])
        corr = np.corrcoef(np.array(res))
        assert p.common_variance == pytest.approx(_one_factor_common_variance(corr), rel=2e-3, abs=2e-3)
