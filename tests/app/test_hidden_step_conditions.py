"""The Hidden page names an on/off step's conditions (QA walk, #22): on *E. coli* 2,499 x 27 a
36-gene proposal (the Zur regulon among its members) was listed as "on/off step" with no word on
where the step is; the engine names its conditions (``ClusterProposal.step_conditions``), the page
did not show them."""

from __future__ import annotations

import numpy as np
from conftest import PAGES, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from test_hidden_program_text import _proposal

from engine.data import from_array
from engine.hidden.onoff import ONOFF
from explorer import state
from explorer.pages import hidden
from explorer.proposal_text import step_text
from explorer.session import SearchSession

HEAT = ["heat_10min", "heat_30min", "heat_60min"]


def _stepped_session() -> SearchSession:
    """520 genes x 24 conditions, 40 listed regulators; 40 other genes 2.5 SD up in the three heat
    conditions (a response on in a few conditions), searched to convergence."""
    rng = np.random.default_rng(0)
    n, m = 520, 24
    x = rng.normal(size=(m, n))
    on = [4, 11, 19]
    x[on, :40] += 2.5
    labels = [f"cond{i:02d}" for i in range(m)]
    for i, name in zip(on, HEAT, strict=True):
        labels[i] = name
    names = [f"g{i}" for i in range(n)]
    data = from_array(x, names, instance_labels=labels)
    session = SearchSession(data, None, "step", regulators=names[400:440])
    session.start_run(None)
    while session.run_chunk(5.0):
        pass
    return session


def test_the_step_proposal_names_its_conditions():
    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = _stepped_session()
    at.run()
    at.button(key=hidden.KEY_PROPOSE).click().run()  # over 150 variables: proposed on request
    assert not at.exception
    table = next(d.value for d in at.dataframe if "source" in d.value.columns)
    rank = int(table.loc[table["source"] == ONOFF, "rank"].iloc[0])
    label = next(o for o in at.selectbox(key=hidden.KEY_PICK).options if o.startswith(f"#{rank}:"))
    at.selectbox(key=hidden.KEY_PICK).set_value(label).run()
    assert not at.exception
    said = next(t for t in texts(at.markdown) if t.startswith("**On/off step in "))
    assert all(h in said for h in HEAT), said
    # another proposal says no step
    other = next(o for o in at.selectbox(key=hidden.KEY_PICK).options if not o.startswith(f"#{rank}:"))
    at.selectbox(key=hidden.KEY_PICK).set_value(other).run()
    assert not any(t.startswith("**On/off step in ") for t in texts(at.markdown))


def test_step_text_words():
    step = _proposal([f"g{i}" for i in range(36)], [], ["fur_fe", "glu_ale10", "pgi_ale6", "ssw_glc"])
    said = step_text(step)
    assert said.startswith("**On/off step in 4 conditions:** fur_fe, glu_ale10, pgi_ale6, ssw_glc.")
    assert "not in the other 23" in said  # 27 conditions
    assert step_text(_proposal(["a", "b", "c"], [])) is None  # not a step
    pair = ("WT_heat_r1", "WT_heat_r2")
    assert step_text(_proposal(["a", "b", "c"], pair, pair)) is None  # a two-condition program: its flag says it
