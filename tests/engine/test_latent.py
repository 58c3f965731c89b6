"""HiddenSearch: propose / accept / reject / auto / summary (engine/hidden/search.py; JMLR 2007 sections 5,
6 and 9.2)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from _planted import planted_factor

from engine.data import from_array
from engine.exceptions import ParameterError
from engine.hidden import MISSING_HANDLING, ClusterProposal, HiddenSearch, StructuralEM


def one_factor(seed: int, m: int = 300, n: int = 8):
    """n observed children of one hidden factor (random signs, noise sd 0.7)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    w = rng.choice([-1, 1], size=n) * rng.uniform(0.6, 1.0, size=n)
    x = np.outer(h, w) + 0.7 * rng.normal(size=(m, n))
    return from_array(x, [f"V{i}" for i in range(n)]), h


def baseline_bic(ds) -> float:
    em = StructuralEM(ds)
    em.run()
    return em.observed_bic()


def pr(found: set, truth: set) -> tuple[float, float]:
    hit = len(found & truth)
    return (hit / len(found) if found else 0.0), hit / len(truth)


# -------------------------------------------------------------------------------- auto
#: HiddenSearch(ds).auto(max_hidden=2) on the planted-factor data (load 1.0) since #12 (proposals on
#: the searched network: semi-cliques pruned by their one-factor loadings and ranked by common
#: variance; kept when the observed-data score beats the searched network before and the network
#: without H re-searched from there), measured:
#:  seed  H1 children P / R   |corr(H1, h)|  realized BIC gain
#:    0        1.00 / 1.00        0.951          47.7
#:    1        1.00 / 0.83        0.901          17.9
#:    2        1.00 / 1.00        0.934          17.1
#:    3        1.00 / 1.00        0.939          24.0
#:    4        1.00 / 1.00        0.920          36.4
#:    5        1.00 / 1.00        0.936          27.8
#:    6        1.00 / 1.00        0.947          35.1
#:    7        1.00 / 1.00        0.904           9.2
#:    8        1.00 / 1.00        0.960          21.9
#:    9   none
#: Added on 9 of 10 (before #12, proposals on the empty structure: 7; the first version of #12,
#: whose semi-cliques were pruned by the estimate: 5). The full study, two generators and null
#: networks, is benchmarks/bench_regulators.py.
@pytest.fixture(scope="module")
def auto_run(planted_auto):
    """auto (max_hidden=1) on planted_factor(5), read by the tests below: the session fit of
    tests/engine/conftest.py (``IdealParentSearch(hidden="auto", score="bic", max_hidden=1)``, whose
    ``hidden_search_`` ran ``HiddenSearch.auto``; test_arc_strength.py reads the same fit), as
    (ds, kids, h, search, found, messages). Seed 6 ran too until session 20: the same checks on a
    second seed of the same generator, 20 s of CPU."""
    ds, kids, h, est = planted_auto
    hs = est.hidden_search_
    return ds, kids, h, hs, list(hs.hidden), est.hidden_log_


class TestAuto:
    def test_planted_factor_smoke(self, auto_run):
        """Seed 5 (see the table): H1 found with children P, R >= 0.8 and |corr| >= 0.9; its
        realized gain is positive and equals the observed-data BIC recomputed with scipy before and
        after (a plain search's BIC for the network without hidden variables)."""
        from scipy.stats import multivariate_normal

        ds, kids, h, hs, found, _ = auto_run
        assert found
        h1 = found[0]
        prec, rec = pr(set(h1.children), kids)
        assert prec >= 0.8 and rec >= 0.8
        assert abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) >= 0.9
        assert h1.realized_gain > 0
        par = hs.em.params()
        n, m = len(hs.names), ds.n_samples
        a = np.linalg.inv(np.eye(n) - par.coef.T)
        mu, cov = a @ par.intercept, (a * par.variance) @ a.T
        ll = multivariate_normal(mu[:30], cov[:30, :30]).logpdf(ds.values).sum()
        after = ll - 0.5 * np.log(m) * np.sum((par.coef != 0).sum(axis=0) + 2)
        assert h1.score_after == pytest.approx(after, rel=1e-9)
        # the baseline: the network before, searched to convergence, is a plain complete-data search
        assert h1.baseline_score <= after
        assert h1.baseline_score == pytest.approx(baseline_bic(ds), abs=50.0)
        d = hs.summary()["hidden"][0]
        assert d["realized_gain"] == pytest.approx(after - h1.baseline_score, rel=1e-9)
        assert {r["child"] for r in d["report"]} == set(h1.children)

    def test_progress_messages(self, auto_run):
        msgs = auto_run[5]
        assert msgs[0].startswith("network without hidden variables")
        assert any(m.startswith("added H1 ->") for m in msgs)


