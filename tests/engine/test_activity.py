"""Tests of engine/hidden/activity.py: a hidden variable read as a measured parent's activity
(#22 item 5, session 16): the statistic against an independent recomputation on hand-built
coefficient tables, and the flag on least-squares fits of simulated errors-in-variables data."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hidden.activity import MIN_COSINE, activity_match


def _loop_match(coef, n_observed, h):
    """Independent recomputation: for each observed variable, its shared children with ``h`` and
    the cosine of the two coefficient lists over them, by plain loops."""
    kids = [c for c in range(n_observed) if coef[h, c] != 0]
    best = None
    for x in range(n_observed):
        both = [c for c in kids if coef[x, c] != 0]
        if not both:
            continue
        a = [coef[h, c] for c in both]
        b = [coef[x, c] for c in both]
        cos = sum(p * q for p, q in zip(a, b, strict=True)) / (
            sum(p * p for p in a) ** 0.5 * sum(q * q for q in b) ** 0.5
        )
        key = (len(both), abs(cos))
        if best is None or key > best[0]:
            best = (key, x, len(both), len(both) / len(kids), cos)
    return best


class TestActivityMatch:
    def test_hand_built_proportional(self):
        # observed 0..7 (0 = X, 1 = Y), hidden 8; H -> 2..7, X -> 2..6 at -2 x H's, Y -> 7
        n = 9
        coef = np.zeros((n, n))
        h_coef = np.array([0.5, -0.8, 1.1, 0.3, -0.6, 0.9])
        coef[8, 2:8] = h_coef
        coef[0, 2:7] = -2.0 * h_coef[:5]
        coef[1, 7] = 1.0
        names = [f"v{i}" for i in range(n)]
        m = activity_match(coef, names, 8, 8)
        assert m.regulator == "v0" and m.shared == 5
        assert m.share == pytest.approx(5 / 6)
        assert m.cosine == pytest.approx(-1.0)
        assert m.flagged

    @pytest.mark.parametrize("seed", range(5))
    def test_against_loops(self, seed):
        rng = np.random.default_rng(seed)
        n_obs, n = 30, 32
        coef = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.3)
        np.fill_diagonal(coef, 0.0)
        for h in (30, 31):
            got = activity_match(coef, [str(i) for i in range(n)], n_obs, h)
            (_, x, shared, share, cos) = _loop_match(coef, n_obs, h)
            assert (got.regulator, got.shared) == (str(x), shared)
            assert got.share == pytest.approx(share)
            assert got.cosine == pytest.approx(cos)

    def test_unrelated_pattern_is_not_flagged(self):
        n = 12
        coef = np.zeros((n, n))
        coef[11, 1:11] = [1, -1, 1, -1, 1, -1, 1, -1, 1, -1]
        coef[0, 1:11] = 1.0  # X parent of every child, with an unrelated (orthogonal) pattern
        m = activity_match(coef, [str(i) for i in range(n)], 11, 11)
        assert m.shared == 10 and m.cosine == pytest.approx(0.0)
        assert not m.flagged

    def test_few_or_minor_share_not_flagged(self):
        n = 14
        coef = np.zeros((n, n))
        coef[13, 1:13] = np.linspace(0.5, 1.5, 12)
        coef[0, 1:5] = 2.0 * coef[13, 1:5]  # proportional, but on 4 of 12 children
        m = activity_match(coef, [str(i) for i in range(n)], 13, 13)
        assert m.cosine == pytest.approx(1.0) and m.shared == 4
        assert not m.flagged

    def test_candidates_and_no_children(self):
        n = 5
        coef = np.zeros((n, n))
        assert activity_match(coef, list("abcde"), 4, 4) is None
        coef[4, 2] = 1.0
        coef[0, 2] = 1.0
        assert activity_match(coef, list("abcde"), 4, 4, candidates=[1, 3]) is None
        assert activity_match(coef, list("abcde"), 4, 4, candidates=[0]).regulator == "a"

    def test_errors_in_variables_fit_is_flagged_and_a_second_regulator_is_not(self):
        # A: a TF's activity, X = A + e its measured level; 30 targets of A; R a separate regulator
        # of 20 of them. Least-squares families T_i <- X, H with H the part of A that X misses
        # (EIV) give proportional coefficients; T_i <- X, R with R independent do not.
        rng = np.random.default_rng(0)
        m, k = 400, 30
        a = rng.normal(size=m)
        x = a + 0.6 * rng.normal(size=m)
        r = rng.normal(size=m)
        w = rng.choice([-1, 1], k) * rng.uniform(0.4, 1.2, k)
        v = np.where(np.arange(k) < 20, rng.choice([-1, 1], k) * rng.uniform(0.4, 1.2, k), 0.0)
        t = a[:, None] * w + r[:, None] * v + 0.3 * rng.normal(size=(m, k))
        h_eiv = a - np.polyfit(x, a, 1)[0] * x
        for hidden, want in ((h_eiv, True), (r, False)):
            n = k + 2
            coef = np.zeros((n, n))  # observed: X (0), targets 1..k; hidden: n - 1
            for i in range(k):
                design = np.column_stack([np.ones(m), x, hidden])
                beta = np.linalg.lstsq(design, t[:, i], rcond=None)[0]
                coef[0, 1 + i], coef[n - 1, 1 + i] = beta[1], beta[2]
            if not want:
                coef[n - 1, 21:] = 0.0  # R drives only its 20 targets
            got = activity_match(coef, [f"v{i}" for i in range(n)], n - 1, n - 1)
            assert got.regulator == "v0"
            assert got.flagged is want
            if want:
                assert abs(got.cosine) > 0.95
            else:
                assert abs(got.cosine) < MIN_COSINE


class TestInTheReport:
    def test_report_and_table_carry_the_flag(self):
        from engine.hidden import regulator_report, report_table

        # observed X (0) and six targets (1..6), hidden H (7): X's coefficients are H's x 1.5
        n = 8
        coef = np.zeros((n, n))
        h_coef = np.array([0.5, -0.8, 1.1, 0.3, -0.6, 0.9])
        coef[7, 1:7] = h_coef
        coef[0, 1:7] = 1.5 * h_coef
        rng = np.random.default_rng(1)
        values = rng.normal(size=(40, n))
        names = ["X", *[f"g{i}" for i in range(1, 7)], "H1"]
        (rep,) = regulator_report(names, 7, coef, np.ones(n), values)
        act = rep.extra["activity"]
        assert act["regulator"] == "X" and act["shared"] == 6 and act["flagged"]
        assert act["cosine"] == pytest.approx(1.0)
        assert rep.to_dict()["activity"] == act
        table = report_table([rep])
        assert set(table["activity_of"]) == {"X (6 of 6 children, cosine +1.00)"}
        coef[0, 1:7] = [1, 1, 1, 1, 1, 1]  # an unrelated pattern: no flag, an empty cell
        (rep,) = regulator_report(names, 7, coef, np.ones(n), values)
        assert not rep.extra["activity"]["flagged"]
        assert report_table([rep])["activity_of"].isna().all()


def _loop_curve(profile, values, cand):
    """Independent recomputation of the non-linear test: lstsq per candidate, scipy's F."""
    from scipy.stats import f

    y = profile - profile.mean()
    m = y.size
    best = None
    for j in cand:
        x = (values[:, j] - values[:, j].mean()) / values[:, j].std()
        fits = []
        for cols in ([x], [x, x**2, x**3]):
            a = np.column_stack([np.ones(m), *cols])
            res = y - a @ np.linalg.lstsq(a, y, rcond=None)[0]
            fits.append(1.0 - res @ res / (y @ y))
        if best is None or fits[1] > best[1]:
            best = (j, fits[1], fits[0])
    j, r2, lin = best
    p = min(1.0, f.sf(((r2 - lin) / 2) / ((1 - r2) / (m - 4)), 2, m - 4) * len(cand))
    return j, r2, lin, p


