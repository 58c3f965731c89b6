"""Accept on the Hidden page reports its progress: each stage and EM iteration with a fraction
that only grows (issues #22, #23: a progress bar with the stage and the time elapsed, not a bare
spinner)."""

from __future__ import annotations

import numpy as np

from engine.data import from_array
from explorer import actions
from explorer.session import SearchSession


def test_accept_reports_stages_in_order():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(80, 12))
    h = rng.normal(size=80)
    x[:, :4] += 1.2 * h[:, None]
    session = SearchSession(from_array(x, [f"g{i}" for i in range(12)]), None, "progress")
    for _ in range(20):
        session.step()
    seen: list[tuple[str, float]] = []
    message = actions.accept_hidden(session, session.propose_hidden(1)[0], lambda s, f: seen.append((s, f)))
    assert "Added H1" in message
    stages = [s for s, _ in seen]
    assert stages[0].startswith("searching the network without it")
    assert any(s.startswith("structural EM, iteration 1 ") for s in stages)
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and 0 < fractions[0] and fractions[-1] <= 0.95
