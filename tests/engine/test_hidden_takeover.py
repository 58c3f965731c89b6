"""The take-over move of the hidden-variable trials (#22, engine/hidden/takeover.py): a hidden
variable whose other children hang off one proxy child takes them over when that pays, the move
never lowers the observed-data score, leaves its input as it is, and proposes acyclic structures."""

from __future__ import annotations

import numpy as np
from test_hidden_trial import planted_dag

from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden import trial as trial_mod
from engine.hidden.climb import climb, climb_taken_over
from engine.hidden.em import StructuralEM
from engine.hidden.takeover import proxy_child, take_over, takeover_candidates
from engine.hidden.trial import try_proposal


def proxy_model(seed: int, m: int = 200) -> StructuralEM:
    """h -> K (x0) and h -> five more children (x1..x5), started and converged with the five
    hanging off K (K -> Y) and H the parent of K only: the local optimum of the module docstring."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    k = h + 0.7 * rng.normal(size=m)
    ys = [0.8 * h + rng.normal(size=m) for _ in range(5)]
    x = np.column_stack([k, *ys])
    x = (x - x.mean(0)) / x.std(0)
    names = [f"X{i}" for i in range(6)]
    em = StructuralEM(
        from_array(x, names, standardize=False),
        hidden={"H1": (x[:, 0], ["X0"])},
        initial_edges=[("X0", f"X{i}") for i in range(1, 6)],
    )
    em.run()
    return em


def is_acyclic(n: int, edges) -> bool:
    adj = np.zeros((n, n), dtype=int)
    for p, c in edges:
        adj[p, c] = 1
    reach = adj.copy()
    for _ in range(n):
        reach = ((reach + reach @ adj) > 0).astype(int)
    return not np.diag(reach).any()


class TestTakeOver:
    def test_h_takes_over_the_children_of_its_proxy(self):
        """Structural EM alone keeps the five children on K; the move gives them to H (every
        planted child, nothing else) and the observed-data score rises."""
        for seed in range(3):
            em = proxy_model(seed)
            col = em.names.index("H1")
            assert [c for p, c in em.edges if p == col] == [0]  # EM alone stays in the local optimum
            assert proxy_child(em, col) == 0
            before, edges = em.observed_bic(), list(em.edges)
            new = take_over(em)
            assert em.edges == edges and em.observed_bic() == before  # the input is left as it is
            assert sorted(c for p, c in new.edges if p == col) == [0, 1, 2, 3, 4, 5]
            assert new.observed_bic() > before + 5.0

    def test_never_lowers_the_score_and_returns_the_input_at_a_fixed_point(self):
        """From the model it reached, the move finds nothing better and returns that model."""
        new = take_over(proxy_model(0))
        again = take_over(new)
        assert again is new

    def test_candidates_are_acyclic_and_root_removes_the_edges_into_h(self):
        """H with an observed parent: ``root`` drops exactly the edges into H, ``adopt`` moves the
        proxy's children (not H itself) to H; a candidate that would close a cycle through H's
        parent is not proposed."""
        em = proxy_model(1)
        col = em.names.index("H1")
        em.edges = [(0, 1), (0, 2), (0, 4), (0, 5), (3, col), (col, 0)]  # H <- X3; X0 -> {X1, X2, X4, X5}
        cands = dict(takeover_candidates(em, col))
        assert set(cands) == {"root", "adopt X0", "root+adopt X0"}
        assert set(em.edges) - set(cands["root"]) == {(3, col)}
        assert {(col, c) for c in (1, 2, 4, 5)} <= set(cands["adopt X0"])
        assert not any(p == 0 for p, _ in cands["adopt X0"])
        assert set(cands["root+adopt X0"]) == set(cands["adopt X0"]) - {(3, col)}
        em.edges = sorted([*em.edges, (5, 3)])  # adopt would close H -> X5 -> X3 -> H
        cands = dict(takeover_candidates(em, col))
        assert set(cands) == {"root", "root+adopt X0"}
        for edges in cands.values():
            assert is_acyclic(em.n_vars, edges)

    def test_a_model_without_hidden_variables_is_returned_as_it_is(self):
        rng = np.random.default_rng(0)
        x = rng.normal(size=(100, 4))
        em = StructuralEM(from_array(x, ["a", "b", "c", "d"], standardize=False))
        em.run()
        assert take_over(em) is em


class TestTakeOverOnTheBestStart:
    def test_climb_taken_over_gives_h_the_proxys_children_and_climb_can_skip_it(self):
        """:func:`climb_taken_over` is the move then a climb: on the local optimum of
        :func:`proxy_model` H gets its six children; ``climb(em, takeover=False)`` leaves them on K."""
        em = proxy_model(0)
        col = em.names.index("H1")
        new = climb_taken_over(em)
        assert sorted(c for p, c in new.edges if p == col) == [0, 1, 2, 3, 4, 5]
        assert new.observed_bic() > em.observed_bic() + 5.0
        assert [c for p, c in climb(em, takeover=False).edges if p == col] == [0]
        again = climb_taken_over(new)
        assert again is new or again.observed_bic() > new.observed_bic()

    def test_a_trial_takes_over_once_from_its_best_start(self, monkeypatch):
        """try_proposal climbs every start's model with H without the move, and runs it once, on
        the model of the best of the learned, re-learned, refined and completed starts (and on the
        rebased start when that runs); the trial is at least as good as that start."""
        ds, _, _ = planted_dag(3, n=12, m=400, n_kids=4)
        hs = HiddenSearch(ds)
        hs.em.run()
        prop = hs._auto_candidates(set())[0]
        flags, seen = [], []
        real_climb, real_taken = trial_mod.climb, trial_mod.climb_taken_over

        def spy_climb(em, *args, **kw):
            if em.n_vars > em.n_obs:
                flags.append(kw.get("takeover", True))
            return real_climb(em, *args, **kw)

        monkeypatch.setattr(trial_mod, "climb", spy_climb)
        monkeypatch.setattr(trial_mod, "climb_taken_over", lambda em: seen.append(em.observed_bic()) or real_taken(em))
        trial = try_proposal(hs, prop, -np.inf)
        assert flags and not any(flags)  # no start's climb runs the move
        firsts = [v for k, v in trial.starts.items() if k in ("learned", "relearned", "refined", "completed")]
        assert len(seen) == 1 + ("rebased" in trial.starts)
        assert seen[0] == max(firsts)
        assert trial.score >= max(firsts)

    def test_adopt_moves_no_edge_whose_h_edge_is_forbidden(self):
        """A child the trial's screen dropped and forbade (H -> X3) stays on K: ``adopt`` moves the
        other edges only, and the move runs without a constraint error."""
        em = proxy_model(2)
        col = em.names.index("H1")
        em.user_forbidden = [*em.user_forbidden, (col, 3)]
        adopt = dict(takeover_candidates(em, col))["adopt X0"]
        assert (0, 3) in adopt and (col, 3) not in adopt
        assert {(col, c) for c in (1, 2, 4, 5)} <= set(adopt)
        new = take_over(em)
        assert (col, 3) not in new.edges and new.observed_bic() > em.observed_bic()
