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
