"""The Hidden page's automatic run says why it stopped (explorer/hidden_auto.py, #22): at the limit with
proposals still in line, named as such, or because nothing more paid, with no such note."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from explorer import state
from explorer.hidden_auto import KEY_AUTO, KEY_AUTO_MAX
from explorer.session import SearchSession


def planted(roots: int, kids: int = 6, noise: int = 0, m: int = 150, seed: int = 0):
    """``roots`` unmeasured factors, each the parent of ``kids`` variables (load 0.9), and ``noise``
    independent variables (as tests/engine/test_hidden_untried.py)."""
    rng = np.random.default_rng(seed)
    cols = [0.9 * h + np.sqrt(1 - 0.81) * rng.normal(size=m) for h in rng.normal(size=(roots, m)) for _ in range(kids)]
    cols += [rng.normal(size=m) for _ in range(noise)]
    names = [f"R{r}_{k}" for r in range(roots) for k in range(kids)] + [f"N{j}" for j in range(noise)]
    return from_array(np.column_stack(cols), names)


def page_after_auto(ds, limit: int) -> AppTest:
    session = SearchSession(ds, None, "planted factors")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    at.number_input(key=KEY_AUTO_MAX).set_value(limit).run()
    at.button(key=KEY_AUTO).click().run(timeout=600)  # ~10 s CPU: wall time under load is longer
    assert not at.exception
    return at


def test_auto_at_its_limit_says_what_it_left_untried():
    at = page_after_auto(planted(3), 1)
    hs = at.session_state[state.SESSION].hidden
    assert len(hs.hidden) == 1 and hs.considered.stop.at_limit
    (note,) = [w for w in texts(at.warning) if w.startswith("Auto stopped")]
    n = len(hs.considered.stop.untried)
    assert n == 2 and note.startswith(
        "Auto stopped at the limit of 1 hidden variable, not because nothing more paid: 2 proposals were still "
        "in line, untried"
    )
    assert "The largest has 6 members" in note and "Raise the limit" in note
    assert any(s.startswith("Auto added H1") for s in texts(at.success))
    assert at.button(key="ip_hidden_undo").label == "Undo accept (H1)"  # names what it takes back
    at.button(key="ip_hidden_undo").click().run()  # undoable as an Accept; the note goes with it
    assert at.session_state[state.SESSION].hidden is None
    assert not [w for w in texts(at.warning) + texts(at.info) if w.startswith("Auto stopped")]


def test_auto_that_keeps_nothing_has_no_limit_note():
    at = page_after_auto(planted(0, noise=8), 2)
    assert at.session_state[state.SESSION].hidden is None
    assert not [w for w in texts(at.warning) + texts(at.info) if "Auto stopped at the limit" in w]
    (said,) = [s for s in texts(at.warning) if s.startswith("Auto kept no hidden variable")]  # not a success
    assert (
        said == "Auto kept no hidden variable: no cluster with a positive estimated gain, and no semi-clique, is left."
    )


def test_progress_line_is_cut_at_a_word():
    """Newcomer walk of session 25: the bar showed "1 more in l · 1 s elapsed" (cut mid-word at 160)."""
    from explorer.hidden_auto import progress_text

    line = "tried H2 on 31 genes: kept, " + " ".join(f"word{i}" for i in range(60))
    cut = progress_text(line)
    assert len(cut) <= 160 and cut.endswith(" …") and cut[:-2].split()[-1] in line.split()
    assert progress_text("short line") == "short line"


def test_undo_of_an_automatic_run_names_every_h_it_takes_back():
    from explorer.actions import AcceptHidden

    session = type("S", (), {"install": lambda self, *a: None})()
    assert AcceptHidden(None, None, "H1, H2").undo(session) == "The accepted hidden variables H1, H2 were taken back."
    assert AcceptHidden(None, None, "H3").undo(session) == "The accepted hidden variable H3 was taken back."
