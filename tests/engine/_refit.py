"""Independent recomputations shared by the engine tests (not a test module)."""

from __future__ import annotations

import math

import numpy as np


def lstsq_bic(x: np.ndarray, edges: list[tuple[int, int]]) -> float:
    """BIC of a DAG over complete data, each family refitted by least squares (numpy lstsq)."""
    m, n = x.shape
    total = 0.0
    for c in range(n):
        ps = [p for p, k in edges if k == c]
        design = np.column_stack([np.ones(m)] + [x[:, p] for p in ps])
        beta, *_ = np.linalg.lstsq(design, x[:, c], rcond=None)
        s2 = np.mean((x[:, c] - design @ beta) ** 2)
        total += -0.5 * m * (math.log(2 * math.pi * s2) + 1) - 0.5 * math.log(m) * (len(ps) + 2)
    return total