# ---------------------------------------------------------------- propose / accept / reject
class TestProposeAcceptReject:
    def test_reject_removes_the_proposal_from_later_output(self):
        ds, _, _ = planted_factor(3)
        hs = HiddenSearch(ds)
        props = hs.propose()
        first = props[0]
        hs.reject(first)
        assert first.key in hs.rejected
        later = hs.propose()
        assert later and all(p.key != first.key for p in later)
        hs.reject(later[0])
        assert all(p.key not in {first.key, later[0].key} for p in hs.propose())

    def test_accept_adds_a_hidden_parent_of_the_cluster(self):
        ds, kids, h = planted_factor(3)
        hs = HiddenSearch(ds)
        top = hs.propose()[0]
        assert set(top.names) == kids
        hv = hs.accept(top)
        assert hv.name == "H1" and hv.members == top.names and hv.estimated_gain == top.estimated_gain
        assert hs.names == [*ds.names, "H1"] and hs.n_observed == 30
        assert set(hv.children) == {c for p, c in hs.edges() if p == "H1"}
        assert pr(set(hv.children), kids) == (1.0, 1.0)
        assert abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) >= 0.9
        # the next proposals are over the observed variables only and a second accept names H2
        props = hs.propose()
        assert all(i < 30 for p in props for i in p.members)

    def test_accept_unknown_variable_is_a_clear_error(self):
        ds, _, _ = planted_factor(3)
        hs = HiddenSearch(ds)
        top = hs.propose()[0]
        bad = dataclasses.replace(top, names=[*top.names[:-1], "GHOST"])
        em_before, hidden_before = hs.em, list(hs.hidden)
        with pytest.raises(ParameterError, match=r"\['GHOST'\].*not observed variables of the current model"):
            hs.accept(bad)
        assert hs.em is em_before and hs.hidden == hidden_before
        # a proposal that names a hidden variable is not a proposal over observed variables
        hs.accept(top)
        as_hidden = dataclasses.replace(top, names=["H1", top.names[0]])
        with pytest.raises(ParameterError, match="H1"):
            hs.accept(as_hidden)
        # explicit children that do not exist
        n_hidden = len(hs.hidden)
        with pytest.raises(ParameterError, match="'nope' is not an observed variable"):
            hs.accept(hs.propose()[0], children=["nope"])
        assert len(hs.hidden) == n_hidden

    def test_proposal_from_another_data_set(self):
        ds3, _, _ = planted_factor(3)
        ds3_short, _, _ = planted_factor(3, m=200)
        foreign = HiddenSearch(ds3_short).propose()[0]
        with pytest.raises(ParameterError, match="profile has shape"):
            HiddenSearch(ds3).accept(foreign)


