"""Issue #14 in the app. Uploads of awkward files (AppTest): a bad file shows an error and the
previous state (data, search and undo stack) survives; a usable one loads, and whatever was left
out of it is said in a visible warning box. And the exported network after structural EM says
whether EM converged."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import texts

from explorer import sidebar, state


def _chain(scale: float = 1.0, m: int = 60) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(m, 4))
    for j in range(1, 4):
        x[:, j] += x[:, j - 1]
    return x * scale


def _csv(values, columns=("a", "b", "c", "d")) -> bytes:
    return pd.DataFrame(values, columns=list(columns)).to_csv(index=False).encode()


BAD = {
    "empty header cells": ("h.csv", b"a,,,d\n1,2,3,4\n2,3,1,5\n3,1,2,7\n4,5,6,1\n", "no name"),
    "NA-like header cells": ("h.csv", b"a,null,NA,d\n1,2,3,4\n2,3,1,5\n3,1,2,7\n4,5,6,1\n", "no name"),
    "quoted thousands": ("th.csv", b'a,b,c\n"730",1,2\n"1,601",2,1\n"802",3,5\n"905",4,4\n', "thousands"),
    "grouped first column": ("g.csv", b'x,b\n"1,234,567",1\n"2,234,567",2\n"3,234,567",3\n', "thousands"),
    "binary": ("bin.csv", bytes(range(256)) * 8, "binary"),
    "only text": ("t.csv", b"a,b\nx,y\nz,w\nq,r\n", "t.csv"),
    "too short": ("s.csv", b"a,b,c\n1,2,3\n", "instance"),
    "infinite": ("inf.csv", b"a,b\n1,2\ninf,3\n2,5\n4,1\n", "infinite"),
    "beyond 1e150": ("huge.csv", b"a,b\n1e200,2\n3,3\n2,5\n4,1\n", "1e+150"),
}


def _stepped_upload_state(app):
    """The app on the upload source with a good file loaded and one move made (on the undo stack)."""
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("good.csv", _csv(_chain()), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert session.step().move is not None
    return session


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_upload_shows_an_error_and_keeps_data_and_undo(app, case):
    name, payload, expected = BAD[case]
    session = _stepped_upload_state(app)
    stack = list(session.undo_stack)
    app.file_uploader(key=state.W_UPLOAD).set_value((name, payload, "text/csv")).run()
    assert not app.exception
    errors = texts(app.error)
    assert errors and any(name in e and expected in e for e in errors), errors
    assert app.session_state[state.SESSION] is session
    assert session.undo_stack == stack and session.can_undo
    assert session.label == "good.csv"
    # the bad file removed from the uploader: its message goes with it (QA walk, session 28: it stayed on
    # every page through later searches), the good data still loaded
    app.file_uploader(key=state.W_UPLOAD).set_value(None).run()
    assert not app.exception and not texts(app.error), texts(app.error)
    assert app.session_state[state.SESSION] is session


def test_utf16_upload_loads(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    text = pd.DataFrame(_chain(), columns=list("abcd")).to_csv(index=False)
    app.file_uploader(key=state.W_UPLOAD).set_value(("u16.csv", text.encode("utf-16"), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].dataset.names == ("a", "b", "c", "d")


def test_a_text_cell_leaves_out_its_column_visibly(app):
    """One text cell: the column is left out, and a warning box (not only the closed panel) says
    which column, which cell and which row."""
    values = _chain().round(3).astype(object)
    values[13, 2] = "oops"
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("cell.csv", _csv(values), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].dataset.names == ("a", "b", "d")
    warnings = texts(app.warning)
    assert any("'c'" in w and "'oops' in row 14" in w for w in warnings), warnings


def test_raw_scale_1e100_steps_like_scale_one(app):
    """Unstandardized values around 1e100: the app's Step finds the chain's edges (it raised an
    argmin of an empty sequence)."""
    app.checkbox(key=state.W_STANDARDIZE).uncheck().run()
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("big.csv", _csv(_chain(1e100)), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert not session.dataset.standardized
    app.switch_page("explorer/pages/search.py").run()
    for _ in range(3):
        app.button(key=state.W_STEP).click().run()
        assert not app.exception
    assert len(session.stepper.edges()) == 3


def test_parquet_upload_with_dates_leaves_them_out_visibly(app, tmp_path):
    frame = pd.DataFrame(_chain(), columns=list("abcd"))
    frame.insert(2, "when", pd.date_range("2021-03-01", periods=len(frame)))
    path = tmp_path / "d.parquet"
    frame.to_parquet(path)
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("d.parquet", path.read_bytes(), "application/octet-stream"))
    app.run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].dataset.names == ("a", "b", "c", "d")
    assert any("'when'" in w and "2021-03-01" in w for w in texts(app.warning))


def test_export_after_an_accepted_hidden_variable_says_converged():
    from engine.data import from_array
    from engine.hidden import propose_from_search
    from explorer import actions
    from explorer.session import SearchSession

    rng = np.random.default_rng(0)
    h = rng.normal(size=300)
    x = rng.normal(size=(300, 8))
    x[:, :5] += 1.5 * h[:, None]
    s = SearchSession(from_array(x, [f"V{i}" for i in range(8)]), None, "planted")
    prop = propose_from_search(s.stepper, s.values(), s.variable_names(), n_proposals=1)[0]
    actions.accept_hidden(s, prop)
    assert s.hidden.em.converged_
    assert s.learned_network().to_dict()["stats"]["converged"] is True


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_data_and_regulator_file(app, encoding):
    """Excel's 'Unicode text' and some Windows tools write UTF-16 without a byte-order mark: the
    data file and the regulator file both load (the regulator upload was read as UTF-8, NULs and all)."""
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    text = pd.DataFrame(_chain(), columns=["heat_15min", "heat_30min", "cold_1h", "cold_2h"]).to_csv(index=False)
    app.file_uploader(key=state.W_UPLOAD).set_value(("u16.csv", text.encode(encoding), "text/csv")).run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].dataset.names == ("heat_15min", "heat_30min", "cold_1h", "cold_2h")
    listed = "# TFs\nheat_15min\ncold_1h\n".encode(encoding)
    app.file_uploader(key=state.W_REGULATOR_FILE).set_value(("tfs.txt", listed, "text/plain"))  # in the form
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].regulators == ["heat_15min", "cold_1h"]
