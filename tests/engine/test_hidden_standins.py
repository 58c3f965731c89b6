"""Modules behind listed stand-ins (#22 item 2, engine/hidden/standins.py): a hidden regulator R of a
co-expressed module and of three listed TFs, the TFs standing in for R as the module's parents."""

from __future__ import annotations

import numpy as np
import pytest

from engine.data import from_array
from engine.hidden import HiddenSearch, standins
from engine.hidden.standins import STANDIN

M, N_TF, N_MODULE, N_REGULON, N_FILLER = 40, 12, 30, 8, 60
STAND = [0, 1, 2]  # the TFs R drives


def table(hidden: bool, seed: int = 0):
    """Listed TFs T00..T11 (T00-T02 driven by R when ``hidden``), a module of 30 genes (R's when
    ``hidden``, else each its stand-in's), each TF's own regulon of 8 genes, 60 genes of noise; the
    network holds every gene's TF as its parent: T00 -> G00-G09, T01 -> G10-G19, T02 -> G20-G29."""
    rng = np.random.default_rng(seed)
    r = rng.normal(size=M)
    own = rng.normal(size=(M, N_TF))
    tf = own.copy()
    if hidden:
        tf[:, STAND] = 0.75 * r[:, None] + 0.66 * own[:, STAND]
    stand_of = np.repeat(STAND, N_MODULE // len(STAND))
    drive = r[:, None] if hidden else tf[:, stand_of]
    module = 0.3 * tf[:, stand_of] + 0.8 * drive + 0.6 * rng.normal(size=(M, N_MODULE))
    regulon = np.repeat(tf, N_REGULON, axis=1) * 0.8 + 0.6 * rng.normal(size=(M, N_TF * N_REGULON))
    x = np.column_stack([tf, module, regulon, rng.normal(size=(M, N_FILLER))])
    tfs = [f"T{i:02d}" for i in range(N_TF)]
    names = tfs + [f"G{i:02d}" for i in range(N_MODULE)] + [f"R{i:03d}" for i in range(N_TF * N_REGULON)]
    names += [f"F{i:02d}" for i in range(N_FILLER)]
    edges = [(tfs[s], f"G{i:02d}") for i, s in enumerate(stand_of)]
    edges += [(tfs[i // N_REGULON], f"R{i:03d}") for i in range(N_TF * N_REGULON)]
    hs = HiddenSearch(from_array(x, names), em_options={"regulators": tfs}, initial_edges=edges)
    return hs, r


def standin_props(hs) -> list:
    return [p for p in hs.propose(n_proposals=10) if p.source == STANDIN]


@pytest.fixture
def on(monkeypatch):
    monkeypatch.setattr(standins, "STANDINS", True)


def test_the_module_with_its_stand_ins_is_proposed_and_tried_first(on):
    hs, r = table(hidden=True)
    props = standin_props(hs)
    assert props, "no stand-in set proposed"
    best = props[0]
    module = {f"G{i:02d}" for i in range(N_MODULE)}
    assert len(set(best.names) & module) >= 25
    assert {"T00", "T01", "T02"} <= set(best.names)  # the stand-ins are H's children too
    assert abs(np.corrcoef(best.profile, r)[0, 1]) >= 0.9
    assert best.estimated_gain > 0 and best.complete_gain > 0 and best.explained_by is None
    assert ("T00", "G00") in best.removed_edges  # the stand-in's edge is inside the set: scored without it
    assert hs._auto_candidates(set())[0].key == best.key


def test_without_the_switch_nothing_is_proposed():
    hs, _ = table(hidden=True)
    assert not standin_props(hs)


def test_a_null_module_of_its_own_regulators_is_not_proposed(on):
    """The module genes driven by their stand-ins themselves (no R): each TF falls inside its own
    co-expression module (its genes and regulon), so no module has a stand-in outside it and no set is
    offered; auto's order holds no stand-in set."""
    hs, _ = table(hidden=False)
    assert not standin_props(hs)
    assert all(p.source != STANDIN for p in hs._auto_candidates(set()))


def test_stand_ins_are_listed_parents_that_track_the_module():
    from engine.hidden.prune import parent_matrix

    parents = [(), (), (), (0,), (0,), (0, 1), (1,), (2,)]  # 0 -> 3, 4, 5; 1 -> 5, 6; 2 -> 7
    pmat = parent_matrix(parents)
    listed = np.array([True, True, True, False, False, False, False, False])
    track = np.array([0.8, 0.8, 0.9, 1, 1, 1, 1, 1])
    assert standins.standins(pmat, np.array([3, 4, 5, 6]), listed, track).tolist() == [0, 1]
    track[1] = 0.3  # 1 is a parent of two but does not track the module
    assert standins.standins(pmat, np.array([3, 4, 5, 6]), listed, track).tolist() == [0]
    assert standins.standins(pmat, np.array([0, 3, 4, 5]), listed, track).tolist() == []  # a member is no stand-in
