"""Correlation of one profile with every column of a table: how a hidden variable's posterior profile
(JMLR 2007 section 6, its expected values under the E-step) is compared with the observed variables by
the regulator report (:mod:`.report`), its hub reading (:mod:`.hub_targets`) and the tracking
regulator (:mod:`.tracking`)."""

from __future__ import annotations

import numpy as np

__all__ = ["column_corr"]


def column_corr(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """corr(a, b[:, j]) for every column j (0 for a constant column)."""
    ac = a - a.mean()
    bc = b - b.mean(axis=0)
    den = np.sqrt((ac @ ac) * (bc * bc).sum(axis=0))
    return np.where(den > 0, (ac @ bc) / np.where(den > 0, den, 1.0), 0.0)
