"""A proposal whose z* is the whole table's per-condition level is warned before Accept, as a kept H's
report names it (engine/hidden/global_shift.py; explorer/proposal_text.shift_warning)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from conftest import PAGES, TIMEOUT
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from engine.hidden import global_shift
from engine.hidden.global_shift import table_axes
from explorer import state
from explorer.proposal_text import proposal_warnings, shift_warning
from explorer.session import SearchSession


def _table(n: int = 300, m: int = 30, seed: int = 0):
    """A composition-like level shared by every gene, and a 25-gene module of its own."""
    rng = np.random.default_rng(seed)
    level, module = rng.normal(size=m), rng.normal(size=m)
    x = 0.9 * level[:, None] + 0.6 * rng.normal(size=(m, n))
    x[:, :25] += 1.5 * module[:, None]
    return x, level, module


def _proposal(members, profile):
    return SimpleNamespace(members=list(members), loadings=np.ones(len(members)), profile=profile)


def test_a_proposal_on_the_table_level_is_warned_a_module_is_not():
    x, level, module = _table()
    text = shift_warning(_proposal(range(100, 140), level), x)
    assert text.startswith("This proposal follows the whole table's per-condition level (r = +0.9")
    assert "outside its 40 members, 100% of which move one way" in text and "normalise between samples" in text
    assert shift_warning(_proposal(range(25), module), x) is None  # the module's own profile
    assert proposal_warnings(_proposal(range(25), module), x, [f"g{k}" for k in range(x.shape[1])]) == []


def test_a_proposal_flagged_as_one_odd_instance_gets_the_flag_not_the_normalisation_advice():
    """QA walk (session 28): a failed array's proposal read 'One odd sample?' and, beside it, 'normalise
    between samples (TMM...)': the odd array makes the table's first component too, and the flag names it."""
    x, level, _ = _table()
    names = [f"g{k}" for k in range(x.shape[1])]
    prop = _proposal(range(100, 140), level)
    assert any("normalise between samples" in w for w in proposal_warnings(prop, x, names))
    prop.flagged = ("c7",)
    assert proposal_warnings(prop, x, names) == []


def test_small_tables_are_not_read():
    x, level, _ = _table(n=100)  # under the reading's 150 variables
    assert shift_warning(_proposal(range(40, 60), level), x) is None


def test_kept_axes_give_the_same_warning():
    x, level, module = _table()
    axes = table_axes(x)
    for prop in (_proposal(range(100, 140), level), _proposal(range(25), module)):
        assert shift_warning(prop, x, axes) == shift_warning(prop, x)
        assert proposal_warnings(prop, x, [f"g{k}" for k in range(x.shape[1])], axes) == proposal_warnings(
            prop, x, [f"g{k}" for k in range(x.shape[1])]
        )


def test_the_hidden_page_computes_the_table_axes_once(monkeypatch):
    """The page's warning reads the table's level and first component (an M x M eigenproblem, ~50 ms at
    4,218 x 266): computed on the first render of a proposal, not again on the next (a click elsewhere)."""
    x, _, _ = _table(n=60, m=40, seed=1)
    session = SearchSession(from_array(x, [f"g{k}" for k in range(x.shape[1])]), None, "level table")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    calls = []

    def counted(values):
        calls.append(np.shape(values))
        return table_axes(values)

    monkeypatch.setattr(global_shift, "table_axes", counted)
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception and any(s.value.startswith("Proposal #1") for s in at.subheader)
    assert calls == [x.shape]
    at.run()  # a rerun that changed nothing
    assert not at.exception and calls == [x.shape]
