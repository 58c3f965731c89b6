"""AppTest tests for the ideal-parent inspector page (explorer/pages/inspector.py)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from engine.synth import random_network, sample_dataset
from explorer import state
from explorer.loading import DEFAULT_SAMPLE
from explorer.session import SearchSession

PAGE = "explorer/pages/inspector.py"


@pytest.fixture()
def seeded(repo_root):
    """The inspector page with a small dataset and a stepper two moves in."""
    ds = sample_dataset(random_network(6, seed=0), 120, seed=1)
    session = SearchSession(ds, settings=dict(k=2))
    session.step()
    session.step()
    stepper = session.stepper
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=30)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    return at, ds, stepper


def _text(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [s.value for s in at.subheader] + [c.value for c in at.caption])


def test_page_alone_loads_the_default_sample(repo_root):
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=30).run()
    assert not at.exception
    assert at.session_state[state.SESSION].label == DEFAULT_SAMPLE


def test_switch_variable_shows_its_name(seeded):
    at, ds, stepper = seeded
    first = ds.names[0]
    assert f"Family of {first}" in _text(at)
    for name in (ds.names[3], ds.names[5]):
        at.selectbox(key="ip_inspector_variable").select(name).run()
        assert not at.exception
        assert f"Family of {name}" in _text(at)
        parents = [ds.names[p] for p in stepper.parents(ds.names.index(name))]
        for p in parents:
            assert p in _text(at)


def test_widgets_and_exact_gains(seeded):
    at, ds, _ = seeded
    at.selectbox(key="ip_inspector_variable").select(ds.names[2]).run()
    at.slider(key="ip_inspector_n_candidates").set_value(0).run()
    assert not at.exception
    at.slider(key="ip_inspector_n_candidates").set_value(5).run()
    at.checkbox(key="ip_inspector_order_by_ideal").uncheck().run()
    assert not at.exception
    assert "Press the button" in _text(at)
    at.button(key="ip_inspector_compute_exact").click().run()
    assert not at.exception
    assert "Press the button" not in _text(at)
    frame = at.dataframe[0].value
    assert frame["exact gain"].notna().all()
    assert (frame["C2"] <= frame["exact gain"] + 1e-9).all()
    # linear model: the best by C2 and the best exactly are reported
    assert at.success or at.warning
    # the cached exact table survives a rerun
    at.run()
    assert not at.exception and at.dataframe[0].value["exact gain"].notna().all()


def test_sigmoid_family_shows_weights(repo_root):
    ds = sample_dataset(random_network(4, seed=2, cpd="sigmoid"), 60, seed=3)
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=60)
    at.session_state[state.SESSION] = SearchSession(ds, settings=dict(cpd="sigmoid", k=1))
    at.run()
    assert not at.exception
    at.checkbox(key="ip_inspector_distorted").check().run()
    assert not at.exception
    assert "not guaranteed lower bounds" in _text(at)


def test_through_app_navigation(repo_root):
    """The page as registered by app.py (loads the default bundled sample)."""
    at = AppTest.from_file(str(repo_root / "app.py"), default_timeout=60).run()
    assert not at.exception
    at.switch_page(str(repo_root / PAGE)).run()
    assert not at.exception
    ds = at.session_state[state.SESSION].dataset
    name = ds.names[-1]
    at.selectbox(key="ip_inspector_variable").select(name).run()
    assert not at.exception
    assert f"Family of {name}" in _text(at)


def test_choices_survive_a_visit_to_another_page(app):
    app.switch_page("explorer/pages/inspector.py").run()
    names = app.session_state[state.SESSION].dataset.names
    app.selectbox(key="ip_inspector_variable").set_value(names[3]).run()
    app.slider(key="ip_inspector_n_candidates").set_value(6).run()
    app.checkbox(key="ip_inspector_order_by_ideal").uncheck().run()
    app.switch_page("explorer/pages/bounds.py").run()
    app.switch_page("explorer/pages/inspector.py").run()
    assert not app.exception
    assert app.selectbox(key="ip_inspector_variable").value == names[3]
    assert app.slider(key="ip_inspector_n_candidates").value == 6
    assert app.checkbox(key="ip_inspector_order_by_ideal").value is False


@pytest.mark.parametrize("n_samples", [24, 120])
def test_conditions_named_along_the_profiles_axis(repo_root, n_samples):
    """A lab's file names its conditions: the family's profiles say which condition each point is
    (on hover always; along the axis up to NAMED_TICKS instances), as the Hidden page's plot does."""
    import json

    from engine.data import from_array
    from explorer.inspect_plots import NAMED_TICKS

    ds = sample_dataset(random_network(5, seed=2), n_samples, seed=3)
    labels = [f"heat_{5 * (i + 1)}min" for i in range(n_samples)]
    ds = from_array(ds.values, ds.names, instance_labels=labels)
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=30)
    at.session_state[state.SESSION] = SearchSession(ds, settings=dict(k=2))
    at.run()
    assert not at.exception
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    data = spec["data"][0]
    assert sorted(data["customdata"]) == sorted(labels)  # hover names the condition
    axes = [v for k, v in spec["layout"].items() if k.startswith("xaxis") and v.get("title")]
    (axis,) = axes
    if n_samples <= NAMED_TICKS:
        assert axis["ticktext"] == data["customdata"]  # the points' conditions, in the order drawn
        assert axis["title"]["text"].startswith("instances (conditions)")
    else:
        assert "ticktext" not in axis and not axis["title"]["text"].startswith("instances (conditions)")
