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
