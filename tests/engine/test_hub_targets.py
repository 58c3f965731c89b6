"""Tests of engine/hidden/hub_targets.py: a kept hidden variable whose children are not set apart
from its listed parents' other targets (#22, session 18). Hand-built networks: a hub's pooled
activity (flagged), a regulator relayed from a listed TF with a tight module (not flagged), the
exclusions (H's own parents, another hidden variable's children, genes without H's parent), the
share threshold, an independent count of the rival targets, and the reading in the report."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hidden.hub_targets import RIVAL_SHARE, hub_targets


def _hub_network(n_targets: int = 120, n_kids: int = 20, seed: int = 0, module: bool = False):
    """Observed: the hub X (column 0), a second TF (column 1), ``n_targets`` targets of X; hidden H
    last with H <- X and H -> the first ``n_kids`` targets; the other targets keep X as a parent.

    ``module=False`` (the genome nulls' pooled hub): every target is X + noise, H = X + a little
    noise, so X's other targets follow H as closely as H's children. ``module=True`` (a regulator
    relayed from X, ``H <- TF``): H = 0.5 X + its own part, H's children follow H tightly and X's
    other targets follow X only."""
    rng = np.random.default_rng(seed)
    m = 30
    n_obs = 2 + n_targets
    n = n_obs + 1
    h = n - 1
    x = rng.normal(size=m)
    hv = 0.5 * x + np.sqrt(0.75) * rng.normal(size=m) if module else x + 0.2 * rng.normal(size=m)
    values = rng.normal(size=(m, n))
    values[:, 0], values[:, h] = x, hv
    coef = np.zeros((n, n))
    coef[0, h] = 0.5 if module else 1.0
    kids = np.arange(2, 2 + n_kids)
    rest = np.arange(2 + n_kids, n_obs)
    coef[h, kids] = 1.0
    coef[0, rest] = rng.uniform(0.8, 1.2, rest.size) * rng.choice([-1, 1], rest.size)
    values[:, kids] = np.outer(hv, np.ones(n_kids)) + (0.4 if module else 1.0) * rng.normal(size=(m, n_kids))
    values[:, rest] = np.outer(x, coef[0, rest]) + rng.normal(size=(m, rest.size))
    names = ["X", "T2"] + [f"g{i}" for i in range(n_targets)] + ["H1"]
    return coef, values, names, n_obs


def _rivals_by_hand(coef, values, n_obs, h):
    """The rival targets counted one variable at a time (independent of the vectorized code)."""
    kids = [j for j in range(n_obs) if coef[h, j] != 0]
    ups = [i for i in range(n_obs) if coef[i, h] != 0]
    r = {j: abs(np.corrcoef(values[:, h], values[:, j])[0, 1]) for j in range(n_obs)}
    med = float(np.median([r[j] for j in kids]))
    out = []
    for j in range(n_obs):
        other_h = any(coef[k, j] != 0 for k in range(n_obs, coef.shape[0]) if k != h)
        if j in kids or j in ups or other_h or not any(coef[i, j] != 0 for i in ups):
            continue
        if r[j] >= med:
            out.append(j)
    return out, med


class TestHubTargets:
    @pytest.mark.parametrize("seed", range(3))
    def test_pooled_hub_is_flagged(self, seed):
        coef, values, names, n_obs = _hub_network(seed=seed)
        got = hub_targets(coef, values, names, n_obs, n_obs)
        want, med = _rivals_by_hand(coef, values, n_obs, n_obs)
        assert got.rivals == len(want) and got.median_corr == pytest.approx(med)
        assert got.regulators == ["X"] and got.children == 20
        assert got.rivals >= RIVAL_SHARE * 20 and got.flagged
        assert set(got.examples) <= {names[j] for j in want} and len(got.examples) == min(5, len(want))

    @pytest.mark.parametrize("seed", range(3))
    def test_relayed_regulator_with_a_tight_module_is_not(self, seed):
        coef, values, names, n_obs = _hub_network(seed=seed, module=True)
        got = hub_targets(coef, values, names, n_obs, n_obs)
        assert got.regulators == ["X"] and got.rivals == len(_rivals_by_hand(coef, values, n_obs, n_obs)[0])
        assert got.rivals < RIVAL_SHARE * 20 and not got.flagged

    def test_exclusions_and_threshold(self):
        coef, values, names, n_obs = _hub_network()
        h = n_obs
        base = hub_targets(coef, values, names, n_obs, h)
        # without X as their parent, X's other targets are no rivals (a gene merely correlated)
        cut = coef.copy()
        cut[0, 22:n_obs] = 0.0
        assert hub_targets(cut, values, names, n_obs, h).rivals == 0
        # another hidden variable's children are not rivals: add H2 over every target of X
        big = np.zeros((coef.shape[0] + 1,) * 2)
        big[: coef.shape[0], : coef.shape[0]] = coef
        big[-1, 22:n_obs] = 1.0
        vals = np.column_stack([values, np.zeros(values.shape[0])])
        assert hub_targets(big, vals, names + ["H2"], n_obs, h).rivals == 0
        # the share threshold: keep as many rivals as half the children, then one fewer
        r = np.abs([np.corrcoef(values[:, h], values[:, j])[0, 1] for j in range(n_obs)])
        rivals = [j for j in range(22, n_obs) if r[j] >= base.median_corr]
        for keep, flagged in ((10, True), (9, False)):
            c = coef.copy()
            c[0, rivals[keep:]] = 0.0
            got = hub_targets(c, values, names, n_obs, h)
            assert got.rivals == keep and got.flagged is flagged

    def test_no_parent_or_too_few_children(self):
        coef, values, names, n_obs = _hub_network()
        no_parent = coef.copy()
        no_parent[0, n_obs] = 0.0
        assert hub_targets(no_parent, values, names, n_obs, n_obs) is None  # no list: not read
        one_kid = coef.copy()
        one_kid[n_obs, 3:22] = 0.0
        assert hub_targets(one_kid, values, names, n_obs, n_obs) is None


class TestParentless:
    """An H without parents is read against the listed regulator closest to its profile."""

    @pytest.mark.parametrize("seed", range(3))
    def test_hub_targets_without_the_edge(self, seed):
        coef, values, names, n_obs = _hub_network(seed=seed)
        coef[0, n_obs] = 0.0  # H lost its edge from X; its children are still X's targets
        with_edge = hub_targets(_hub_network(seed=seed)[0], values, names, n_obs, n_obs)
        kids = list(range(2, 22))
        got = hub_targets(coef, values, names, n_obs, n_obs, candidates=[0, 1, *kids])  # children never the hub
        assert got.closest and got.regulators == ["X"] and got.flagged
        assert got.rivals == with_edge.rivals and got.median_corr == pytest.approx(with_edge.median_corr)
        assert hub_targets(coef, values, names, n_obs, n_obs, candidates=kids) is None  # only children listed

    @pytest.mark.parametrize("seed", range(3))
    def test_a_module_of_its_own_is_not(self, seed):
        coef, values, names, n_obs = _hub_network(seed=seed, module=True)
        coef[0, n_obs] = 0.0
        got = hub_targets(coef, values, names, n_obs, n_obs, candidates=[0, 1])
        assert got.closest and got.regulators in (["X"], ["T2"]) and not got.flagged

    def test_said_in_words(self):
        from engine.hidden.hub_targets import hub_text

        coef, values, names, n_obs = _hub_network()
        coef[0, n_obs] = 0.0
        got = hub_targets(coef, values, names, n_obs, n_obs, candidates=[0, 1]).to_dict()
        assert hub_text(got).startswith("no listed parent, and with X, the listed regulator closest to its profile: ")
        assert not hub_text({**got, "closest": False}).startswith("no listed parent")


def test_in_the_report():
    from engine.hidden import regulator_report

    coef, values, names, n_obs = _hub_network()
    (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, gains={"H1": (30.0, 150.0)})
    ht = rep.extra["hub_targets"]
    assert ht["flagged"] and ht["regulators"] == ["X"] and rep.to_dict()["hub_targets"] == ht
    assert not rep.extra["pooled"]["flagged"]  # one parent, 7.5 nats a child: the pooled reading is silent


def test_report_line_and_learn_say_it(capsys):
    from types import SimpleNamespace

    from engine.cli.reports import report_hidden
    from engine.hidden import regulator_report
    from explorer.report_lines import report_line

    coef, values, names, n_obs = _hub_network()
    (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, gains={"H1": (30.0, 150.0)})
    ht = rep.extra["hub_targets"]
    want = f"{ht['rivals']} other genes with X as a parent follow its profile as closely as its median child"
    assert f"**Its parents' targets?** H1: {want}" in report_line(rep, ["X", "T2"])
    h = {"name": "H1", "children": ["g0"], "parents": ["X"], "hub_targets": ht}
    quiet = {**h, "name": "H2", "hub_targets": {**ht, "flagged": False}}
    report_hidden(
        SimpleNamespace(max_hidden=3, hidden_log_=[]),
        SimpleNamespace(hidden=[h, quiet], flagged_proposals=[], score_info={}),
    )
    err = capsys.readouterr().err
    assert f"H1: {want}" in err and "read H1 as its parents' targets" in err and "H2:" not in err
    coef[0, n_obs] = 0.0  # no parent and no regulator list: no reading, no line
    (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, gains={"H1": (30.0, 150.0)})
    assert rep.extra["hub_targets"] is None and "parents' targets?" not in report_line(rep, ["X", "T2"])
    (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, {"H1": (30.0, 150.0)}, regulators=[0, 1])
    assert rep.extra["hub_targets"]["closest"] and "the listed regulator closest" in report_line(rep, ["X", "T2"])


def test_csv_column():
    """The regulator report's CSV (``report_table``: learn --csv, the Hidden page's download) carries
    the reading in ``hub_targets_of``, in learn's words, on each of H's rows; empty when not flagged."""
    from engine.hidden import regulator_report, report_table
    from engine.hidden.hub_targets import hub_text

    for module, flagged in ((False, True), (True, False)):
        coef, values, names, n_obs = _hub_network(module=module)
        (rep,) = regulator_report(names, n_obs, coef, np.ones(len(names)), values, gains={"H1": (30.0, 150.0)})
        ht = rep.extra["hub_targets"]
        table = report_table([rep])
        assert ht["flagged"] is flagged and len(table) == 20
        if flagged:
            assert (table["hub_targets_of"] == hub_text(ht)).all()
            assert table["hub_targets_of"].iloc[0].startswith(f"{ht['rivals']} other genes with X as a parent")
        else:
            assert table["hub_targets_of"].isna().all()


def test_current_fit_passes_the_regulators():
    """The explorer's report of the current network (``scale.CurrentFit.report``, the Hidden page and
    the JSON export) reads a parentless H against the regulator list it is given, as the CLI's
    ``HiddenSearch.report`` does: the same reading as ``regulator_report`` with the list."""
    from engine.hidden import regulator_report
    from engine.hidden.scale import CurrentFit

    coef, values, names, n_obs = _hub_network()
    coef[0, n_obs] = 0.0  # H1 has no parent: only the list lets hub_targets read it
    variance = np.ones(len(names))
    edges = [(int(p), int(c), float(coef[p, c])) for p, c in zip(*np.nonzero(coef), strict=True)]
    fit = CurrentFit(list(names), n_obs, edges, variance)
    assert fit.report(values)[0].extra["hub_targets"] is None  # no list: no reading
    (got,) = fit.report(values, regulators=[0, 1, n_obs])  # a hidden index among the columns is ignored
    (want,) = regulator_report(names, n_obs, coef, variance, values, regulators=[0, 1])
    assert got.extra["hub_targets"] == want.extra["hub_targets"] and got.extra["hub_targets"]["closest"]
