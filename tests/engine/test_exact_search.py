"""The exact score-optimal DAG (Silander & Myllymäki 2006): engine.search.exact."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.cpd import make_families
from engine.exceptions import ParameterError
from engine.interventions import read_targets
from engine.learn import IdealParentSearch
from engine.score import BIC
from engine.search import Stepper
from engine.search.exact import MAX_EXACT_VARS, exact_search, local_scores
from engine.synth import random_network, sample

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def _acyclic(parents: tuple[tuple[int, ...], ...]) -> bool:
    n, placed, left = len(parents), set(), set(range(len(parents)))
    while left:
        ready = [x for x in left if set(parents[x]) <= placed]
        if not ready:
            return False
        placed.update(ready)
        left.difference_update(ready)
    return len(placed) == n


def _brute_force(model, scorer, n: int) -> tuple[float, tuple]:
    """Best score over every DAG of ``n`` variables, scoring each family with the engine's score."""
    sets = [[s for k in range(n) for s in itertools.combinations([u for u in range(n) if u != x], k)] for x in range(n)]
    fam = [{s: scorer.family(model.fit(x, s)) for s in sets[x]} for x in range(n)]
    best, arg = -np.inf, None
    for combo in itertools.product(*sets):
        if _acyclic(combo):
            total = sum(fam[x][combo[x]] for x in range(n))
            if total > best:
                best, arg = total, combo
    return best, arg


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_equals_brute_force(seed):
    net = random_network(4, expected_parents=1.5, seed=seed)
    values = sample(net, 60, seed=seed)
    model = make_families(values, "linear")
    scorer = BIC(60)
    best, _ = _brute_force(model, scorer, 4)
    res = exact_search(model, scorer)
    assert res.score == pytest.approx(best, rel=1e-10, abs=1e-8)
    assert _acyclic(res.parents)  # equivalent DAGs tie under BIC: compare scores, not arg
    assert sum(scorer.family(model.fit(x, ps)) for x, ps in enumerate(res.parents)) == pytest.approx(best, rel=1e-10)
    assert res.family_scores.sum() == pytest.approx(res.score, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_exact_scores_as_the_stepper_and_never_below_greedy(seed):
    net = random_network(8, expected_parents=2.0, seed=seed)
    values = sample(net, 150, seed=seed)
    model = make_families(values, "linear")
    stepper = Stepper(model, IdealParentSearch(score="bic").search_settings())
    stepper.run()
    res = exact_search(model, stepper.scorer)
    again = Stepper(model, stepper.settings, initial=res.edges())
    assert again.score == pytest.approx(res.score, rel=1e-10)
    assert res.score >= stepper.score - 1e-8 * abs(stepper.score)


def test_constraints_are_kept():
    values = sample(random_network(6, expected_parents=2.0, seed=5), 200, seed=5)
    model = make_families(values, "linear")
    free = exact_search(model, BIC(200))
    p, c = free.edges()[0]
    res = exact_search(model, BIC(200), forbidden=[(p, c)], required=[(c, p)], max_parents=1)
    assert (p, c) not in res.edges() and (c, p) in res.edges()
    assert max(len(ps) for ps in res.parents) <= 1
    assert res.score <= free.score
    table = local_scores(model, BIC(200), max_parents=1)
    assert np.isneginf(table[:, 3]).all() and np.isfinite(table[:, :3]).all()  # {0, 1}: two parents


def test_too_many_variables_refused():
    values = np.random.default_rng(0).normal(size=(50, MAX_EXACT_VARS + 1))
    with pytest.raises(ParameterError, match="exact search"):
        exact_search(make_families(values, "linear"), BIC(50))


def test_sachs_interventions_optimum_scores_as_learn_and_evaluate():
    """Masked families with per-condition intercepts: the exact optimum's score is the one the
    estimator and ``evaluate`` give that network, and greedy learn already reaches it here."""
    frame = pd.read_csv(SAMPLES / "sachs2005_all_conditions_log.csv")
    targets = read_targets(SAMPLES / "sachs2005_targets.csv")
    est = IdealParentSearch(score="bic", condition_intercept=True).fit(frame, condition="condition", targets=targets)
    res = exact_search(est.stepper_.model, est.stepper_.scorer, max_parents=3)
    names = est.dataset_.names
    held = IdealParentSearch(
        score="bic", condition_intercept=True, max_iter=0, required_edges=[(names[p], names[c]) for p, c in res.edges()]
    ).fit(frame, condition="condition", targets=targets)
    assert held.network_.evaluate(held.dataset_)["score"] == pytest.approx(res.score, rel=1e-12)
    assert res.score == pytest.approx(est.score_, rel=1e-12)


def test_exact_sigmoid_equals_brute_force_over_its_fits():
    """Non-linear CPD: the optimum over the model's own (cached) fits, as a brute force sees them."""
    net = random_network(4, expected_parents=1.5, seed=7, cpd="sigmoid")
    values = sample(net, 80, seed=7)
    model = make_families(values, "sigmoid")
    res = exact_search(model, BIC(80))
    best, _ = _brute_force(model, BIC(80), 4)
    assert res.score == pytest.approx(best, rel=1e-9)


def test_impossible_constraints_refused():
    values = sample(random_network(4, seed=0), 50, seed=0)
    with pytest.raises(ParameterError, match="no DAG"):
        exact_search(make_families(values, "linear"), BIC(50), required=[(0, 1), (2, 1)], max_parents=1)


def test_exact_for_stepper_keeps_the_searchs_constraints():
    """Regulators forbid every other parent, required edges stay, the parent cap holds; and the
    optimum is never below what the same stepper's greedy search reaches."""
    from engine.search import exact_families, exact_for_stepper

    x = sample(random_network(7, seed=3), 300, seed=4)
    x = (x - x.mean(axis=0)) / x.std(axis=0)
    # a required edge from a non-regulator stays allowed (engine.search.constraints)
    stp = Stepper(make_families(x), required=[(3, 4)], regulators=[0, 1, 2], max_parents=2)
    res = exact_for_stepper(stp)
    assert exact_families(stp) == res.n_families
    for c, ps in enumerate(res.parents):
        assert len(ps) <= 2
        assert all(p in (0, 1, 2) or (p, c) == (3, 4) for p in ps), (c, ps)
    assert 3 in res.parents[4]
    stp.run()
    assert res.score >= stp.score - 1e-6