class TestNonlinearMatch:
    @pytest.mark.parametrize("seed", range(4))
    def test_against_loops(self, seed):
        from engine.hidden.activity import nonlinear_match

        rng = np.random.default_rng(seed)
        m, n = 27, 40
        values = rng.normal(size=(m, n))
        profile = np.tanh(2.0 * values[:, 5]) - 0.7 * values[:, 5] + 0.3 * rng.normal(size=m)
        cand = list(range(0, n, 2))  # every other column
        got = nonlinear_match(profile, values, [f"v{i}" for i in range(n)], cand)
        j, r2, lin, p = _loop_curve(profile, values, cand)
        assert got.regulator == f"v{j}"
        assert got.r2 == pytest.approx(r2, abs=1e-9) and got.linear_r2 == pytest.approx(lin, abs=1e-9)
        assert got.p == pytest.approx(p, rel=1e-6, abs=1e-12)

    def test_curve_flagged_noise_and_line_not(self):
        from engine.hidden.activity import nonlinear_match

        rng = np.random.default_rng(3)
        m, n = 27, 100
        values = rng.normal(size=(m, n))
        x = (values[:, 7] - values[:, 7].mean()) / values[:, 7].std()
        names = [f"v{i}" for i in range(n)]
        curve = 1.0 / (1.0 + np.exp(-4.0 * (x - 0.3))) - 0.4 * x + 0.05 * rng.normal(size=m)
        got = nonlinear_match(curve, values, names, range(n))
        assert got.regulator == "v7" and got.flagged and got.r2 > 0.5
        noise = nonlinear_match(rng.normal(size=m), values, names, range(n))
        assert not noise.flagged
        line = nonlinear_match(2.0 * x + 0.1 * rng.normal(size=m), values, names, range(n))
        assert line.regulator == "v7" and line.r2 > 0.9 and not line.flagged  # straight: no curvature
        assert nonlinear_match(curve, values, names, []) is None
        assert nonlinear_match(curve[:6], values[:6], names, range(n)) is None


