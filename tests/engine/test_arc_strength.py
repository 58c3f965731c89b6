"""Edge strength of a single run (decisions.md): nats the network's score loses when that edge alone
is removed, other families unchanged; checked against independent least-squares refits."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from scipy.special import gammaln

from engine.arc_strength import arc_strengths
from engine.cli import main
from engine.data import from_array
from engine.learn import IdealParentSearch
from engine.network import LearnedNetwork
from engine.synth import random_network, sample_dataset


def _ls_loglik(y: np.ndarray, u: np.ndarray) -> float:
    """Gaussian log-likelihood at the ML fit of y on [1, u] (numpy's least squares)."""
    m = len(y)
    design = np.column_stack([np.ones(m), u]) if u.size else np.ones((m, 1))
    resid = y - design @ np.linalg.lstsq(design, y, rcond=None)[0]
    return -0.5 * m * (math.log(2 * math.pi * (resid @ resid) / m) + 1.0)


def _refit_strength(x: np.ndarray, child: int, parents, parent: int, penalty) -> float:
    """score(child | parents) - score(child | parents without ``parent``) by two refits."""
    rest = [p for p in parents if p != parent]
    full = _ls_loglik(x[:, child], x[:, list(parents)]) - penalty(len(parents))
    reduced = _ls_loglik(x[:, child], x[:, rest]) - penalty(len(rest))
    return full - reduced


@pytest.fixture(scope="module")
def tall():
    net = random_network(25, expected_parents=1.5, seed=3)
    return sample_dataset(net, 400, seed=4)


def test_bic_strength_equals_two_least_squares_refits(tall):
    est = IdealParentSearch(score="bic").fit(tall)
    net = est.network_
    m = tall.n_samples
    assert net.n_edges > 10 and len(net.strengths) == net.n_edges

    def penalty(k):
        return 0.5 * math.log(m) * (k + 2)

    for (p, c), s in net.strengths.items():
        ci, pi = tall.index(c), tall.index(p)
        parents = [tall.index(q) for q in net.families[c].parents]
        assert s == pytest.approx(_refit_strength(tall.values, ci, parents, pi, penalty), rel=1e-7, abs=1e-7)
    # a converged search keeps no edge whose removal would raise the score
    assert min(net.strengths.values()) > 0


def test_ebic_strength_with_a_regulator_list(tall):
    regs = list(tall.names[:8])
    est = IdealParentSearch(regulators=regs, score="ebic").fit(tall)
    net = est.network_
    m, p = tall.n_samples, len(regs)
    assert net.score_info["name"] == "ebic" and net.n_edges > 3

    def penalty(k):
        return 0.5 * math.log(m) * (k + 2) + (gammaln(p + 1) - gammaln(k + 1) - gammaln(p - k + 1))

    for (par, c), s in net.strengths.items():
        parents = [tall.index(q) for q in net.families[c].parents]
        expected = _refit_strength(tall.values, tall.index(c), parents, tall.index(par), penalty)
        assert s == pytest.approx(expected, rel=1e-7, abs=1e-7)


def test_masked_families_use_the_childs_own_rows():
    """Under interventions a family is scored on the rows where its child was not set (penalty at
    that count): so is its edges' strength."""
    rng = np.random.default_rng(5)
    n = 400
    cond = np.where(rng.random(n) < 0.3, "inhibit_b", "ctrl")
    a = rng.normal(size=n)
    b = np.where(cond == "inhibit_b", rng.normal(size=n), a + 0.5 * rng.normal(size=n))
    c = b + 0.5 * a + 0.7 * rng.normal(size=n)
    x = np.column_stack([a, b, c])
    ds = from_array(x, ["A", "B", "C"], standardize=False)
    est = IdealParentSearch(score="bic").fit(ds, condition=cond, targets=[("inhibit_b", "B")])
    net = est.network_
    assert est.dataset_.interventions.any and net.n_edges >= 2
    for (par, ch), s in net.strengths.items():
        ci, pi = ["A", "B", "C"].index(ch), ["A", "B", "C"].index(par)
        rows = ~((cond == "inhibit_b") & (ch == "B"))
        parents = [["A", "B", "C"].index(q) for q in net.families[ch].parents]
        scale = est.dataset_.values[rows]

        m = int(rows.sum())

        def penalty(k, m=m):
            return 0.5 * math.log(m) * (k + 2)

        assert s == pytest.approx(_refit_strength(scale, ci, parents, pi, penalty), rel=1e-7, abs=1e-7)


def test_nonlinear_cpd_strength_is_the_family_refit_difference(tall):
    small = from_array(tall.values[:150, :6], tall.names[:6])
    est = IdealParentSearch(cpd="sigmoid", score="bic").fit(small)
    model, scorer = est.stepper_.model, est.stepper_.scorer
    parents = {c: est.stepper_.parents(c) for c in range(small.n_vars)}
    got = arc_strengths(model, scorer, parents)
    assert got and got.keys() == {(p, c) for c, ps in parents.items() for p in ps}
    for (p, c), s in got.items():
        rest = tuple(q for q in parents[c] if q != p)
        expected = scorer.family(model.fit(c, parents[c])) - scorer.family(model.fit(c, rest))
        assert s == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_hidden_variable_edges_from_the_expected_statistics(planted_auto):
    """With a hidden variable the families are scored on the expected statistics structural EM
    maximizes; strengths equal the normal-equation refits of those moments. The fit: ``hidden="auto"``
    (BIC, max_hidden=1) on test_latent's planted factor, seed 5 (the session fixture ``planted_auto``
    of tests/engine/conftest.py, shared with test_latent.py)."""
    est = planted_auto[3]
    net = est.network_
    assert net.hidden, "the planted hidden regulator was not added"
    em = est.hidden_search_.em
    moments = em.expected_model()
    names = list(em.names)
    hidden_edges = [(p, c) for (p, c) in net.strengths if p in net.hidden_names()]
    assert len(hidden_edges) >= 4
    s_all, mm = moments.scatter, moments.n_samples

    def fam_score(c, ps):
        rss = s_all[c, c] - (s_all[c, ps] @ np.linalg.solve(s_all[np.ix_(ps, ps)], s_all[ps, c]) if ps else 0.0)
        return -0.5 * mm * (math.log(2 * math.pi * rss / mm) + 1.0) - 0.5 * math.log(mm) * (len(ps) + 2)

    for (p, c), s in net.strengths.items():
        ps = [names.index(q) for q in net.families[c].parents]
        rest = [q for q in ps if q != names.index(p)]
        assert s == pytest.approx(fam_score(names.index(c), ps) - fam_score(names.index(c), rest), rel=1e-6)


def test_exports_rank_edges_strongest_first(tall, tmp_path):
    net = IdealParentSearch().fit(tall).network_
    d = net.to_dict()
    strengths = [e["strength"] for e in d["edges"]]
    assert strengths == sorted(strengths, reverse=True) and len(strengths) == net.n_edges
    frame = net.edges_frame()
    assert list(frame.columns) == ["parent", "child", "weight", "strength"]
    assert frame["strength"].is_monotonic_decreasing
    back = LearnedNetwork.from_dict(json.loads(json.dumps(d)))
    assert back.strengths == pytest.approx(net.strengths)
    root = ET.fromstring(net.to_graphml())
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    first = root.find(f"{ns}graph").find(f"{ns}edge")
    vals = {x.get("key"): float(x.text) for x in first.findall(f"{ns}data")}
    assert vals["strength"] == pytest.approx(strengths[0])
    # a model saved before strengths existed still loads and exports without them
    old = {**d, "edges": [{k: v for k, v in e.items() if k != "strength"} for e in d["edges"]]}
    legacy = LearnedNetwork.from_dict(old)
    assert legacy.strengths == {} and "strength" not in legacy.to_dict()["edges"][0]
    assert legacy.edges_frame()["strength"].isna().all()


def test_cli_learn_writes_strengths(tall, tmp_path):
    data = tmp_path / "d.csv"
    pd.DataFrame(tall.values, columns=tall.names).to_csv(data, index=False)
    out = tmp_path / "r.json"
    assert main(["learn", str(data), "--quiet", "--out", str(out)]) == 0
    edges = json.loads(out.read_text())["edges"]
    assert edges and all(e["strength"] > 0 for e in edges)
    assert [e["strength"] for e in edges] == sorted((e["strength"] for e in edges), reverse=True)
