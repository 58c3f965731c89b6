"""Interventional data on the Hidden and Confidence-adjacent pages: hidden variables are not
learned under interventions (the engine refuses them), and the page says so instead of failing."""

from __future__ import annotations

from conftest import texts

from explorer import interventions_panel, loading, state

SACHS = next(label for label in loading.SAMPLES if "nine conditions" in label)


def _sachs_searched(app, intercepts: bool):
    app.selectbox(key=state.W_SAMPLE).set_value(SACHS).run()
    if intercepts:
        app.checkbox(key=interventions_panel.W_INTERCEPTS).check().run()
    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_RUN_ALL).click().run()
    assert not app.exception


def test_hidden_page_on_interventional_data_explains_instead_of_failing(app):
    for intercepts in (False, True):
        _sachs_searched(app, intercepts)
        app.switch_page("explorer/pages/hidden.py").run()
        assert not app.exception, intercepts
        shown = " ".join(texts(app.info) + texts(app.warning) + texts(app.error) + texts(app.markdown))
        assert "intervention" in shown.lower(), intercepts
        assert not [b for b in app.button if b.key == "ip_hidden_accept"], intercepts


def test_every_page_opens_on_interventional_data(app):
    _sachs_searched(app, intercepts=True)
    for page in ("home", "search", "inspector", "bounds", "teaching", "truth", "confidence", "hidden"):
        app.switch_page(f"explorer/pages/{page}.py").run()
        assert not app.exception, page
