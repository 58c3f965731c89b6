"""One fit of the current network behind everything a page draws or exports about a hidden
variable (issue #22): the Inspector's candidate plots put H on unit variance, the JSON export's
regulator report describes the exported edges (also after the search moves on from an Accept), and
the Search page's edge weights fit each family once."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import page_test
from test_hidden_page import planted

from engine.search import Move, Operator
from explorer import actions, export, state
from explorer.pages import inspector
from explorer.session import SearchSession


@pytest.fixture(scope="module")
def accepted():
    """A session on the planted-factor data, searched, with its top proposal accepted (H1)."""
    ds, _ = planted()
    session = SearchSession(ds, None, "planted factor")
    session.start_run(None)
    while session.run_chunk(5.0):
        pass
    actions.accept_hidden(session, session.propose_hidden(3)[0])
    assert session.hidden_names() == {"H1"}
    return session


def _implied_sd(session, name: str) -> float:
    """sd(H) under the search's families, computed here with a dense inverse: Var(x) is the diagonal of
    A D A^T with A = (I - W^T)^-1 (the engine solves sparse systems instead)."""
    stepper, names = session.stepper, session.variable_names()
    n = stepper.n_vars
    w, d = np.zeros((n, n)), np.zeros(n)
    for c in range(n):
        fit = stepper.model.fit(c, stepper.parents(c)).params
        w[list(stepper.parents(c)), c] = fit.get("coefficients", [])
        d[c] = fit["variance"]
    a = np.linalg.inv(np.eye(n) - w.T)
    return float(np.sqrt((a**2 @ d)[names.index(name)]))


def _arr(v) -> np.ndarray:
    if isinstance(v, dict):  # plotly's typed-array encoding
        import base64

        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
    return np.asarray(v, dtype=float)


class TestInspectorUnitVariance:
    def test_hidden_child_and_candidate_on_unit_variance(self, accepted):
        """H1 as the child: its values and ideal profile are divided by sd(H1); H1 as a candidate of
        an observed child: its profile is too, and the line's alpha is the slope on that scale."""
        session = accepted
        names, values = session.variable_names(), session.values()
        h = names.index("H1")
        sd = _implied_sd(session, "H1")
        assert abs(sd - 1.0) > 0.05  # EM's own scale is not unit variance: the test can tell
        at = page_test("inspector.py", **{state.SESSION: session})
        at.run()
        at.selectbox(key=inspector.KEY_VAR).set_value("H1")
        at.slider(key=inspector.KEY_TOP).set_value(2).run()
        assert not at.exception
        profiles = json.loads(next(c for c in at.get("plotly_chart") if "profiles_chart" in c.proto.id).proto.spec)
        child = _arr(next(t for t in profiles["data"] if t["name"] == "H1 (inferred by EM, not measured)")["y"])
        np.testing.assert_allclose(np.sort(child), np.sort(values[:, h] / sd), rtol=1e-6, atol=1e-9)
        # an observed child with H1 among its best candidates (a legal new parent, not yet one)
        stepper = session.stepper
        ranks = {}
        for c in range(session.dataset.n_vars):
            entry = stepper.entry(c)
            legal = np.zeros(stepper.n_vars, dtype=bool)
            legal[stepper.legal_parents(c)] = True
            if legal[h] and np.isfinite(entry.add_c2[h]):
                ranks[c] = int(np.sum(entry.add_c2[legal] > entry.add_c2[h]))
        c = min(ranks, key=ranks.get)
        assert ranks[c] < 10, ranks  # the page draws up to 10 candidates
        at.selectbox(key=inspector.KEY_VAR).set_value(names[c])
        at.slider(key=inspector.KEY_TOP).set_value(ranks[c] + 1).run()
        assert not at.exception
        fig = json.loads(next(c for c in at.get("plotly_chart") if "candidates_chart" in c.proto.id).proto.spec)
        titles = [a["text"].split(":")[0] for a in fig["layout"]["annotations"]]
        j = titles.index("H1")
        dots = [t for t in fig["data"] if t["mode"] == "markers"][j]
        line = [t for t in fig["data"] if t["mode"] == "lines"][j]
        z, y = _arr(dots["x"]), _arr(dots["y"])
        col = values[:, h]
        np.testing.assert_allclose(z, (col - col.mean()) / sd, rtol=1e-6, atol=1e-9)
        lx, ly = _arr(line["x"]), _arr(line["y"])
        np.testing.assert_allclose(ly, (y @ z) / (z @ z) * lx, rtol=1e-9)


def _children(out: dict, name: str) -> dict[str, float]:
    return {e["child"]: e["weight"] for e in out["edges"] if e["parent"] == name}


class TestExportAfterSteps:
    def test_report_describes_the_exported_network_after_moves(self, accepted):
        """Steps after Accept drop one of H1's children and give it a new one: the export's regulator
        report (children, loadings, profile) follows the exported edges, not structural EM's fit."""
        session = accepted
        names, stepper = session.variable_names(), session.stepper
        h = names.index("H1")
        kids = [c for p, c in stepper.edges() if p == h]
        new = next(c for c in range(session.dataset.n_vars) if c not in kids and h in stepper.legal_parents(c))
        moves = [Move(Operator.DELETE, h, kids[-1]), Move(Operator.ADD, h, int(new))]
        for move in moves:
            stepper.apply(move)
        try:
            out = export.export_dict(session)
            (entry,) = out["hidden"]
            weights = _children(out, "H1")
            assert names[kids[-1]] not in weights and names[int(new)] in weights
            report = {r["child"]: r["loading"] for r in entry["report"]}
            assert report == pytest.approx(weights)  # one fit: the report's loadings are the edges' weights
            assert set(entry["children"]) == set(weights)
            # the Hidden page's report and the Search page's drawn weights are the same numbers
            drawn = {names[c]: w for p, c, w in session.weighted_edges() if p == h}
            assert drawn == pytest.approx(weights)
            rows = session.current_fit().report(session.values())
            assert {c.child: c.loading for c in rows[0].children} == pytest.approx(weights)
            assert rows[0].profile["values"] == pytest.approx(entry["profile"])
        finally:
            for move in reversed(moves):
                stepper.apply(move.inverse())


class TestOneFit:
    def test_weighted_edges_fit_each_family_once(self, accepted, monkeypatch):
        """The Search page's weights and sd(H) come from one fit per family, and a redraw of the same
        network fits nothing again."""
        session = accepted
        session._fit_cache = None
        model = session.stepper.model
        calls: list[int] = []
        fit = model.fit

        def counted(child, parents):
            calls.append(child)
            return fit(child, parents)

        monkeypatch.setattr(model, "fit", counted)
        edges = session.weighted_edges()
        assert edges and len(calls) == len(set(calls)) == session.stepper.n_vars
        calls.clear()
        assert session.weighted_edges() == edges and not calls
