"""The estimator front end ``IdealParentSearch`` (scikit-learn conventions)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.data import Dataset, from_array
from engine.exceptions import IdealParentError, MissingValuesError, ParameterError
from engine.learn import IdealParentSearch
from engine.network import LearnedNetwork
from engine.search import Move, StepResult
from engine.synth import random_network, sample


@pytest.fixture(scope="module")
def truth():
    return random_network(8, seed=1)


@pytest.fixture(scope="module")
def raw(truth):
    return sample(truth, 300, seed=2)


@pytest.fixture(scope="module")
def dataset(truth, raw):
    return from_array(raw, truth.names)


@pytest.fixture(scope="module")
def fitted(dataset):
    return IdealParentSearch().fit(dataset)


def edge_set(est) -> set[tuple[str, str]]:
    return {(p, c) for p, c, _ in est.network_.edges()}


class TestFit:
    def test_array_frame_and_dataset_agree(self, truth, raw, dataset, fitted):
        from_arr = IdealParentSearch().fit(raw)
        from_df = IdealParentSearch().fit(pd.DataFrame(raw, columns=truth.names))
        assert from_df.network_.variables == list(truth.names)
        assert from_arr.network_.variables == [f"X{i + 1}" for i in range(8)]  # default names, same as synth's
        assert edge_set(from_arr) == edge_set(from_df) == edge_set(fitted)
        assert from_arr.score_ == pytest.approx(fitted.score_) and from_df.score_ == pytest.approx(fitted.score_)

    def test_fit_returns_self_and_sets_attributes(self, dataset):
        est = IdealParentSearch()
        assert est.fit(dataset) is est
        assert isinstance(est.network_, LearnedNetwork)
        assert isinstance(est.score_, float) and isinstance(est.loglik_, float)
        assert est.score_ < est.loglik_ < 0
        assert est.score_ == pytest.approx(est.network_.bic, rel=1e-9)
        assert est.loglik_ == pytest.approx(est.network_.loglik, rel=1e-9)
        assert isinstance(est.n_iter_, int) and est.n_iter_ >= 1
        assert est.converged_ is True
        assert isinstance(est.history_, list) and all(isinstance(m, Move) for m in est.history_)
        assert len(est.history_) == est.n_iter_ == est.stats_["steps"]
        for key in ("steps", "exact_evaluations", "ranked_candidates", "seconds"):
            assert key in est.stats_
        assert est.stats_["exact_evaluations"] > 0 and est.stats_["seconds"] >= 0

    def test_recovers_most_of_the_planted_skeleton(self, truth, fitted):
        true = {frozenset(e) for e in truth.edges()}
        got = {frozenset(e) for e in edge_set(fitted)}
        assert len(true & got) >= 0.7 * len(true)

    def test_input_not_modified(self, raw):
        x = np.array(raw)
        frame = pd.DataFrame(x.copy(), columns=[f"v{i}" for i in range(x.shape[1])])
        before = frame.copy()
        IdealParentSearch(max_iter=3).fit(x)
        IdealParentSearch(max_iter=3).fit(frame)
        np.testing.assert_array_equal(x, raw)
        pd.testing.assert_frame_equal(frame, before)

    def test_greedy_and_ideal(self, dataset, fitted):
        greedy = IdealParentSearch(method="greedy").fit(dataset)
        assert greedy.converged_
        assert fitted.stats_["exact_evaluations"] < greedy.stats_["exact_evaluations"]
        assert fitted.score_ >= greedy.score_ - 0.01 * abs(greedy.score_)

    @pytest.mark.parametrize("measure", ["c1", "c2"])
    @pytest.mark.parametrize("queue", ["shared", "per_operator"])
    def test_measures_and_queues(self, dataset, measure, queue):
        est = IdealParentSearch(k=3, measure=measure, queue=queue).fit(dataset)
        assert est.converged_ and est.network_.n_edges > 0

    def test_max_parents(self, dataset):
        est = IdealParentSearch(max_parents=1).fit(dataset)
        assert max(len(f.parents) for f in est.network_.families.values()) <= 1
        none = IdealParentSearch(max_parents=0).fit(dataset)
        assert none.network_.n_edges == 0

    def test_max_iter_stops_early(self, dataset):
        est = IdealParentSearch(max_iter=2).fit(dataset)
        assert est.n_iter_ == 2 and est.converged_ is False


class TestParams:
    def test_init_stores_params_unchanged(self):
        req = [("X1", "X2")]
        forb = (("X3", "X4"),)
        rng = np.random.default_rng(0)
        est = IdealParentSearch(
            method="GREEDY",
            k=0,
            measure="c3",
            max_parents=-1,
            required_edges=req,
            forbidden_edges=forb,
            random_state=rng,
        )  # nothing is validated (or copied) in __init__
        assert est.method == "GREEDY" and est.k == 0 and est.measure == "c3" and est.max_parents == -1
        assert est.required_edges is req and est.forbidden_edges is forb and est.random_state is rng
        assert not hasattr(est, "network_")

    def test_defaults(self):
        est = IdealParentSearch()
        assert (est.method, est.k, est.measure, est.queue) == ("ideal", 2, "c2", "shared")
        assert est.max_parents is None and est.max_iter is None

    @pytest.mark.parametrize(
        "params, name",
        [
            ({"k": 0}, "k"),
            ({"k": 1.5}, "k"),
            ({"k": True}, "k"),
            ({"method": "x"}, "method"),
            ({"measure": "c3"}, "measure"),
            ({"queue": "both"}, "queue"),
            ({"max_parents": -1}, "max_parents"),
            ({"max_iter": -2}, "max_iter"),
            ({"n_restarts": -1}, "n_restarts"),
        ],
    )
    def test_bad_params_raise_at_fit(self, dataset, params, name):
        est = IdealParentSearch(**params)
        with pytest.raises(ParameterError, match=name) as info:
            est.fit(dataset)
        assert isinstance(info.value, IdealParentError)
        assert not hasattr(est, "network_")

    def test_parameter_names_are_case_insensitive(self, dataset, fitted):
        est = IdealParentSearch(method="IDEAL", measure="C2").fit(dataset)
        assert edge_set(est) == edge_set(fitted)


class TestConstraints:
    def test_required_edge_kept(self, dataset, fitted):
        # an edge the unconstrained search does not find, in either direction
        learned = edge_set(fitted)
        names = dataset.names
        req = next((p, c) for p in names for c in names if p != c and (p, c) not in learned and (c, p) not in learned)
        est = IdealParentSearch(required_edges=[req]).fit(dataset)
        assert req in edge_set(est)

    def test_forbidden_edge_absent(self, dataset, fitted):
        learned = sorted(edge_set(fitted))
        forb = learned[:2]
        est = IdealParentSearch(forbidden_edges=forb).fit(dataset)
        assert not set(forb) & edge_set(est)
        assert est.converged_

    @pytest.mark.parametrize("which", ["required_edges", "forbidden_edges"])
    def test_unknown_names(self, dataset, which):
        est = IdealParentSearch(**{which: [("X1", "nobody")]})
        with pytest.raises(ParameterError, match="nobody"):
            est.fit(dataset)

    def test_required_and_forbidden_clash(self, dataset):
        est = IdealParentSearch(required_edges=[("X1", "X2")], forbidden_edges=[("X1", "X2")])
        with pytest.raises(ParameterError):
            est.fit(dataset)


class TestMissingValues:
    def _with_holes(self, raw, names) -> Dataset:
        holes = np.array(raw)
        holes[3, 2] = np.nan
        holes[10, 5] = np.nan
        return from_array(holes, names)

    def test_make_stepper_needs_complete_data(self, truth, raw):
        with pytest.raises(MissingValuesError, match="missing"):
            IdealParentSearch().make_stepper(self._with_holes(raw, truth.names))

    def test_fit_learns_by_structural_em_and_says_so(self, truth, raw):
        est = IdealParentSearch().fit(self._with_holes(raw, truth.names))
        assert "structural EM" in est.network_.missing_values
        assert est.network_.variables == list(truth.names)
        assert np.isfinite(est.score_)

    def test_complete_data_say_none(self, fitted):
        assert fitted.network_.missing_values == "none"


class TestCallback:
    def test_called_after_every_move(self, dataset, fitted):
        seen: list[StepResult] = []
        IdealParentSearch().fit(dataset, callback=lambda intermediate_result: seen.append(intermediate_result))
        assert [r.n_iter for r in seen] == list(range(1, fitted.n_iter_ + 1))
        assert all(isinstance(r, StepResult) and r.move is not None for r in seen)
        scores = [r.score for r in seen]
        assert scores == sorted(scores)  # hill climbing: BIC never decreases
        assert scores[-1] == pytest.approx(fitted.score_)

    def test_stop_iteration_stops_early(self, dataset, fitted):
        calls = []

        def stop_at_three(intermediate_result):
            calls.append(intermediate_result.n_iter)
            if len(calls) == 3:
                raise StopIteration

        est = IdealParentSearch().fit(dataset, callback=stop_at_three)
        assert calls == [1, 2, 3]
        assert est.n_iter_ == 3 < fitted.n_iter_
        assert est.converged_ is False
        assert len(est.history_) == 3 and est.network_.n_edges <= 3
        assert "callback" in est.stats_["message"]


# ----------------------------------------------------------- review findings (session 3)


def _frame(n=8, m=300, seed=1):
    from engine.synth import random_network, sample

    net = random_network(n, seed=seed)
    return pd.DataFrame(sample(net, m, seed=seed + 1), columns=net.names), net


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(random_state="abc", n_restarts=1), "random_state"),
        (dict(forbidden_edges=[("X1",)]), "pairs"),
        (dict(required_edges="X1"), "string"),
        (dict(two_layer="no"), "two_layer"),
        (dict(cpd="gamma"), "cpd"),
    ],
)
def test_bad_settings_raise_parameter_errors(bad, match):
    frame, _ = _frame()
    with pytest.raises(ParameterError, match=match):
        IdealParentSearch(**bad).fit(frame)


def test_choices_are_case_insensitive_and_stored_canonically():
    frame, _ = _frame()
    est = IdealParentSearch(method="GREEDY", cpd="Linear", measure="C1").fit(frame)
    s = est.settings()
    assert (s["method"], s["cpd"], s["measure"]) == ("greedy", "linear", "c1")


def test_missing_values_keep_required_and_forbidden_edges_and_warn_about_unused_settings():
    frame, net = _frame()
    names = list(frame.columns)
    frame.iloc[3, 2] = np.nan
    true = [(names[p], names[c]) for p, c in net.edge_index()]
    forbid = [true[0], true[0][::-1]]
    need = next((p, c) for p in names for c in names if p != c and (p, c) not in true and (c, p) not in true)
    with pytest.warns(UserWarning, match="n_restarts") as caught:
        est = IdealParentSearch(forbidden_edges=forbid, required_edges=[need], max_iter=3, n_restarts=1).fit(frame)
    # #24: max_iter caps structural EM's moves with missing cells (it used to be ignored, with a warning)
    assert not any("max_iter" in str(w.message) for w in caught)
    assert est.n_iter_ <= 3 and est.converged_ is False
    edges = {(est.dataset_.names[p], est.dataset_.names[c]) for p, c in est.stepper_.edges()}
    assert need in edges
    assert not edges & set(forbid)


def test_evaluate_accepts_frames_and_arrays():
    frame, _ = _frame()
    est = IdealParentSearch().fit(frame)
    a = est.network_.evaluate(frame)
    b = est.network_.evaluate(frame.to_numpy())
    assert a["loglik"] == pytest.approx(b["loglik"])
    assert a["loglik"] == pytest.approx(est.network_.evaluate(est.dataset_)["loglik"])


def test_one_shot_iterables_of_edges_are_honoured():
    frame, net = _frame()
    names = list(frame.columns)
    true = {(names[p], names[c]) for p, c in net.edge_index()}
    need = next((p, c) for p in names for c in names if p != c and (p, c) not in true and (c, p) not in true)
    est = IdealParentSearch(required_edges=zip([need[0]], [need[1]], strict=True)).fit(frame)
    edges = {(names[p], names[c]) for p, c in est.stepper_.edges()}
    assert need in edges


def test_required_edges_respect_max_parents_with_missing_values():
    frame, _ = _frame()
    names = list(frame.columns)
    frame.iloc[3, 2] = np.nan
    with pytest.raises(ParameterError, match="max_parents"):
        IdealParentSearch(required_edges=[(names[0], names[1])], max_parents=0).fit(frame)
    with pytest.raises(ParameterError, match="two_layer"):
        IdealParentSearch(required_edges=[(names[0], names[1])], two_layer=True).fit(frame)


def test_refit_refuses_a_constant_variable():
    frame, _ = _frame()
    est = IdealParentSearch().fit(frame)
    flat = frame.copy()
    flat[frame.columns[0]] = 1.0
    with pytest.raises(IdealParentError, match="constant"):
        est.network_.evaluate(flat, refit=True)
    assert np.isfinite(est.network_.evaluate(flat)["loglik"])  # held-out scoring still works
