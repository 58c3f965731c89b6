"""Shared check of the hold-out generators' tests: a table drawn twice from one seed is the same table."""

from __future__ import annotations

import numpy as np

#: share of cells whose missing / present state may flip between two draws (see :func:`same_table`)
FLIP_SHARE = 1e-3


def same_table(a: np.ndarray, b: np.ndarray) -> bool:
    """``a`` and ``b`` (tables with NaN for missing cells) drawn from one seed are the same: equal to 1e-9
    where both are present, and the missing cells the same but for at most :data:`FLIP_SHARE` of them. A
    cell below a detection limit (a quantile of its array) goes missing, and a value within rounding of the
    limit can fall either side if two draws differ in their last bits (numpy's SIMD sums may depend on
    memory alignment). Seen once: h19m's table drawn again in a pytest-xdist worker was not bit-equal; not
    reproduced alone (six draws in one process were equal), so the cause is not proven."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return False
    na, nb = np.isnan(a), np.isnan(b)
    both = ~na & ~nb
    return bool(np.mean(na != nb) <= FLIP_SHARE and np.allclose(a[both], b[both], rtol=0, atol=1e-9))
