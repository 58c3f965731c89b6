"""Issue 24: on the Inspector a teacher can point at "this candidate matches the ideal profile".

The candidates used to be drawn as alpha_z * z over the instances: with cos phi = 0.35 (C2 = 55.7
on 853 instances) that is a flat band near 0 beside the ideal profile, for every candidate. Now
each candidate has a panel with the ideal profile against the candidate's own values and the
least-squares line alpha_z z (Theorem 3.2): the better the candidate, the closer its points to
its line, and the panel's title gives cos phi and C2.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import page_test

from explorer import state
from explorer.pages import inspector
from explorer.plot_style import TOOLBAR_PX


def _arr(v) -> np.ndarray:
    if isinstance(v, dict):  # plotly's typed-array encoding
        import base64

        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
    return np.asarray(v, dtype=float)


@pytest.fixture(scope="module")
def page(small_data):
    dataset, truth = small_data
    at = page_test("inspector.py", dataset, truth)
    at.run()
    session = at.session_state[state.SESSION]
    for _ in range(3):
        session.step()
    # the child of the first move: it has a parent, and candidates to compare
    child = session.stepper.history[0].child
    at.selectbox(key=inspector.KEY_VAR).set_value(dataset.names[child])
    at.slider(key=inspector.KEY_TOP).set_value(4).run()
    assert not at.exception
    return at, dataset


def _figure(at, key: str) -> dict:
    chart = next(c for c in at.get("plotly_chart") if key in c.proto.id)
    return json.loads(chart.proto.spec)


def test_each_candidate_is_plotted_against_the_ideal_profile(page):
    at, dataset = page
    fig = _figure(at, "ip_inspector_candidates_chart")
    titles = [a["text"] for a in fig["layout"]["annotations"]]
    assert len(titles) == 4 and all("cos φ" in t and "C2 =" in t for t in titles)
    dots = [t for t in fig["data"] if t["mode"] == "markers"]
    lines = [t for t in fig["data"] if t["mode"] == "lines"]
    assert len(dots) == len(lines) == 4
    for title, d, line in zip(titles, dots, lines, strict=True):
        z, y = _arr(d["x"]), _arr(d["y"])
        assert z.size == dataset.n_samples
        # the candidate's own (centred) values across, not alpha_z * z: never a flat band
        name = title.split(":")[0]
        col = dataset.values[:, dataset.names.index(name)]
        np.testing.assert_allclose(z, col - col.mean(), atol=1e-9)
        # the line is the least-squares fit of y on z through the origin (Theorem 3.2) ...
        lx, ly = _arr(line["x"]), _arr(line["y"])
        alpha = (y @ z) / (z @ z)
        np.testing.assert_allclose(ly, alpha * lx, rtol=1e-9)
        # ... and how close the points lie to it is the title's cos phi
        cos = float(title.split("cos φ = ")[1].split(",")[0])
        assert 1 - ((y - alpha * z) @ (y - alpha * z)) / (y @ y) == pytest.approx(cos**2, abs=0.01)
    # the best candidate (first panel) matches the ideal profile best
    coss = [abs(float(t.split("cos φ = ")[1].split(",")[0])) for t in titles]
    assert coss[0] == max(coss)


def test_help_speaks_of_what_is_drawn_and_the_legend_clears_the_toolbar(page):
    at, _ = page
    assert not any("coloured line" in m.value for m in at.markdown)
    assert any("dots close to its line" in m.value for m in at.markdown)
    fig = _figure(at, "ip_inspector_profiles_chart")
    legend = fig["layout"]["legend"]
    height = fig["layout"]["height"]
    assert legend["yref"] == "container" and (1 - legend["y"]) * height >= TOOLBAR_PX