# ---------------------------------------------------------------------------------- summary
class TestSummary:
    def test_fields_after_auto(self, auto_run):
        ds, _, _, hs, found, _ = auto_run
        s = hs.summary()
        assert s["missing_values"] == "none"
        assert len(s["hidden"]) == len(found) == 1
        entry = s["hidden"][0]
        assert entry["name"] == "H1"
        assert entry["children"] == found[0].children
        assert entry["estimated_gain"] == pytest.approx(found[0].estimated_gain)
        assert len(entry["profile"]) == ds.n_samples
        np.testing.assert_allclose(entry["profile"], hs.hidden_profile("H1"))
        assert s["observed_bic"] == pytest.approx(hs.observed_bic())
        assert s["em_iterations"] >= 1
        json.dumps(s)

    def test_missing_values_reported(self):
        """5% of cells missing: posterior means from the start, and the summary says how missing
        cells are handled before and after auto. On one factor's 8 children (auto keeps H1); on
        planted_factor(3) (30 variables) this test took 36 s of the suite until session 20."""
        ds, h = one_factor(0, m=300)
        vals = ds.values.copy()
        vals[np.random.default_rng(0).random(vals.shape) < 0.05] = np.nan
        dm = from_array(vals, ds.names, standardize=False)
        hs = HiddenSearch(dm)
        assert np.all(np.isfinite(hs.em.mean))  # missing cells have posterior means from the start
        s = hs.summary()
        assert s["missing_values"] == MISSING_HANDLING and s["hidden"] == []
        found = hs.auto(max_hidden=1)
        after = hs.summary()
        assert after["missing_values"] == MISSING_HANDLING
        assert len(found) == 1 and [d["name"] for d in after["hidden"]] == ["H1"]
        assert abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) >= 0.9


