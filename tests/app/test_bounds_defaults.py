"""Issue 24: the Bounds page opens on a view that shows the bound's gaps, says why one is absent,
and its log axes account for every point.

On the bundled Sachs sample a linear-Gaussian Add move's C2 equals the exact gain (no parent is
correlated with the candidate), and by step 3 C1 is close to C2 for every Add candidate: with only
Add shown the C1 and C2 plots looked alike. Replace candidates (C1 far below C2) are shown by
default, and their exact gains are negative, which log axes cannot draw.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import family_table
from streamlit.testing.v1 import AppTest

from explorer import state
from explorer.pages import bounds

PAGE = "explorer/pages/bounds.py"


def _points(spec: dict) -> dict[str, tuple[float, float]]:
    """Hover label (operator and edge) -> (x, y) of every candidate drawn."""
    out = {}
    for trace in spec["data"]:
        if trace.get("name") == "y = x":
            continue
        for text, x, y in zip(trace["text"], _values(trace["x"]), _values(trace["y"]), strict=True):
            out[text] = (x, y)
    return out


def _values(v) -> list[float]:
    if isinstance(v, dict):  # plotly's typed-array encoding of numpy arrays
        import base64

        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).tolist()
    return list(v)


@pytest.fixture(scope="module")
def stepped(repo_root):
    """The page on the default sample (Sachs), three steps in, every exact gain computed."""
    at = AppTest.from_file(str(repo_root / PAGE), default_timeout=60).run()
    assert not at.exception
    session = at.session_state[state.SESSION]
    for _ in range(3):
        session.step()
    at.run()
    at.button(key=bounds.KEY_COMPUTE).click().run()
    assert not at.exception
    return at


def test_defaults_show_c1_below_c2(stepped):
    at = stepped
    assert at.multiselect(key=bounds.KEY_OPS).value == ["Add", "Replace"]
    c1_spec, c2_spec = (json.loads(c.proto.spec) for c in at.get("plotly_chart"))
    c1, c2 = _points(c1_spec), _points(c2_spec)
    assert c1.keys() == c2.keys() and len(c1) > 20
    values = np.array([v for pair in (c1, c2) for xy in pair.values() for v in xy])
    span = values.max() - values.min()
    gaps = [c2[k][1] - c1[k][1] for k in c1]
    # some candidate's C1 lies visibly (1 % of the axis) below its C2, and none above
    assert max(gaps) > 0.01 * span
    assert min(gaps) > -1e-6 * span
    assert any("visibly below C2" in c.value for c in at.caption)


def test_says_why_c2_equals_the_exact_gain(stepped):
    # on Sachs every Add candidate's C2 is its exact gain: the page says why, citing the paper
    assert any("C2 *equals* the exact gain" in i.value and "section 3.2" in i.value for i in stepped.info)


def test_log_axes_count_every_point(stepped):
    at = stepped
    n = int(next(m.value for m in at.metric if m.label == "Candidates compared"))
    at.checkbox(key=bounds.KEY_LOG).check().run()
    assert not at.exception
    warning = next(w.value for w in at.warning if "Logarithmic axes" in w.value)
    n_left_out = int(warning.split(": ")[1].split(" of ")[0])
    assert n_left_out > 0
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        drawn = len(_points(spec))
        title = spec["layout"]["title"]["text"]
        assert f"({drawn} of {n} candidates)" in title
        left = int(title.split("<sup>")[1].split(" ")[0])
        assert drawn + left == n
        assert spec["layout"]["xaxis"]["type"] == "log"


def test_a_legend_of_twenty_families_keeps_y_equals_x_in_view():
    """The sigmoid Bounds page with 20 children: the legend scrolled and cut off "y = x"."""
    from explorer.bounds_plots import LEGEND_ROW_PX, bounds_scatter

    n = 20
    table = family_table(n, c1_low=-1.0)
    fig = bounds_scatter(table, "c1", [f"X{i}" for i in range(n)])
    line = next(t for t in fig.data if t.name == "y = x")
    assert all(line.legendrank < (t.legendrank or 1000) for t in fig.data if t is not line)
    layout = fig.layout
    plot_area = layout.height - layout.margin.t - layout.margin.b
    assert plot_area >= LEGEND_ROW_PX * (n + 2)  # title, y = x and 20 families: no scrolling
