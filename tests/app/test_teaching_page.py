"""AppTest tests for the teaching page (explorer/pages/teaching.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

PAGE = "explorer/pages/teaching.py"


def test_teaching_renders_and_sliders_work(repo_root):
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=30).run()
    assert not at.exception
    assert len(at.get("plotly_chart")) >= 7
    labels = {m.label: m.value for m in at.metric}
    assert labels["Slope g'(y₁)"] == "0.2500"
    assert labels["Slope g'(y₂)"] == "0.1275"
    assert labels["Ideal value y₂ (x₂ = 0.85)"] == "1.735"
    for key, values in {
        "ip_teach_noise": [0.0, 1.5, 0.6],
        "ip_teach_samples": [10, 200],
        "ip_teach_sigmoid_x2": [0.55, 0.98],
        "ip_teach_sigmoid_sigma": [0.02, 0.3],
    }.items():
        for v in values:
            at.slider(key=key).set_value(v).run()
            assert not at.exception, (key, v)
    at.number_input(key="ip_teach_seed").set_value(17).run()
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert "(d) After adding the best candidate" in text
    assert "Ideal value y₂ (x₂ = 0.98)" in {m.label for m in at.metric}


def test_figure1_panels_label_every_axis():
    """A student reads each panel's axes: every x and y axis of figure 1 that shows data is titled
    (panels (a), (c) and (d) had a y axis without a title)."""
    from engine.teaching import ideal_parent_example
    from explorer import teaching_plots as tp

    ex = ideal_parent_example()
    for panel in (tp.figure1_panel_a, tp.figure1_panel_b, tp.figure1_panel_c, tp.figure1_panel_d):
        layout = panel(ex).to_dict()["layout"]
        for axis in [k for k in layout if k.startswith("yaxis")]:
            assert layout[axis].get("title", {}).get("text"), (panel.__name__, axis)
        assert any(layout[k].get("title", {}).get("text") for k in layout if k.startswith("xaxis")), panel.__name__
