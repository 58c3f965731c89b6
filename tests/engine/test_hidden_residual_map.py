"""The sparse residual map of a hidden-variable candidate (engine.hidden.residual_map, #22): the
members' residual scatter and values equal an independent least-squares computation, and a
candidate's score is the one the dense map gave."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.hidden.candidates import score_candidate
from engine.hidden.residual_map import residual_map, residual_scatter
from engine.score import BIC


def _case(seed: int, n: int = 14, m: int = 60):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    x[:, 5:11] += rng.normal(size=m)[:, None]
    parents = [
        tuple(sorted(int(p) for p in rng.choice(n, size=int(rng.integers(0, 4)), replace=False) if p != c))
        for c in range(n)
    ]
    return x, parents


@pytest.mark.parametrize("seed", range(4))
def test_scatter_and_values_equal_least_squares_residuals(seed):
    x, parents = _case(seed)
    xc = x - x.mean(axis=0)
    model = LinearGaussianFamilies(x)
    members = np.arange(5, 11)
    inside = set(members.tolist())
    outs = [tuple(p for p in parents[i] if p not in inside) for i in members]
    resid = np.column_stack(
        [
            xc[:, i] - (xc[:, list(o)] @ np.linalg.lstsq(xc[:, list(o)], xc[:, i], rcond=None)[0] if o else 0.0)
            for i, o in zip(members, outs, strict=True)
        ]
    )
    rows = np.array(sorted(inside.union(*map(set, outs))), dtype=np.intp)
    coefs = [model.fit(int(i), o).params["coefficients"] if o else () for i, o in zip(members, outs, strict=True)]
    w = residual_map(members, outs, coefs, rows)
    assert w.nnz == sum(1 + len(o) for o in outs)
    np.testing.assert_allclose(
        residual_scatter(w, model.scatter[np.ix_(rows, rows)]), resid.T @ resid, rtol=1e-9, atol=1e-9
    )
    np.testing.assert_allclose(np.asarray(w.T @ xc[:, rows].T).T, resid, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_candidate_score_equals_the_dense_map(seed):
    x, parents = _case(seed)
    xc = x - x.mean(axis=0)
    model = LinearGaussianFamilies(x)
    members = np.arange(5, 11)
    cs = score_candidate(model, parents, members, BIC(x.shape[0]), xc)
    inside = set(members.tolist())
    outs = [tuple(p for p in parents[i] if p not in inside) for i in members]
    rows = np.array(sorted(inside.union(*map(set, outs))), dtype=np.intp)
    dense = np.zeros((rows.size, members.size))
    for col, (i, o) in enumerate(zip(members, outs, strict=True)):
        dense[np.searchsorted(rows, i), col] = 1.0
        if o:
            dense[np.searchsorted(rows, o), col] = -np.asarray(model.fit(int(i), o).params["coefficients"])
    yty = dense.T @ model.scatter[np.ix_(rows, rows)] @ dense
    rss = np.diag(yty)
    z = (xc[:, rows] @ dense / np.sqrt(rss / x.shape[0])) @ cs.loadings
    np.testing.assert_allclose(cs.profile, z, rtol=1e-9, atol=1e-9)
    assert cs.removed == [(p, int(i)) for i in members for p in parents[i] if p in inside]
