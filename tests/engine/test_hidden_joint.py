"""The joint re-assignment move of the hidden-variable trials (#22 item 1, engine/hidden/joint.py):
a hidden variable takes a set of variables as children at once when that pays on the observed
data; the move never lowers the observed-data score, leaves its input as it is, is a no-op when
there is nothing to re-assign, and proposes acyclic structures within the user's constraints."""

from __future__ import annotations

import numpy as np
from test_hidden_takeover import is_acyclic, proxy_model

from engine.data import from_array
from engine.hidden import joint, takeover
from engine.hidden.em import StructuralEM
from engine.hidden.joint import joint_candidates, joint_reassign
from engine.hidden.takeover import take_over


def tied_model(seed: int, m: int = 200) -> StructuralEM:
    """h -> x0..x5 (loads 0.9), started with H -> X0..X4 and X5 tied to H's children by edges both
    ways (X5 -> X0, X5 -> X1, X2 -> X5, X3 -> X5), and converged: structural EM keeps X5 off H."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    x = np.column_stack([0.9 * h + 0.6 * rng.normal(size=m) for _ in range(6)])
    x = (x - x.mean(0)) / x.std(0)
    names = [f"X{i}" for i in range(6)]
    em = StructuralEM(
        from_array(x, names, standardize=False),
        hidden={"H1": (x[:, :5].mean(axis=1), names[:5])},
        initial_edges=[("X5", "X0"), ("X5", "X1"), ("X2", "X5"), ("X3", "X5")],
    )
    em.run()
    return em


def children(em: StructuralEM, name: str = "H1") -> list[int]:
    col = em.names.index(name)
    return sorted(c for p, c in em.edges if p == col)


class TestJointCandidates:
    def test_one_candidate_per_variable_following_h_with_its_edges_to_hs_children_removed(self):
        """On the proxy local optimum (H -> X0, X0 -> X1..X5) every Xi follows E[H | x]: one
        candidate each, H -> Xi added and the edge X0 -> Xi (between Xi and H's child) removed,
        the other edges kept."""
        em = proxy_model(0)
        col = em.names.index("H1")
        assert children(em) == [0]
        cands = dict(joint_candidates(em, col))
        assert sorted(cands) == [1, 2, 3, 4, 5]
        for y, edges in cands.items():
            assert set(edges) == (set(em.edges) - {(0, y)}) | {(col, y)}

    def test_forbidden_and_required_edges_hold_and_candidates_are_acyclic(self):
        """A forbidden H -> X3 is not tried; a required X0 -> X2 is not removed; H's observed
        parent X5 is dropped only where H -> X5 would close a cycle."""
        em = proxy_model(1)
        col = em.names.index("H1")
        em.edges = sorted([(col, 0), (0, 1), (0, 2), (0, 3), (0, 4), (5, col)])
        em.user_forbidden = [*em.user_forbidden, (col, 3)]
        em.required = [*em.required, (0, 2)]
        cands = dict(joint_candidates(em, col))
        assert sorted(cands) == [1, 2, 4, 5]
        assert (5, col) in cands[1] and (0, 1) not in cands[1]
        assert (col, 5) in cands[5] and (5, col) not in cands[5]
        for edges in cands.values():
            assert (col, 3) not in edges and (0, 2) in edges and (0, 3) in edges
            assert is_acyclic(em.n_vars, edges)

    def test_no_hidden_variable_or_nothing_to_reassign_is_a_no_op(self):
        """A model without hidden variables, and a hidden variable whose children have no
        children and whose profile no other variable follows, are returned as they are."""
        rng = np.random.default_rng(0)
        x = rng.normal(size=(200, 4))
        em = StructuralEM(from_array(x, ["a", "b", "c", "d"], standardize=False))
        em.run()
        assert joint_reassign(em) is em
        h = rng.normal(size=200)
        x = np.column_stack([h + 0.3 * rng.normal(size=200), h + 0.3 * rng.normal(size=200), rng.normal(size=200)])
        em = StructuralEM(from_array(x, ["a", "b", "c"], standardize=False), hidden={"H1": (h, ["a", "b"])})
        em.run()
        assert children(em) == [0, 1]
        assert joint_candidates(em, em.names.index("H1")) == []
        assert joint_reassign(em) is em


class TestJointReassign:
    def test_reaches_the_planted_children_where_the_take_over_does_not(self, monkeypatch):
        """From the tied start H gets X5 too (all six planted children) and the observed-data
        score rises; the take-over move without ``gather`` (one proxy child's edges, H a root)
        leaves H with five; the input is left as it is."""
        monkeypatch.setattr(takeover, "GATHER", False)
        for seed in (0, 2, 3, 4):
            em = tied_model(seed)
            assert children(em) == [0, 1, 2, 3, 4]  # structural EM alone keeps X5 tied
            before, edges = em.observed_bic(), list(em.edges)
            new = joint_reassign(em)
            assert em.edges == edges and em.observed_bic() == before
            assert children(new) == [0, 1, 2, 3, 4, 5]
            assert new.observed_bic() > before + 5.0
            assert children(take_over(em)) == [0, 1, 2, 3, 4]

    def test_never_lowers_the_score_it_accepts(self):
        """Whatever it returns scores at least as high as its input, on the tied model, the proxy
        model, and from the model it reached (where it returns that model or a better one)."""
        for em in (tied_model(3), proxy_model(2)):
            new = joint_reassign(em)
            assert new is em or new.observed_bic() > em.observed_bic()
            again = joint_reassign(new)
            assert again is new or again.observed_bic() > new.observed_bic()

    def test_the_switch_leaves_the_climb_as_before(self, monkeypatch):
        """With ``joint.JOINT`` off, :func:`climb_taken_over` does not call the move."""
        from engine.hidden import climb as climb_mod

        calls = []
        monkeypatch.setattr(joint, "joint_reassign", lambda em: calls.append(1) or em)
        monkeypatch.setattr(joint, "JOINT", False)
        climb_mod.climb_taken_over(tied_model(0))
        assert calls == []
        monkeypatch.setattr(joint, "JOINT", True)
        climb_mod.climb_taken_over(tied_model(0))
        assert calls == [1]
