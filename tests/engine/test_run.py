"""The search package's shared pieces: SearchSettings, RunLoop and RunStats (issue #10)."""

from __future__ import annotations

import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.exceptions import ParameterError
from engine.search import RunLoop, RunStats, SearchSettings, Stepper
from engine.synth import random_network, sample


@pytest.fixture(scope="module")
def values():
    return sample(random_network(12, seed=7), 300, seed=8)


def _moves(result):
    return [(m.op, m.parent, m.child, m.removed) for m in result.history]


class TestSearchSettings:
    def test_defaults_and_normalization(self):
        s = SearchSettings(method="GREEDY", measure="C1", cpd="Linear")
        assert (s.method, s.measure, s.cpd) == ("greedy", "c1", "linear")
        assert s.to_dict() == {
            "method": "greedy",
            "k": 2,
            "measure": "c1",
            "queue": "shared",
            "max_parents": None,
            "cpd": "linear",
            "correction": True,
            "score": "auto",
            "ebic_gamma": 1.0,
        }

    @pytest.mark.parametrize(
        "bad, match",
        [
            ({"method": "best"}, "`method`"),
            ({"k": 0}, "`k` == 0"),
            ({"k": 2.5}, "`k` must be int"),
            ({"measure": "c3"}, "`measure`"),
            ({"queue": "one"}, "`queue`"),
            ({"max_parents": -1}, "`max_parents`"),
            ({"cpd": "tree"}, "`cpd`"),
            ({"correction": "yes"}, "`correction`"),
        ],
    )
    def test_bad_values_name_the_setting(self, bad, match):
        with pytest.raises(ParameterError, match=match):
            SearchSettings(**bad)

    def test_coerce_and_replace(self):
        s = SearchSettings.coerce({"method": "greedy"}, k=4)
        assert s.method == "greedy" and s.k == 4
        assert s.replace(k=3).k == 3 and s.k == 4
        with pytest.raises(ParameterError, match="unknown search setting"):
            SearchSettings.coerce(None, kk=3)
        with pytest.raises(ParameterError, match="`k`"):
            s.replace(k=0)

    def test_stepper_takes_either_form(self, values):
        model = LinearGaussianFamilies(values)
        a = Stepper(model, SearchSettings(method="greedy", max_parents=2))
        b = Stepper(LinearGaussianFamilies(values), method="greedy", max_parents=2)
        assert a.settings == b.settings
        assert _moves(a.run()) == _moves(b.run())


class TestRunLoop:
    def test_same_moves_as_one_call_when_sliced(self, values):
        whole = Stepper(LinearGaussianFamilies(values)).run()
        stepper = Stepper(LinearGaussianFamilies(values))
        loop = RunLoop(stepper)
        chunks = 0
        result = None
        while result is None:
            result = loop.run(max_seconds=0.0)  # one move per slice
            chunks += 1
        assert loop.done and result.status == 1 and result.converged
        assert _moves(result) == _moves(whole)
        assert chunks == len(whole.history) + 1  # the last slice finds no improving move
        assert loop.n_steps == result.n_iter

    def test_max_steps(self, values):
        loop = RunLoop(Stepper(LinearGaussianFamilies(values)), max_steps=3)
        result = loop.run()
        assert result.status == 2 and result.n_iter == 3 and not result.converged
        assert loop.run().status == 2  # an ended run stays ended

    def test_stop_before_the_next_move(self, values):
        loop = RunLoop(Stepper(LinearGaussianFamilies(values)))
        assert loop.run(max_seconds=0.0) is None
        loop.stop()
        result = loop.run()
        assert result.status == -2 and result.n_iter == 1 and result.message == "Stopped by the callback."

    def test_callback_sees_every_move_and_can_stop(self, values):
        seen = []

        def callback(intermediate_result):
            seen.append(intermediate_result.n_iter)
            if len(seen) == 4:
                raise StopIteration

        result = Stepper(LinearGaussianFamilies(values)).run(callback=callback)
        assert seen == [1, 2, 3, 4] and result.status == -2 and result.n_iter == 4

    def test_bad_max_steps(self, values):
        with pytest.raises(ParameterError, match="`max_steps`"):
            RunLoop(Stepper(LinearGaussianFamilies(values)), max_steps=-1)


class TestRunStats:
    def test_fields_are_the_cli_json_keys(self, values):
        result = Stepper(LinearGaussianFamilies(values)).run(max_steps=2)
        stats = result.stats()
        assert isinstance(stats, RunStats)
        assert stats.to_dict() == {
            "steps": 2,
            "exact_evaluations": result.n_exact,
            "ranked_candidates": result.n_ranked,
            "seconds": result.elapsed_s,
            "converged": False,
            "message": "Stopped after the requested number of steps.",
        }
        assert stats["steps"] == 2 and "em_iterations" not in stats
        stats.em_iterations = 5
        assert stats.to_dict()["em_iterations"] == 5
