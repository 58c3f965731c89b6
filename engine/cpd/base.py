"""What the search needs from a CPD family, independent of which family it is.

The structure search (``engine.search``) only ever talks to a :class:`FamilyModel`: it asks for the
fit of a family (child, parent set), for the cheap C1/C2 ranking of every Add and Replace candidate
(JMLR 2007 sections 3-4) and for exact log-likelihood gains of chosen candidates. It never computes
a likelihood itself, and the CPD never knows about operators or acyclicity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from .registry import CPDType

__all__ = [
    "FamilyFit",
    "FamilyModel",
    "FamilyBase",
    "Parents",
    "BATCH_BYTES",
    "CACHE_BYTES",
    "cache_entries",
    "LOG_2PI",
    "fit_in_chunks",
    "gaussian_loglik",
    "loglik_from_rss",
    "floored_loglik",
    "VARIANCE_FLOOR",
    "parent_sum",
]

Parents = tuple[int, ...]

#: memory budget of one batched non-linear fit (bytes); larger batches are fitted in chunks
BATCH_BYTES = 256 * 2**20

#: memory budget of a model's cache of family statistics that hold one N-vector each (bytes)
CACHE_BYTES = 256 * 2**20


def cache_entries(n_vars: int, floor: int = 4096) -> int:
    """How many cached family statistics of one N-vector each a model keeps: ``8 N`` (at least
    ``floor``), but no more than :data:`CACHE_BYTES` allow, so that the cache grows linearly
    with N, not as N^2 (a dropped entry is recomputed exactly when needed)."""
    return max(1024, min(max(8 * n_vars, floor), CACHE_BYTES // (8 * max(n_vars, 1))))


LOG_2PI = math.log(2.0 * math.pi)


#: the one variance floor: a family's variance is at least this times its child's own variance, so
#: that a child its parents explain exactly gets a large finite likelihood (and scoring the saved
#: model, whose variance is the floored one, gives the same log-likelihood)
VARIANCE_FLOOR = 1e-10


def floored_loglik(rss: float | np.ndarray, m: int, floor_var: float | np.ndarray) -> float | np.ndarray:
    """Gaussian log-likelihood (nats) of M residuals with sum of squares ``rss`` at the variance
    ``max(rss / M, floor_var)``: the ML value :func:`loglik_from_rss` above the floor, and the exact
    log-likelihood at the floored variance below it, ``-(M/2) log(2 pi v) - rss / (2 v)`` (what a
    held-out evaluation of the saved parameters computes)."""
    rss = np.maximum(rss, 0.0)
    v = np.maximum(rss / m, floor_var)
    return -0.5 * m * (LOG_2PI + np.log(v)) - rss / (2.0 * v)


def loglik_from_rss(rss: float | np.ndarray, m: int) -> float | np.ndarray:
    """Gaussian log-likelihood (nats) of M residuals at the ML variance RSS / M:
    ``-(M/2) (log(2 pi RSS / M) + 1)`` (JMLR 2007 section 3.2)."""
    return -0.5 * m * (LOG_2PI + np.log(rss / m) + 1.0)


def gaussian_loglik(x: np.ndarray, mean: np.ndarray, variance: float) -> float:
    """Log-likelihood (nats) of ``x`` under ``N(mean, variance)`` at every instance (fixed parameters)."""
    var = float(variance)
    resid = np.asarray(x, dtype=float) - mean
    return float(-0.5 * (len(resid) * (LOG_2PI + math.log(var)) + resid @ resid / var))


def parent_sum(params: dict, u: np.ndarray, n: int | None = None) -> np.ndarray:
    """``U alpha``: the parent values ``u`` (n x k) weighted by the family's ``coefficients``.

    Zeros without parents. ``n`` (default: the rows of ``u``) is the number of instances, for a
    ``u`` given without rows."""
    u = np.asarray(u, dtype=float)
    n = u.shape[0] if n is None else n
    a = np.asarray(params.get("coefficients", []), dtype=float)
    return u.reshape(n, -1) @ a if a.size else np.zeros(n)


def fit_in_chunks(fit, x: np.ndarray, u: np.ndarray, start: np.ndarray, *, n_params: int, **kwargs) -> tuple:
    """Run a batched fit ``fit(x, u, start, **kwargs)`` over problems in memory-bounded pieces.

    ``x`` (B, M), ``u`` (B, M, p) and ``start`` (B, q) are split along B so that the roughly a dozen
    (B, M, n_params) arrays an optimizer keeps alive stay within :data:`BATCH_BYTES`; the outputs of
    the pieces are concatenated in order.
    """
    chunk = max(1, int(BATCH_BYTES // (12 * 8 * u.shape[1] * max(n_params, 1))))
    parts = [
        fit(x[i : i + chunk], u[i : i + chunk], start[i : i + chunk], **kwargs) for i in range(0, x.shape[0], chunk)
    ]
    return tuple(np.concatenate([part[j] for part in parts]) for j in range(len(parts[0])))


@dataclass(frozen=True)
class FamilyFit:
    """Maximum-likelihood fit of one family X | U.

    Attributes
    ----------
    child : int
    parents : tuple of int
        Sorted parent indices.
    loglik : float
        Family log-likelihood at the ML parameters, in nats.
    n_params : int
        Free parameters (the BIC dimension): k + 2 for linear Gaussian.
    params : dict
        CPD parameters, e.g. ``{"intercept": b0, "coefficients": [..], "variance": s2}``.
    n_rows : int or None
        The rows the family is scored on when that is not every row of the data (interventional
        data: the rows where the experiment did not set the child, Cooper & Yoo 1999); the BIC
        penalty then uses ``log(n_rows)``. None: every row.
    """

    child: int
    parents: Parents
    loglik: float
    n_params: int
    params: dict = field(default_factory=dict)
    n_rows: int | None = None


class FamilyModel(Protocol):
    """Interface between a CPD family and the search (one implementation per CPD)."""

    cpd: str
    n_samples: int
    n_vars: int

    @property
    def cpd_type(self) -> CPDType:
        """The CPD's registry entry (name, capabilities, settings; :mod:`engine.cpd.registry`)."""

    def fit(self, child: int, parents: Parents) -> FamilyFit:
        """ML fit of the family (cached by the implementation)."""

    def add_similarity(self, child: int, parents: Parents) -> tuple[np.ndarray, np.ndarray]:
        """C1 and C2 (shape (N,)) of adding each variable as a parent; NaN for the child and parents."""

    def replace_similarity(self, child: int, parents: Parents) -> tuple[np.ndarray, np.ndarray]:
        """C1 and C2 (shape (k, N)) of replacing parent i by each variable, relative to the current fit."""

    def exact_add(self, child: int, parents: Parents, candidates: np.ndarray) -> np.ndarray:
        """Exact log-likelihood gain of adding each of ``candidates`` to the family."""

    def exact_add_many(self, requests: list[tuple[int, Parents, np.ndarray]]) -> list[np.ndarray]:
        """Exact gains for several (child, parents, candidates) requests at once (batched)."""

    def delete_gains(self, child: int, parents: Parents) -> np.ndarray:
        """Exact log-likelihood change of deleting each current parent, shape (k,)."""

    def n_params(self, n_parents: int) -> int:
        """BIC dimension of a family with ``n_parents`` parents."""


