"""Rankings of many families at once (engine/cpd/linear_rank.py) are the bits of one family at a time
(LinearGaussianFamilies.similarities), whole or at positions, over all variables or candidate columns."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cpd.linear import LinearGaussianFamilies
from engine.cpd.linear_rank import similarities_many


def _families(n: int, rng: np.random.Generator, count: int) -> list[tuple[int, tuple[int, ...]]]:
    out = []
    for _ in range(count):
        k = int(rng.integers(0, 5))
        child, *parents = rng.choice(n, size=k + 1, replace=False).tolist()
        out.append((child, tuple(sorted(parents))))
    return out


def _same(a: tuple, b: tuple) -> bool:
    return all(x.shape == y.shape and x.tobytes() == y.tobytes() for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("with_cols", [False, True])
def test_many_families_are_ranked_to_the_same_bits(with_cols):
    rng = np.random.default_rng(7)
    m, n = 23, 90
    x = rng.normal(size=(m, n)) @ (np.eye(n) + 0.3 * rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.05))
    x[:, 5] = 0.0  # a constant column: z.z = 0
    x[:, 6] = x[:, 7] * 2.0 + 1e-9 * rng.normal(size=m)  # a near-exact fit: r2 at its cap
    model = LinearGaussianFamilies(x)
    cols = np.sort(rng.choice(n, size=40, replace=False)) if with_cols else None
    fams = _families(n, rng, 60) + [(6, (7,)), (5, ()), (8, (5, 9))]
    if with_cols:  # families whose child or parents are candidate columns
        fams += [(int(cols[0]), (int(cols[1]), int(cols[2]))), (int(cols[3]), ())]
    width = n if cols is None else cols.size
    positions = [None if i % 3 else np.sort(rng.choice(width, size=3, replace=False)) for i in range(len(fams))]
    positions[1] = positions[0] = np.array([0, 2, 5])  # one group of positions shared
    many = similarities_many(model, fams, cols, positions)
    for (c, p), a, got in zip(fams, positions, many, strict=True):
        assert _same(got, model.similarities(c, p, cols, a)), (c, p, a)
    whole = similarities_many(model, fams, cols)
    assert all(_same(g, model.similarities(c, p, cols)) for (c, p), g in zip(fams, whole, strict=True))
