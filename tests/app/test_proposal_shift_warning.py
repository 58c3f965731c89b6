"""A proposal whose z* is the whole table's per-condition level is warned before Accept, as a kept H's
report names it (engine/hidden/global_shift.py; explorer/proposal_text.shift_warning)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from explorer.proposal_text import proposal_warnings, shift_warning


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


def test_small_tables_are_not_read():
    x, level, _ = _table(n=100)  # under the reading's 150 variables
    assert shift_warning(_proposal(range(40, 60), level), x) is None