class FamilyBase:
    """What every CPD family model derives from its own fits: the exact Replace and Delete gains.

    Subclasses provide ``fit`` and ``exact_add_many`` (or ``exact_add``); the search scores moves
    by the exact log-likelihood gain of eq. 2 (JMLR 2007 section 2), and Replace and Delete are
    differences of family fits, whatever the CPD.
    """

    cpd: str
    #: the CPD's registry entry (name, capabilities, settings), set on each model class by
    #: :mod:`engine.cpd.registry` when it registers the CPD
    cpd_type: CPDType

    @property
    def has_c2(self) -> bool:
        """Whether the CPD has a C2 measure (else both ranking slots hold C1)."""
        return self.cpd_type.has_c2

    def exact_add(self, child: int, parents: Parents, candidates: np.ndarray) -> np.ndarray:
        """Exact log-likelihood gains of adding each candidate (one request of ``exact_add_many``)."""
        return self.exact_add_many([(child, parents, candidates)])[0]

    def exact_replace(self, child: int, parents: Parents, i: int, candidates: np.ndarray) -> np.ndarray:
        """Exact gain of replacing ``parents[i]`` by each candidate: delete it, then add the candidate,
        both exact (the gain is relative to the current family)."""
        reduced = parents[:i] + parents[i + 1 :]
        base = self.fit(child, reduced).loglik - self.fit(child, parents).loglik
        return base + self.exact_add(child, reduced, candidates)

    def delete_gains(self, child: int, parents: Parents) -> np.ndarray:
        """Exact log-likelihood change of deleting each current parent, shape (k,)."""
        cur = self.fit(child, parents).loglik
        return np.array([self.fit(child, parents[:i] + parents[i + 1 :]).loglik - cur for i in range(len(parents))])
