"""A search's rankings, exact gains and fits carried over to statistics changed in a few
variables (structural EM's M-steps, #22 item 4) equal the ones computed afresh."""

from __future__ import annotations

import numpy as np
import pytest

import engine.hidden.em as em_module
from engine.cpd.linear import LinearGaussianFamilies
from engine.data import from_array
from engine.search import Stepper
from engine.search.carry import carry_entries, carry_fits, unchanged
from engine.search.family_entry import FamilyEntry
from engine.synth import random_network, sample


def two_models(seed: int, n: int = 40, m: int = 60, changed=(39,)):
    """Linear-Gaussian models on the same data except the columns ``changed`` (a hidden
    variable's posterior mean between two EM iterations), and the data."""
    x = sample(random_network(n, seed=seed, expected_parents=1.5, signal=0.6), m, seed=seed + 1)
    y = x.copy()
    rng = np.random.default_rng(seed)
    for j in changed:
        y[:, j] = 0.7 * x[:, j] + rng.normal(scale=0.5, size=m)
    return LinearGaussianFamilies(x), LinearGaussianFamilies(y), x


def searched(model, regulators=None, steps=25) -> Stepper:
    s = Stepper(model, regulators=regulators)
    s.run(max_steps=steps)
    s.refresh()
    return s


def fresh_measures(stepper: Stepper, child: int) -> tuple:
    """The ranking of ``child``'s current family on ``stepper``'s model, from nothing."""
    return FamilyEntry(stepper.model, child, stepper.parents(child), cols=stepper.cols).measures()


class TestUnchanged:
    def test_finds_the_changed_columns(self):
        a, b, _ = two_models(0, changed=(3, 17))
        same = unchanged(a, b)
        assert np.flatnonzero(~same).tolist() == [3, 17]

    def test_a_changed_entry_off_the_changed_columns_is_caught(self):
        a, b, x = two_models(1)
        s = b.scatter.copy()
        s[5, 8] = s[8, 5] = s[5, 8] * (1 + 1e-15) + 1e-300  # one observed-observed entry, last bits
        c = LinearGaussianFamilies.from_moments(b.means, s, b.n_samples, symmetric=True)
        changed = np.flatnonzero(~unchanged(a, c)).tolist()
        assert 39 in changed and (5 in changed or 8 in changed)

    def test_not_comparable(self):
        a, _, x = two_models(2)
        assert unchanged(a, LinearGaussianFamilies(x[:-1])) is None
        assert unchanged(a, LinearGaussianFamilies(x[:, :-1])) is None


class TestCarried:
    @pytest.mark.parametrize("regulators", [None, list(range(0, 40, 3)) + [39]])
    def test_rankings_gains_and_fits_equal_fresh_ones(self, regulators):
        a, b, _ = two_models(3)
        old = searched(a, regulators)
        carry_fits(a, b)
        new = Stepper(b, regulators=regulators, initial=old.edges())
        n = carry_entries(new, old)
        untouched = [c for c in range(40) if c != 39 and 39 not in old.parents(c)]
        assert n == len(untouched)
        checked = 0
        for c in untouched:
            e = new.entry(c)
            assert e._base is not None  # carried, not recomputed
            for got, want in zip(e.measures(), fresh_measures(new, c), strict=True):
                np.testing.assert_array_equal(got, want)  # the same bits, NaN where NaN
            ref = LinearGaussianFamilies.from_moments(b.means, b.scatter, b.n_samples, symmetric=True)
            assert b.fit(c, e.parents).loglik == ref.fit(c, e.parents).loglik
            np.testing.assert_array_equal(e.del_dll, ref.delete_gains(c, e.parents))
            idx = np.flatnonzero(~np.isnan(e.add_exact[np.arange(40)]))
            assert 39 not in idx  # the changed candidate's gain is cleared
            if idx.size:
                np.testing.assert_allclose(e.add_exact[idx], ref.exact_add(c, e.parents, idx), rtol=1e-12)
                checked += idx.size
        assert checked > 0

    def test_a_carried_search_makes_the_same_moves(self):
        a, b, _ = two_models(4, changed=(39, 12))
        old = searched(a, steps=10)
        carry_fits(a, b)
        new = Stepper(b, initial=old.edges())
        assert carry_entries(new, old) > 0
        ref = Stepper(LinearGaussianFamilies.from_moments(b.means, b.scatter, b.n_samples), initial=old.edges())
        got, want = new.run(), ref.run()
        assert got.edges == want.edges and got.score == want.score
        assert [mv.rank for mv in got.history] == [mv.rank for mv in want.history]


def test_frozen_families_skipped_decide_as_before(monkeypatch):
    """A family with no legal move (frozen by the Markov-blanket stage) is neither ranked nor
    scored, and the search decides and moves exactly as when it was."""
    import engine.search.candidates as cand
    from engine.hidden.marginal import freeze_families

    model = two_models(6)[0]

    def run(skip: bool):
        if not skip:
            monkeypatch.setattr(cand, "unmovable", lambda stepper, child, legal: False)
        s = Stepper(model, initial=searched(model, steps=8).edges())
        freeze_families(s, np.arange(40) % 3 != 0)
        s.refresh()
        decisions = [(b[0], b[1]) if b is not None else None for b in s._fam_best]
        watch = [w.tolist() for w in s.watch]
        return decisions, watch, s.run(), len(s._entries)

    skipped, full = run(True), run(False)
    assert skipped[0] == full[0] and skipped[1] == full[1]
    assert skipped[2].edges == full[2].edges and skipped[2].score == full[2].score
    assert skipped[3] < full[3]  # the frozen families got no entry


def planted_with_missing(seed: int, missing: bool):
    rng = np.random.default_rng(seed)
    m = 80
    h = rng.normal(size=m)
    x = sample(random_network(20, seed=seed, expected_parents=1.2, signal=0.5), m, seed=seed + 1)
    kids = np.column_stack([0.8 * h + rng.normal(scale=0.6, size=m) for _ in range(6)])
    z = np.column_stack([x, kids])
    if missing:
        z[rng.random(z.shape) < 0.03] = np.nan
    return from_array(z, [f"V{i}" for i in range(26)]), h


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("regulators", [None, [f"V{i}" for i in range(0, 26, 2)]])
def test_structural_em_is_the_same_with_and_without_carrying(monkeypatch, missing, regulators):
    """Structural EM with a hidden variable: the same bounds, edges and posterior as with every
    M-step's search computed from nothing."""
    ds, h = planted_with_missing(5, missing)
    hidden = {"H1": (h + np.random.default_rng(0).normal(scale=0.5, size=h.size), [f"V{i}" for i in range(20, 26)])}

    def run():
        em = em_module.StructuralEM(ds, hidden=hidden, regulators=regulators, max_iter=15)
        em.run()
        return em

    carried = []
    monkeypatch.setattr(em_module, "carry_entries", lambda stepper, old: carried.append(carry_entries(stepper, old)))
    with_carry = run()
    assert sum(carried) > 0  # families were carried, not recomputed
    monkeypatch.setattr(em_module, "carry_fits", lambda old, new: None)
    monkeypatch.setattr(em_module, "carry_entries", lambda stepper, old: 0)
    without = run()
    assert with_carry.edges == without.edges
    assert with_carry.lower_bounds_ == without.lower_bounds_
    np.testing.assert_array_equal(with_carry.mean, without.mean)
    assert with_carry.observed_bic() == without.observed_bic()
