"""The global-shift reading of a hidden variable (engine/hidden/global_shift.py, #22 session 20): an H
whose profile is the whole table's per-condition level or first principal component is flagged, a
module's regulator is not, and the reading reaches the report, its CSV, learn's stderr and the
Hidden page's line."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hidden.global_shift import MIN_VARIABLES, REST_CORR, SHIFT_CORR, global_shift, shift_text, table_axes

M, N = 30, 400


def _table(seed: int, level: float = 0.6, module: int = 40, module_sign: float | None = None):
    """(values (M, N), the per-condition level c, the module regulator R, the module's genes): every
    gene follows c with a positive weight (a composition offset) plus noise; genes 0..module-1 also
    follow R (70 % induced, or all of ``module_sign``)."""
    rng = np.random.default_rng(seed)
    c, r = rng.normal(size=M), rng.normal(size=M)
    x = level * rng.uniform(0.5, 1.0, size=N) * c[:, None] + rng.normal(size=(M, N))
    sign = np.where(rng.random(module) < 0.7, 1.0, -1.0) if module_sign is None else np.full(module, module_sign)
    x[:, :module] += 1.5 * sign * r[:, None]
    return x * rng.uniform(0.5, 3.0, size=N) + rng.normal(0, 5, size=N), c, r, np.arange(module)


def _coefs(kids: np.ndarray, signs: np.ndarray | float = 1.0) -> np.ndarray:
    out = np.zeros(N)
    out[kids] = 0.5 * np.asarray(signs)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_level_is_flagged_and_module_regulator_is_not(seed):
    x, c, r, module = _table(seed)
    axes = table_axes(x)
    rng = np.random.default_rng(seed + 10)
    level_h = global_shift(axes, c + 0.2 * rng.normal(size=M), _coefs(np.arange(100, 250)))
    assert level_h.flagged and level_h.axis == "mean" and abs(level_h.mean_corr) >= SHIFT_CORR
    assert level_h.one_sign == 1.0 and level_h.children == 150 and level_h.genes == N - 150
    reg = global_shift(axes, r + 0.2 * rng.normal(size=M), _coefs(module, np.sign(x[:, module].T @ r)))
    assert not reg.flagged and max(abs(reg.mean_corr), abs(reg.pc1_corr)) < 0.6


@pytest.mark.parametrize("seed", [0, 1])
def test_large_one_signed_module_is_not_its_own_level(seed):
    """A regulator of half the table, all induced, makes the table's mean follow it; its children are
    left out of the level, so the level does not read it (with them the mean tracks it at >= 0.9). Its
    genes are the table's main axis, which the first component does name, in its own words."""
    x, _, r, module = _table(seed, level=0.0, module=200, module_sign=1.0)
    axes = table_axes(x)
    gs = global_shift(axes, r, _coefs(module))
    assert abs(gs.mean_corr) < 0.6 and gs.one_sign == 1.0
    with_kids = np.corrcoef(r, axes.z.mean(axis=1))[0, 1]
    assert abs(with_kids) >= SHIFT_CORR  # what the exclusion guards against
    assert gs.axis == "pc1" and "first principal component" in shift_text(gs.to_dict(), "H1")


def test_first_component_is_flagged():
    """A factor on most genes with loadings of both signs: the table's level does not follow it (the
    signs cancel) but its first principal component does."""
    rng = np.random.default_rng(5)
    f = rng.normal(size=M)
    load = np.tile([1.0, -1.0], N // 2) * np.repeat(rng.uniform(0.6, 1.2, size=N // 2), 2)  # signs balanced
    x = f[:, None] * load + rng.normal(size=(M, N))
    kids = np.arange(100)
    gs = global_shift(table_axes(x), f, _coefs(kids, np.sign(load[kids])))
    assert gs.flagged and gs.axis == "pc1" and abs(gs.mean_corr) < 0.6 and gs.pc1_share > 0.2
    assert 0.4 < gs.one_sign < 0.7


@pytest.mark.parametrize("m", [M, 3 * N // 2])
def test_against_a_direct_recomputation(m):
    """The level from the table's sums minus the children's equals the mean of the outside genes'
    standardized columns; the component is the first left singular vector of the whole standardized
    table, from either Gram matrix (fewer conditions than genes, or more)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(m, N)) @ np.diag(rng.uniform(0.5, 2, N)) + rng.normal(size=(m, 3)) @ rng.normal(size=(3, N))
    prof = rng.normal(size=m) + x[:, :20].mean(axis=1)
    kids = rng.choice(N, size=57, replace=False)
    gs = global_shift(table_axes(x), prof, _coefs(kids))
    out = np.setdiff1d(np.arange(N), kids)
    z = (x - x.mean(0)) / x.std(0)
    u, s, _ = np.linalg.svd(z, full_matrices=False)
    assert gs.mean_corr == pytest.approx(np.corrcoef(prof, z[:, out].mean(1))[0, 1], abs=1e-9)
    assert abs(gs.pc1_corr) == pytest.approx(abs(np.corrcoef(prof, u[:, 0])[0, 1]), abs=1e-9)
    assert gs.pc1_share == pytest.approx(s[0] ** 2 / (s**2).sum(), abs=1e-9)


def test_no_children_or_a_small_network():
    x, c, _, _ = _table(0)
    assert global_shift(table_axes(x), c, np.zeros(N)) is None
    small = x[:, : MIN_VARIABLES - 1]
    assert global_shift(table_axes(small), c, _coefs(np.arange(100))[: MIN_VARIABLES - 1]) is None


def _network(seed: int = 0, level: bool = True):
    """A fitted-looking network: N observed genes and H1 (the level, or the module regulator) as
    the parent of 150 genes (or of the module)."""
    x, c, r, module = _table(seed)
    kids = np.arange(100, 250) if level else module
    prof = c if level else r
    names = [f"g{i}" for i in range(N)] + ["H1"]
    coef = np.zeros((N + 1, N + 1))
    coef[N, kids] = 0.4 * (1.0 if level else np.sign(x[:, kids].T @ r))
    z = (x - x.mean(0)) / x.std(0)
    values = np.column_stack([z, (prof - prof.mean()) / prof.std()])
    return coef, values, names


def test_report_csv_line_and_learn(capsys):
    from types import SimpleNamespace

    from engine.cli.reports import report_hidden
    from engine.hidden import regulator_report, report_table
    from explorer.report_lines import report_line

    coef, values, names = _network()
    (rep,) = regulator_report(names, N, coef, np.ones(N + 1), values, gains={"H1": (300.0, 400.0)})
    gs = rep.extra["global_shift"]
    assert gs["flagged"] and rep.to_dict()["global_shift"] == gs
    said = shift_text(gs, "H1")
    assert said.startswith("H1 follows the whole table's per-condition level (r = +")
    assert f"**The whole table's level?** {said}" in report_line(rep, None)
    table = report_table([rep])
    assert (table["global_shift_of"] == said).all() and len(table) == 150
    quiet = {"name": "H2", "children": ["g0"], "global_shift": {**gs, "flagged": False}}
    report_hidden(
        SimpleNamespace(max_hidden=3, hidden_log_=[]),
        SimpleNamespace(hidden=[{"name": "H1", "children": ["g1"], "global_shift": gs}, quiet], flagged_proposals=[],
                        score_info={}),
    )  # fmt: skip
    err = capsys.readouterr().err
    assert said in err and "not a module regulator" in err and "H2 follows" not in err
    coef, values, names = _network(level=False)
    (rep,) = regulator_report(names, N, coef, np.ones(N + 1), values, gains={"H1": (300.0, 400.0)})
    assert not rep.extra["global_shift"]["flagged"] and "whole table's level?" not in report_line(rep, None)
    assert report_table([rep])["global_shift_of"].isna().all()


def test_a_module_that_is_the_first_component_only_by_itself_is_not_flagged():
    """A newcomer walk (session 25): 300 genes x 24 conditions, 30 of them on an unmeasured regulator,
    nothing table-wide. The module is the table's first component (|r| >= 0.9), but the genes outside it
    have no such axis: a regulator, not a normalisation effect. The same table with a factor on every
    gene besides: its H is still read (the axis outlives its children)."""
    rng = np.random.default_rng(11)
    m, n = 24, 300
    r = rng.normal(size=m)
    sign = np.where(rng.random(30) < 0.7, 1.0, -1.0)
    x = rng.normal(size=(m, n))
    x[:, :30] += 1.3 * sign * r[:, None]
    axes = table_axes(x)
    gs = global_shift(axes, r, np.r_[0.5 * sign, np.zeros(n - 30)])
    assert abs(gs.pc1_corr) >= SHIFT_CORR and abs(gs.pc1_rest_corr) < 0.5
    assert not gs.flagged
    f = rng.normal(size=m)
    wide = x + 0.8 * f[:, None] * rng.uniform(0.5, 1.0, n) * np.tile([1.0, -1.0], n // 2)
    kids = np.arange(30, 130)
    gs = global_shift(table_axes(wide), f, _coefs_n(kids, n))
    assert gs.flagged and abs(gs.pc1_rest_corr) >= REST_CORR
    assert "the first component of the genes outside them at r = " in shift_text(gs.to_dict(), "H1")


def _coefs_n(kids: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n)
    out[kids] = 0.5
    return out


@pytest.mark.parametrize("m", [M, 3 * N // 2])
def test_rest_component_against_a_direct_recomputation(m):
    """The component of the genes outside H's children, from the whole table's Gram matrix minus the
    children's (fewer conditions than genes) or from the outside columns (more): the first left singular
    vector of the outside genes' standardized columns."""
    rng = np.random.default_rng(4)
    f = rng.normal(size=m)
    x = f[:, None] * rng.uniform(0.5, 1.5, N) + rng.normal(size=(m, N))
    kids = rng.choice(N, size=40, replace=False)
    gs = global_shift(table_axes(x), f, _coefs(kids))
    z = (x - x.mean(0)) / x.std(0)
    u = np.linalg.svd(np.delete(z, kids, axis=1), full_matrices=False)[0]
    assert abs(gs.pc1_rest_corr) == pytest.approx(abs(np.corrcoef(f, u[:, 0])[0, 1]), abs=1e-9)
