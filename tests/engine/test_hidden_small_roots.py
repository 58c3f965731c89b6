"""The take-over on a trial's best start without the child screen's bans, and the ``gather``
candidate (#22, engine/hidden/takeover.py; docs/decisions/hidden-regulators-small-roots.md)."""

from __future__ import annotations

import numpy as np
from test_hidden_takeover import proxy_model

from engine.data import from_array
from engine.hidden import takeover
from engine.hidden.em import StructuralEM
from engine.hidden.takeover import lift_screen, take_over, takeover_candidates


def coparent_model(seed: int, m: int = 300) -> StructuralEM:
    """h -> six children X0..X5; the model holds H <- X0 (a child taken as H's parent), X1 -> X2..X5
    (a child the others hang off) and H -> X2..X5."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    x = np.column_stack([h + 0.6 * rng.normal(size=m) for _ in range(6)])
    x = (x - x.mean(0)) / x.std(0)
    names = [f"X{i}" for i in range(6)]
    em = StructuralEM(
        from_array(x, names, standardize=False),
        hidden={"H1": (x[:, 0], [f"X{i}" for i in range(2, 6)])},
        initial_edges=[("X1", f"X{i}") for i in range(2, 6)],
    )
    col = em.names.index("H1")
    em.edges = sorted({*em.edges, (0, col)})
    return em


class TestLiftScreen:
    def test_lifts_only_the_bans_out_of_h_on_a_copy(self, monkeypatch):
        em = proxy_model(0)
        col = em.names.index("H1")
        em.user_forbidden = [(2, 1), (col, 3), (col, 4)]
        monkeypatch.setattr(takeover, "LIFT_SCREEN", False)
        assert lift_screen(em, col) is em
        monkeypatch.setattr(takeover, "LIFT_SCREEN", True)
        new = lift_screen(em, col)
        assert new is not em and new.user_forbidden == [(2, 1)]
        assert em.user_forbidden == [(2, 1), (col, 3), (col, 4)]  # the input is left as it is
        em.user_forbidden = [(2, 1)]
        assert lift_screen(em, col) is em  # nothing to lift

    def test_a_lifted_child_comes_back_when_it_pays(self, monkeypatch):
        """The proxy model with H -> X3 banned keeps X3 off H; lifted, the move gives it back."""
        monkeypatch.setattr(takeover, "LIFT_SCREEN", True)
        em = proxy_model(2)
        col = em.names.index("H1")
        em.user_forbidden = [*em.user_forbidden, (col, 3)]
        banned = take_over(em)
        lifted = take_over(lift_screen(em, col))
        assert (col, 3) not in banned.edges and (col, 3) in lifted.edges
        assert lifted.observed_bic() > banned.observed_bic()


class TestGather:
    def test_candidate_reverses_h_parents_and_takes_the_coparent(self, monkeypatch):
        monkeypatch.setattr(takeover, "GATHER", True)
        em = coparent_model(0)
        col = em.names.index("H1")
        cands = dict(takeover_candidates(em, col))
        g = set(cands["gather"])
        assert {(col, 0), (col, 1)} <= g and (0, col) not in g
        assert not any(p == 1 for p, _ in g)  # X1's edges into H's children removed
        assert {(col, c) for c in range(2, 6)} <= g
        monkeypatch.setattr(takeover, "GATHER", False)
        assert "gather" not in dict(takeover_candidates(em, col))

    def test_the_move_with_gather_never_lowers_the_score(self, monkeypatch):
        """Every candidate, ``gather`` included, is taken only when the observed-data score rises."""
        monkeypatch.setattr(takeover, "GATHER", True)
        for seed in range(2):
            em = coparent_model(seed)
            em.run()
            assert take_over(em).observed_bic() >= em.observed_bic()
