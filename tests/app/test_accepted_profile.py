"""After Accept the Hidden page draws each accepted hidden variable's inferred activity over the
conditions, named on the axis in the file's order (newcomer walk, session 19: it was only a CSV
download, so a biologist could not see where the new regulator is high without leaving the app)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from conftest import PAGES, TIMEOUT
from streamlit.testing.v1 import AppTest

from engine.data import from_array
from explorer import actions, export, state
from explorer.accepted_profile import inferred_profiles_figure
from explorer.session import SearchSession

CONDITIONS = [f"{g}_{t}_rep{r}" for g in ("WT", "dfur") for t in ("control", "heat", "cold") for r in (1, 2, 3, 4)]


def accepted_session() -> SearchSession:
    """24 named conditions, 8 of 30 genes driven by an unmeasured activity, its proposal accepted."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(len(CONDITIONS), 30))
    h = rng.normal(size=len(CONDITIONS))
    x[:, :8] = 0.9 * h[:, None] + 0.4 * rng.normal(size=(len(CONDITIONS), 8))
    ds = from_array(x, [f"g{i}" for i in range(30)], instance_labels=CONDITIONS)
    session = SearchSession(ds, None, "module")
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    actions.accept_hidden(session, session.propose_hidden(1)[0])
    return session


def test_the_accepted_profile_is_drawn_over_the_named_conditions():
    session = accepted_session()
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    (chart,) = [c for c in at.get("plotly_chart") if "inferred activity" in c.proto.spec]
    spec = chart.proto.spec
    assert '"name":"H1"' in spec.replace(" ", "")
    assert all(c in spec for c in CONDITIONS)  # every condition named on the axis
    assert any("inferred activity per condition" in c.value for c in at.caption)


def test_the_figure_keeps_the_file_order_and_the_download_values():
    session = accepted_session()
    profiles = export.inferred_profiles(session)
    fig = inferred_profiles_figure(profiles)
    (trace,) = fig.data
    assert list(trace.x) == CONDITIONS  # the file's order, not sorted by the profile
    np.testing.assert_allclose(trace.y, profiles["H1"].to_numpy())  # the CSV's values, same scale
    assert list(fig.layout.xaxis.ticktext) == CONDITIONS
    assert fig.layout.yaxis.title.text == "inferred activity (SD of H)"


def test_repeated_labels_and_unnamed_rows():
    """Replicates sharing a name get their own points; without labels the axis counts rows."""
    profiles = pd.DataFrame({"instance": ["a", "a", "b"], "H1": [1.0, -1.0, 0.0], "H2": [0.0, 1.0, 2.0]})
    fig = inferred_profiles_figure(profiles, named=False)
    assert [t.name for t in fig.data] == ["H1", "H2"]
    assert list(fig.data[0].x) == ["a", "a #2", "b"]
    assert "rows of the data" in fig.layout.xaxis.title.text


def test_truth_and_export_points_to_the_regulator_report():
    """A biologist looks for the report under "Truth & export": after Accept the downloads' caption
    says it is on the Hidden variables page; before any Accept it says nothing of it."""
    at = AppTest.from_file(str(PAGES / "truth.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = accepted_session()
    at.run()
    assert not at.exception
    assert any("regulator report of H1" in c.value and "Hidden variables page" in c.value for c in at.caption)
    plain = SearchSession(from_array(np.random.default_rng(1).normal(size=(30, 5)), list("abcde")), None, "plain")
    at = AppTest.from_file(str(PAGES / "truth.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = plain
    at.run()
    assert not at.exception
    assert not any("regulator report" in c.value for c in at.caption)