# ------------------------------------------------------------------ greedy_hidden, two_layer
class TestTwoLayerAndGreedy:
    @pytest.mark.parametrize("seed", [0, 1])
    def test_two_layer_only_hidden_to_observed_and_max_parents_is_respected(self, seed):
        """Two-layer auto: H1 starts as the parent of all the observed variables, later ones as
        clusters, and every edge goes from a hidden variable to an observed one (checked on seed 2
        in a test of its own before: the same run as below with another seed).

        max_parents=2 bounds each observed variable's hidden parents. Before a35aad5 an accepted
        cluster gave saturated members a third parent (seeds 1, 3, 4: X14 <- H1, H2, H3), and with
        seed 0 the random H1 lost every child, its constant posterior mean then 'explained' every
        cluster (closest_corr ~1e252) and auto stopped with an edgeless model. Measured now: 3
        hidden variables and at most 2 hidden parents per observed variable on seeds 0-4; seeds 0
        (the lost H1) and 1 (the third parent) are run here, one of each failure."""
        ds, _, _ = planted_factor(3, m=300)
        hs = HiddenSearch(ds, {"max_parents": 2}, two_layer=True, seed=seed)
        found = hs.auto(max_hidden=3)
        assert len(found) == 3 and all(f.children for f in found)
        assert found[0].members == list(ds.names)  # H1 starts as parent of all
        hidden = {f.name for f in found}
        assert hs.edges()
        for p, c in hs.edges():
            assert p in hidden and c in ds.names
        assert all(len(f.members) < 30 for f in found[1:])  # later ones: clusters, not everything
        counts = np.bincount([c for _, c in hs.em.edges], minlength=hs.em.n_vars)
        assert counts.max() <= 2

    def test_two_layer_auto_with_saturated_cluster(self):
        """max_parents=1: once H1 keeps a variable, later clusters of such variables cannot be
        added. Before 113aefb auto crashed with ParameterError ('every member already has
        max_parents = 1 hidden parents'); now it skips and rejects them (measured: H2 added, two
        clusters skipped, 19 edges)."""
        ds, _, _ = planted_factor(3, m=300)
        hs = HiddenSearch(ds, {"max_parents": 1}, two_layer=True, seed=0)
        hs.auto(max_hidden=3)
        counts = np.bincount([c for _, c in hs.em.edges], minlength=hs.em.n_vars)
        assert counts.max() <= 1

    def test_auto_tries_a_profile_cluster_only_with_a_positive_complete_estimate(self, monkeypatch):
        """auto's candidates: a cluster of ideal profiles needs both estimates positive (the
        observed-data one of #12 and the paper's complete-data one, section 5); a semi-clique
        needs the observed-data one, or comes after them by common variance (not two-layer)."""
        ds, _ = one_factor(0, m=60)
        names = list(ds.names)

        def prop(i, source, est, complete, common=1.0):
            members = [2 * i, 2 * i + 1, 2 * i + 2][: 2 + (source != "profiles")]
            return ClusterProposal(
                members, [names[j] for j in members], np.zeros(60), np.ones(len(members)), 1.0, 0.5, 1.0,
                np.ones(len(members)), est, key=frozenset(names[j] for j in members), source=source,
                complete_gain=complete, common_variance=common,
            )  # fmt: skip

        props = [
            prop(0, "profiles", 5.0, 2.0),
            prop(1, "profiles", 4.0, -1.0),  # the observed-data estimate alone: not tried
            prop(2, "semi-clique", 3.0, -50.0),
            prop(0, "semi-clique", -9.0, -80.0, common=2.0),
            prop(1, "profiles + semi-clique", -1.0, -60.0, common=0.5),
        ]
        for two_layer, expected in ((False, [0, 2, 3, 4]), (True, [0, 2])):
            hs = HiddenSearch(ds, two_layer=two_layer)
            monkeypatch.setattr(hs, "propose", lambda **kw: list(props))
            assert hs._auto_candidates(set()) == [props[i] for i in expected]

    def test_two_layer_auto_small_sample_keeps_no_spurious_hidden(self):
        """The paper's two-layer protocol on a small sample (3 hidden roots -> 30 observed leaves
        with 1-2 hidden parents, weights +-U(0.5, 1.5), noise variance that of the hidden parents:
        benchmarks/bench_hidden.py's generator; 20 rows, seed 1). With proposals tried on the
        observed-data estimate alone auto kept 5 hidden variables here (bench_hidden: 10 instead
        of 8 and 7 at M = 50 and 100, worse on test); with the complete-data estimate too, 3."""
        rng = np.random.default_rng(1)
        w = np.zeros((3, 30))
        for j in range(30):
            ps = rng.choice(3, size=int(rng.integers(1, 3)), replace=False)
            w[ps, j] = rng.uniform(0.5, 1.5, size=ps.size) * rng.choice([-1.0, 1.0], size=ps.size)
        noise_sd, intercept = np.sqrt((w**2).sum(axis=0)), rng.normal(size=30)
        r = np.random.default_rng(11)
        x = intercept + r.normal(size=(20, 3)) @ w + r.normal(size=(20, 30)) * noise_sd
        ds = from_array(x, [f"G{i}" for i in range(30)])
        hs = HiddenSearch(ds, {"method": "ideal", "k": 2, "score": "bic"}, two_layer=True, seed=1)
        found = hs.auto(max_hidden=8)
        assert 1 <= len(found) <= 3
        assert all(h.realized_gain > 0 for h in found[1:])

    def test_greedy_hidden_two_layer_every_hidden_is_parent_of_all(self):
        ds, h = one_factor(0)
        hs = HiddenSearch(ds, {"method": "greedy"}, two_layer=True, seed=0)
        found = hs.auto(max_hidden=2, greedy_hidden=True)
        assert found
        for f in found:
            assert f.members == list(ds.names) and np.isnan(f.estimated_gain)
        for p, c in hs.edges():
            assert p.startswith("H") and c in ds.names
        assert len(found[0].children) == 8
        assert abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) >= 0.9

    def test_greedy_hidden_adds_parent_of_all_observed(self):
        """Not two-layer: the new hidden variable starts as the parent of all 30 observed
        variables on top of the learned network, and is kept only if it beats that network as
        climbed (restarts and the order search on both sides, #22). On seed 0 at load 1.0 it
        was kept before the order search (+10 nats), not kept with it (-20262.0 against
        -20256.7); since the take-over move (engine/hidden/takeover.py) climbs its model to
        -20249.0, so it is kept at +7.7 with 6 children, 4 of them planted."""
        ds, kids, _ = planted_factor(0)
        base = baseline_bic(ds)
        hs = HiddenSearch(ds, seed=0)
        said: list[str] = []
        found = hs.auto(max_hidden=1, greedy_hidden=True, progress=said.append)
        assert hs.observed_bic() > base  # never below the plain search
        assert len(found) == 1  # the seed's outcome: a test that took either would not fail
        hv = found[0]
        assert hv.realized_gain > 0 and hv.score_after == pytest.approx(hs.observed_bic())
        assert hv.baseline_score >= base  # the bar is the climbed network without H
        assert len(set(hv.children) & set(kids)) >= 4
        assert any(s.startswith("added H1") for s in said)