def _loop_takeover(coef, names, n_observed, h, before, regulators):
    """Independent recomputation of the takeover reading: for each listed regulator linked to ``h``,
    by plain loops over the edges, H's children that were its children before."""
    kids = [names[c] for c in range(n_observed) if coef[h, c] != 0]
    best = None
    for x in regulators:
        if coef[h, x] == 0 and coef[x, h] == 0:
            continue
        was = [c for p, c in before if p == names[x]]
        taken = sum(1 for c in kids if c in was)
        key = (taken, taken / max(1, len(was)))
        if best is None or key > best[0]:
            best = (key, names[x], "child" if coef[h, x] != 0 else "parent", taken, len(was))
    return best


class TestTakeoverMatch:
    def test_hand_built_replacement(self):
        from engine.hidden.activity import takeover_match

        # before: X (0) -> g1..g6, Y (7) -> g8; after: H (9) -> X, g1..g6 and X keeps nothing
        names = ["X", *[f"g{i}" for i in range(1, 7)], "Y", "g8", "H1"]
        before = [("X", f"g{i}") for i in range(1, 7)] + [("Y", "g8")]
        coef = np.zeros((10, 10))
        coef[9, 0:7] = 1.0
        coef[7, 8] = 1.0
        m = takeover_match(coef, names, 9, 9, before, [0, 7])
        assert (m.regulator, m.link, m.taken) == ("X", "child", 6)
        assert m.share == pytest.approx(6 / 7) and m.cover == pytest.approx(1.0)
        assert m.flagged and m.to_dict()["form"] == "takeover"
        coef[9, 0], coef[0, 9] = 0.0, 1.0  # X -> H instead: H hangs under X
        m = takeover_match(coef, names, 9, 9, before, [0, 7])
        assert m.link == "parent" and m.share == pytest.approx(1.0) and m.flagged

    def test_no_list_unlisted_unlinked_or_nothing_taken(self):
        from engine.hidden.activity import takeover_match

        names = ["X", *[f"g{i}" for i in range(1, 7)], "H1"]
        before = [("X", f"g{i}") for i in range(1, 7)]
        coef = np.zeros((8, 8))
        coef[7, 0:7] = 1.0
        assert takeover_match(coef, names, 7, 7, before, None) is None  # no list: no reading
        assert takeover_match(coef, names, 7, 7, before, []) is None
        assert takeover_match(coef, names, 7, 7, before, [3]) is None  # g3 listed, took nothing from it
        coef[7, 0] = 0.0  # X not linked to H (neither its parent nor its child)
        assert takeover_match(coef, names, 7, 7, before, [0]) is None
        assert takeover_match(np.zeros((8, 8)), names, 7, 7, before, [0]) is None  # no children

    def test_thresholds(self):
        from engine.hidden.activity import MIN_COVER, MIN_TAKEN_SHARE, takeover_match

        # X had 10 children; H -> X and k of them (+ extra genes of its own)
        def case(k, extra):
            n_obs = 1 + 10 + extra
            names = ["X", *[f"g{i}" for i in range(10)], *[f"e{i}" for i in range(extra)], "H1"]
            coef = np.zeros((n_obs + 1, n_obs + 1))
            coef[n_obs, 0] = 1.0
            coef[n_obs, 1 : 1 + k] = 1.0
            coef[n_obs, 11:n_obs] = 1.0
            return takeover_match(coef, names, n_obs, n_obs, [("X", f"g{i}") for i in range(10)], [0])

        assert case(10, 0).flagged
        assert case(8, 0).cover == pytest.approx(MIN_COVER) and case(8, 0).flagged
        assert not case(7, 0).flagged  # X keeps 3 of its 10: its own activity still drives them
        assert not case(10, 4).flagged and case(10, 4).share < MIN_TAKEN_SHARE  # 4 of H's 15 children are new
        assert case(10, 2).share == pytest.approx(10 / 13) and case(10, 2).flagged  # X itself and 2 new
        assert not case(4, 0).flagged  # fewer than MIN_SHARED children taken

    @pytest.mark.parametrize("seed", range(5))
    def test_against_loops(self, seed):
        from engine.hidden.activity import takeover_match

        rng = np.random.default_rng(seed)
        n_obs, n = 30, 32
        names = [f"v{i}" for i in range(n)]
        coef = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.3)
        np.fill_diagonal(coef, 0.0)
        regs = sorted(rng.choice(n_obs, 8, replace=False).tolist())
        before = [(names[p], names[c]) for p in range(n_obs) for c in range(n_obs) if p != c and rng.random() < 0.3]
        for h in (30, 31):
            got = takeover_match(coef, names, n_obs, h, before, regs)
            want = _loop_takeover(coef, names, n_obs, h, before, regs)
            if want is None or want[3] == 0:
                assert got is None
                continue
            _, x, link, taken, n_was = want
            assert (got.regulator, got.link, got.taken) == (x, link, taken)
            assert got.cover == pytest.approx(taken / n_was)


