"""The top eigenpair of a cluster's cosine matrix (JMLR 2007 section 5, eq. 11-12: z* = Y v* from
the top eigenvector v* of ``A = Y^T Y``, lambda* its eigenvalue).

Above :data:`~.proposals.DENSE_EIGH` members only the top pair is needed. ARPACK's Lanczos
(``eigsh``) costs ~1 ms a call whatever the size up to a few hundred (its Python driver and reverse
communication), which made it most of :func:`~.proposals.score_cluster`'s time in a proposal
round's grown sets (25-50 members, one call per member pruned: benchmarks/RESULTS.md "Propose on a
wide tumour table"). LAPACK's ``dsyevr`` asked for the top pair only (``scipy.linalg.eigh`` with
``subset_by_index``) costs 0.1-0.6 ms up to :data:`LANCZOS_ABOVE` members and is exact to rounding
(the Lanczos pair agrees to its ``tol=1e-10``, and ARPACK's random start already moved it by ~1e-12
between calls); above, Lanczos is kept (started from ``v0`` when given).
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh
from scipy.sparse.linalg import eigsh

__all__ = ["LANCZOS_ABOVE", "top_eigenpair"]

#: above this many members the top pair comes from Lanczos; at or below, from LAPACK's dsyevr
LANCZOS_ABOVE = 128


def top_eigenpair(cos: np.ndarray, v0: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(w, v)``: the largest eigenvalue of the symmetric ``cos`` as ``w[-1]`` and its unit
    eigenvector as ``v[:, -1]`` (the layout of ``numpy.linalg.eigh``; the sign is the caller's)."""
    size = cos.shape[0]
    if size > LANCZOS_ABOVE:
        return eigsh(cos, k=1, which="LA", v0=v0, tol=1e-10)
    return eigh(cos, subset_by_index=[size - 1, size - 1])
