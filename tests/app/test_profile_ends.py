"""Under the profile plot of a proposal (and under an accepted H's inferred activity), the conditions at
its two ends by name when the axis cannot name them all (walk of session 23, 172 TCGA tumours: a
cancer-testis program on in about ten tumours showed which only on hover, the axis printing every fourth
28-character barcode)."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from explorer import state
from explorer.session import SearchSession

N = 90  # above explorer.hidden_plots.TICKS_ALL_UP_TO: the axis names about 40 of them
TUMOURS = [f"TCGA-{'A1 B6 E2'.split()[t % 3]}-{0x2F00 + 131 * t:04X}-01A-11R-A090-13" for t in range(N)]
ON = (7, 41, 66)  # the tumours where the program is on


def program_session() -> SearchSession:
    """8 of 20 genes follow a program on in three tumours (and a little elsewhere); searched to convergence."""
    rng = np.random.default_rng(3)
    h = 0.3 * rng.normal(size=N)
    h[list(ON)] = 5.0
    x = rng.normal(size=(N, 20))
    x[:, :8] += 1.2 * h[:, None]
    session = SearchSession(from_array(x, [f"MAGEA{i}" for i in range(20)], instance_labels=TUMOURS), None, "t")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    return session


def test_the_tumours_at_the_ends_of_z_are_named():
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = program_session()
    at.run()
    assert not at.exception
    (line,) = [c for c in texts(at.caption) if c.startswith("Highest z*:")]
    ends = line.split("; lowest: ")
    top = ends[0] if TUMOURS[ON[0]] in ends[0] else ends[1]  # z* is defined up to its sign
    assert all(TUMOURS[t] in top for t in ON)  # the three tumours carrying the program, by name
    assert line.count("TCGA-") == 10


def test_after_accept_the_tumours_at_the_ends_of_h_are_named():
    from explorer import actions

    session = program_session()
    actions.accept_hidden(session, session.propose_hidden(1)[0])
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    (line,) = [c for c in texts(at.caption) if c.startswith("Inferred activity at its ends: **H1** highest in ")]
    high, low = line.split("; lowest in ")
    side = high if TUMOURS[ON[0]] in high else low  # H1 is defined up to its sign
    assert all(TUMOURS[t] in side for t in ON)  # the program's three tumours at one end, by name
    assert line.count("TCGA-") == 10