def _table(seed, separate):
    """A listed regulator X and the genes it or a hidden regulator drives (200 samples). Without
    ``separate``: X's measured level is its activity A plus noise, with 15 % knockout-like arrays
    whose probe reads background, and A drives 14 genes; a second TF Y drives 6. With ``separate``:
    a regulator R (not in the table) drives 14 genes and 0.6 of X's activity, X's activity drives
    10 genes of its own."""
    from engine.data import from_array

    rng = np.random.default_rng(seed)
    m = 200
    r, own = rng.normal(size=m), rng.normal(size=m)
    act = 0.6 * r + 0.8 * own if separate else r
    x = act + 0.3 * rng.normal(size=m)
    if not separate:
        ko = rng.random(m) < 0.15
        x[ko] = x.min() - 2.0 + 0.1 * rng.normal(size=int(ko.sum()))
    t = r[:, None] * rng.uniform(0.6, 1.2, 14) + 0.5 * rng.normal(size=(m, 14))
    o = (act if separate else own)[:, None] * rng.uniform(0.6, 1.2, 10) + 0.5 * rng.normal(size=(m, 10))
    names = ["X", *[f"t{i}" for i in range(14)], *[f"o{i}" for i in range(10)]]
    return from_array(np.column_stack([x, t, o]), names), r


class TestTakeoverInTheSearch:
    """``auto`` with a regulator list records the network before each H, and the report reads it."""

    @pytest.mark.parametrize("separate", [False, True])
    def test_activity_named_and_a_separate_regulator_not(self, separate):
        from engine.hidden import HiddenSearch, report_table

        ds, r = _table(0, separate)
        hs = HiddenSearch(ds, em_options={"regulators": ["X"]}, seed=0)
        hs.auto(max_hidden=1)
        (hv,) = hs.hidden
        assert hv.children and abs(np.corrcoef(hs.hidden_profile(hv.name), r)[0, 1]) > 0.95
        assert ("X", "t0") in hv.edges_before and not any(hv.name in e for e in hv.edges_before)
        (rep,) = hs.report()
        act = rep.extra["activity"]
        linked = ("X", hv.name) in hs.edges() or (hv.name, "X") in hs.edges()
        assert linked  # the search linked H and X both ways of building the table
        if separate:  # H took R's 14 genes from X, X kept its own 10: not X's activity
            assert not act["flagged"]
        else:  # H replaced X: X's measured level is a noisy read-out of H
            assert act["form"] == "takeover" and act["regulator"] == "X" and act["flagged"]
            assert act["cover"] == pytest.approx(1.0)
            assert report_table([rep])["activity_of"].iloc[0].startswith("X (14 of ")
