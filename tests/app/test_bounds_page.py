"""AppTest tests for the bounds page (explorer/pages/bounds.py)."""

from __future__ import annotations

import pytest
from conftest import family_table
from streamlit.testing.v1 import AppTest

from engine.synth import random_network, sample_dataset
from explorer import state
from explorer.loading import DEFAULT_SAMPLE
from explorer.session import SearchSession

PAGE = "explorer/pages/bounds.py"


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.fixture()
def seeded(repo_root):
    ds = sample_dataset(random_network(7, seed=5), 150, seed=6)
    session = SearchSession(ds, settings=dict(k=2))
    session.step()
    session.step()
    stepper = session.stepper
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=30)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    return at, ds, stepper


def test_page_alone_loads_the_default_sample(repo_root):
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=30).run()
    assert not at.exception
    assert at.session_state[state.SESSION].label == DEFAULT_SAMPLE


def test_compute_bounds_all_below_diagonal(seeded):
    at, _, stepper = seeded
    n_exact = stepper.n_exact
    at.button(key="ip_bounds_compute").click().run()
    assert not at.exception
    m = _metrics(at)
    assert m["Fraction C1 ≤ exact"] == "1.000"
    assert m["Fraction C2 ≤ exact"] == "1.000"
    assert m["Fraction C1 ≤ C2"] == "1.000"
    assert int(m["Candidates compared"]) > 20
    assert float(m["Spearman (C2, exact)"]) > 0.5
    assert any("safe under-estimates" in s.value for s in at.success)
    assert len(at.get("plotly_chart")) == 2
    # evaluate_all does not count as search work
    assert stepper.n_exact == n_exact
    # the computed table is cached: the button is gone on the next rerun
    at.run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "ip_bounds_compute"]
    assert _metrics(at)["Fraction C2 ≤ exact"] == "1.000"


def test_operator_filter_and_new_step(seeded):
    at, _, stepper = seeded
    at.button(key="ip_bounds_compute").click().run()
    n_all = int(_metrics(at)["Candidates compared"])
    at.multiselect(key="ip_bounds_ops").set_value(["Add"]).run()
    assert not at.exception
    n_add = int(_metrics(at)["Candidates compared"])
    assert 0 < n_add <= n_all
    at.multiselect(key="ip_bounds_ops").set_value([]).run()
    assert not at.exception and at.info
    at.multiselect(key="ip_bounds_ops").set_value(["Add", "Replace"]).run()
    # a new step invalidates the cache: the compute button comes back
    stepper.step()
    at.run()
    assert not at.exception
    assert [b for b in at.button if b.key == "ip_bounds_compute"]


def test_before_compute_shows_search_candidates(seeded):
    at, _, _ = seeded
    # the search itself fitted some candidates exactly: those are summarized already
    assert _metrics(at).get("Fraction C2 ≤ exact") in ("1.000", None)
    assert any("Until you press the button" in c.value for c in at.caption)
    # the intro says what is shown before the button, and names the button as it is labelled
    intro = at.markdown[0].value
    assert "fits *every*" not in intro and "only the candidates the search itself fitted" in intro
    assert f"**{at.button(key='ip_bounds_compute').label}**" in intro


def test_bounds_scatter_gives_twenty_families_distinct_colours_and_room_for_the_legend():
    from explorer.bounds_plots import bounds_scatter

    n = 20
    table = family_table(n)
    fig = bounds_scatter(table, "c2", [f"X{i}" for i in range(n)])
    colours = [t.marker.color for t in fig.data if t.name.startswith("X")]
    assert len(colours) == n and len(set(colours)) == n
    assert fig.layout.height >= 20 * n


def test_large_network_compares_chosen_families_only(repo_root):
    """Above 300 variables the page ranks the candidates of the picked families (by default the
    children of the last moves), not all N^2 moves (#11: a page switch at 3000 genes took 19 s)."""
    ds = sample_dataset(random_network(320, seed=1), 60, seed=2)
    session = SearchSession(ds, settings=dict(k=2))
    for _ in range(3):
        session.step()
    children = {ds.names[m.child] for m in session.stepper.history}
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=60)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    picked = at.multiselect(key="ip_bounds_families")
    assert set(picked.value) == children
    table = at.session_state["ip_bounds_cache"]["table"]
    assert {ds.names[c] for c in set(table.child.tolist())} <= children and len(table) < 10 * 320  # not 320^2
    at.button(key="ip_bounds_compute").click().run()
    assert not at.exception and _metrics(at)["Fraction C2 ≤ exact"] == "1.000"
    # another family: its candidates are ranked instead
    other = next(n for n in ds.names if n not in children)
    picked.set_value([other]).run()
    assert not at.exception
    table = at.session_state["ip_bounds_cache"]["table"]
    assert {ds.names[c] for c in set(table.child.tolist())} == {other}
    assert any("every family has about 320 candidates (102,400 moves" in c.value for c in at.caption)


def test_large_network_with_a_regulator_list_counts_its_candidates(repo_root):
    """800 genes and 40 listed regulators: each family has about 40 candidates, not 800 (the caption
    said 800, and 640,000 moves in all, on a biologist's file)."""
    ds = sample_dataset(random_network(320, seed=1), 60, seed=2)
    session = SearchSession(ds, settings=dict(k=2), regulators=list(ds.names[:12]))
    session.step()
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=60)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    said = "With 320 variables and 12 candidate regulators every family has about 12 candidates (3,840 moves"
    assert any(said in c.value for c in at.caption), [c.value for c in at.caption]


def test_bounds_scatter_legend_names_the_marker_shapes():
    """The legend's title says which shape is Add and which Replace (a teacher's students saw circles
    and diamonds with only 'child' over the legend; the key was in a collapsed expander)."""
    from engine.search import Operator
    from explorer.bounds_plots import bounds_scatter

    table = family_table(3)
    assert bounds_scatter(table, "c2", ["X0", "X1", "X2"]).layout.legend.title.text == "child<br>\u25cf Add"
    table.op[1] = int(Operator.REPLACE)
    title = bounds_scatter(table, "c2", ["X0", "X1", "X2"]).layout.legend.title.text
    assert title == "child<br>\u25cf Add  \u25c6 Replace"
