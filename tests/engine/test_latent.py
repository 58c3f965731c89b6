"""HiddenSearch: propose / accept / reject / auto / summary (engine/hidden/search.py; JMLR 2007 sections 5,
6 and 9.2)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from engine.data import from_array
from engine.exceptions import ParameterError
from engine.hidden import MISSING_HANDLING, HiddenSearch, StructuralEM
from engine.synth import random_network, sample

N_PLANTED = 30
SAMPLE_SEED_OFFSET = 1000  # see tests/engine/test_hidden.py: sample(seed=s) would reproduce h


def planted_factor(seed: int, m: int = 500, load: float = 1.0):
    """Same construction as tests/engine/test_hidden.py::planted_factor, as a Dataset.

    random_network(30, expected_parents=1.0, signal=0.4, seed=seed), m rows (sample seed
    1000 + seed), columns divided by their std; rng = default_rng(seed): h ~ N(0, 1), 6 random
    columns, random signs, x[:, kids] += sign * load * h. Returns (dataset, child names, h)."""
    net = random_network(N_PLANTED, expected_parents=1.0, signal=0.4, seed=seed)
    x = sample(net, m, seed=SAMPLE_SEED_OFFSET + seed)
    x = x / x.std(axis=0)
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    kids = np.sort(rng.choice(N_PLANTED, size=6, replace=False))
    x[:, kids] += rng.choice([-1.0, 1.0], size=6) * load * h[:, None]
    return from_array(x, net.names, standardize=False), {net.names[k] for k in kids}, h


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
#: HiddenSearch(ds).auto(max_hidden=2) on the planted-factor data (load 1.0), measured:
#:  seed  H1 children P / R   neighbours (parents + children) P / R   |corr(H1, h)|  BIC gain
#:    0        0.83 / 0.83              0.86 / 1.00                      0.945         40.5
#:    1        1.00 / 0.67              0.67 / 1.00 (2 children -> parents of H1)  0.856   2.9
#:    2        0.86 / 1.00              0.75 / 1.00                      0.912          2.8
#:    3        1.00 / 1.00              1.00 / 1.00                      0.932         39.1
#:    4        1.00 / 0.83              1.00 / 0.83                      0.904         36.8
#:    5   none: the top proposal is a network module; adding it lowers the BIC, auto stops
#:    6        1.00 / 0.83              1.00 / 1.00                      0.943         26.6
#:    7   none: as seed 5 (the planted cluster is the 2nd proposal)
#:    8   none: the top proposal IS the planted cluster (P = R = 1), but structural EM from the
#:        empty structure ends 8.7 nats below the network without it (also from the true h: -7.2)
#:    9        1.00 / 1.00              1.00 / 1.00                      0.923          8.7
#: Exactly one hidden variable every time it was added (the second proposal never helped).
class TestAuto:
    def test_planted_factor_seeds_0_to_9(self):
        """Asserted: never worse than the network without hidden variables (every seed); H1 added
        on >= 7 of 10 seeds (measured 7); where added, children precision >= 0.8, neighbourhood
        recall >= 0.8 and |corr| >= 0.85; strict (children precision and recall >= 0.9,
        |corr| >= 0.9) on seeds 3 and 9, the only ones where it holds (see the table)."""
        added = 0
        for seed in range(10):
            ds, kids, h = planted_factor(seed)
            base = baseline_bic(ds)
            hs = HiddenSearch(ds)
            found = hs.auto(max_hidden=2)
            after = hs.observed_bic()
            assert after >= base - 1e-6 * abs(base), seed
            if not found:
                assert after == pytest.approx(base, rel=1e-12)
                assert hs.names == list(ds.names)
                continue
            added += 1
            assert after > base
            h1 = found[0]
            assert h1.name == "H1" and hs.names[-len(found) :] == [f.name for f in found]
            children = set(h1.children)
            parents = {p for p, c in hs.edges() if c == "H1"}
            prec, _ = pr(children, kids)
            _, nrec = pr(children | parents, kids)
            corr = abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1])
            assert prec >= 0.8 and nrec >= 0.8 and corr >= 0.85, (seed, prec, nrec, corr)
            if seed in (3, 9):
                assert min(pr(children, kids)) >= 0.9 and corr >= 0.9
        assert added >= 7

    @pytest.mark.parametrize("seed", [5, 7, 8])
    def test_stronger_factor(self, seed):
        """Load 1.5, the seeds that fail at load 1.0: H1's children are exactly the planted ones
        (measured P = R = 1.0, |corr| 0.97 on all three)."""
        ds, kids, h = planted_factor(seed, load=1.5)
        base = baseline_bic(ds)
        hs = HiddenSearch(ds)
        found = hs.auto(max_hidden=2)
        assert found and hs.observed_bic() > base
        prec, rec = pr(set(found[0].children), kids)
        assert prec >= 0.9 and rec >= 0.9
        assert abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) >= 0.9

    def test_progress_messages(self):
        ds, _, _ = planted_factor(3)
        msgs: list[str] = []
        HiddenSearch(ds).auto(max_hidden=1, progress=msgs.append)
        assert msgs[0].startswith("network without hidden variables")
        assert msgs[1].startswith("added H1 ->")


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
    def test_fields_after_auto(self):
        ds, _, _ = planted_factor(3)
        hs = HiddenSearch(ds)
        found = hs.auto(max_hidden=1)
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
        ds, _, _ = planted_factor(3, m=300)
        vals = ds.values.copy()
        vals[np.random.default_rng(0).random(vals.shape) < 0.05] = np.nan
        dm = from_array(vals, ds.names, standardize=False)
        hs = HiddenSearch(dm)
        assert np.all(np.isfinite(hs.em.mean))  # missing cells have posterior means from the start
        s = hs.summary()
        assert s["missing_values"] == MISSING_HANDLING and s["hidden"] == []
        hs.auto(max_hidden=1)
        assert hs.summary()["missing_values"] == MISSING_HANDLING


# ------------------------------------------------------------------ greedy_hidden, two_layer
class TestTwoLayerAndGreedy:
    def test_two_layer_only_hidden_to_observed(self):
        ds, _, _ = planted_factor(3, m=300)
        hs = HiddenSearch(ds, {"max_parents": 2}, two_layer=True, seed=2)
        found = hs.auto(max_hidden=3)
        assert len(found) == 3 and found[0].members == list(ds.names)  # H1 starts as parent of all
        hidden = {f.name for f in found}
        assert hs.edges()
        for p, c in hs.edges():
            assert p in hidden and c in ds.names
        assert all(len(f.members) < 30 for f in found[1:])  # later ones: clusters, not everything

    @pytest.mark.parametrize("seed", range(5))
    def test_two_layer_max_parents_is_respected(self, seed):
        """max_parents=2 bounds each observed variable's hidden parents. Before a35aad5 an accepted
        cluster gave saturated members a third parent (seeds 1, 3, 4: X14 <- H1, H2, H3), and with
        seed 0 the random H1 lost every child, its constant posterior mean then 'explained' every
        cluster (closest_corr ~1e252) and auto stopped with an edgeless model. Measured now: 3
        hidden variables and at most 2 hidden parents per observed variable on seeds 0-4."""
        ds, _, _ = planted_factor(3, m=300)
        hs = HiddenSearch(ds, {"max_parents": 2}, two_layer=True, seed=seed)
        found = hs.auto(max_hidden=3)
        assert len(found) == 3 and all(f.children for f in found)
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
        variables on top of the learned network (seed 0 at load 1.0: kept, with 11 children and
        an observed-BIC gain of 74 nats, after parametric warm-up)."""
        ds, _, _ = planted_factor(0)
        base = baseline_bic(ds)
        hs = HiddenSearch(ds, seed=0)
        found = hs.auto(max_hidden=1, greedy_hidden=True)
        assert len(found) == 1
        assert found[0].members == list(ds.names)
        assert set(found[0].children) <= set(ds.names) and found[0].children
        assert hs.observed_bic() > base
