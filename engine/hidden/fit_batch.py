"""Many linear-Gaussian family fits at once, as ``LinearGaussianFamilies.fit`` computes each (#22 item 4).

Scoring the ~12,000 seeds of a proposal round on a full table (:mod:`.seed_batch`) refits each
member on its parents outside the set: ~70,000 distinct families, each the ML fit from the scatter
(JMLR 2007 section 3.2: ``alpha = S_UU^-1 S_Ux``, ``RSS = S_xx - S_xU alpha``, the family's
log-likelihood at ``max(RSS / M, floor)``). One at a time
through ``model.fit`` they were ~40 % of the round, and they churned the model's bounded cache
(~8,000 fits at 4,000 genes), evicting the search's own current families.

:class:`FamilyTable` fits the families of one parent count as a stack (``np.linalg.cholesky`` and
``inv`` run the same LAPACK routines per matrix as ``fit``; one parent: ``1 / sqrt(S_uu)`` as
``fit`` does), keeps the coefficients, the residual's weights ``(1, -alpha)`` and the family's
score term (``scorer.family``: log-likelihood minus penalty) for the round, and leaves ``model``'s
cache alone. Equal to ``model.fit`` up to rounding (the products ``L^-T (L^-1 S_Ux)`` run
batched); a stack with a collinear parent set is split until the collinear families are alone,
and those go through ``model.fit`` (its least-squares fallback and warning). Models other than
:class:`~engine.cpd.linear.LinearGaussianFamilies` go through ``model.fit`` throughout.
"""

from __future__ import annotations

import numpy as np

from ..cpd.base import floored_loglik
from ..cpd.linear import LinearGaussianFamilies

__all__ = ["FamilyTable", "STACK_FLOATS"]

#: at most this many floats in one stack of ``S_UU`` systems (families are fitted in chunks)
STACK_FLOATS = 1 << 22


class FamilyTable:
    """The fitted families ``(child, parents)`` of one proposal round: ``table[key]`` is
    ``(coefficients, score term)``, the coefficients in the order of ``parents`` (sorted tuple)."""

    def __init__(self, model, scorer) -> None:
        self.model, self.scorer = model, scorer
        self.table: dict[tuple[int, tuple[int, ...]], tuple[np.ndarray, float]] = {}
        self.columns: dict[tuple[int, tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}
        self.batched = type(model) is LinearGaussianFamilies  # its own fit, with a scatter matrix

    def __getitem__(self, key: tuple[int, tuple[int, ...]]) -> tuple[np.ndarray, float]:
        return self.table[key]

    def column(self, child: int, parents: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The child's residual as weights on variables: ``(child, *parents)`` and ``(1, -alpha)``."""
        return self.columns[child, parents]

    def add(self, keys) -> None:
        """Fit every family of ``keys`` not in the table yet."""
        todo: dict[int, list] = {}
        for key in keys:
            if key not in self.table:
                todo.setdefault(len(key[1]), {})[key] = None
        for k, group in todo.items():
            group = list(group)
            if not self.batched:
                for key in group:
                    self._one(key)
                continue
            step = max(1, STACK_FLOATS // max(k * k, 1))
            for lo in range(0, len(group), step):
                self._stack(group[lo : lo + step], k)

    def _one(self, key) -> None:
        fit = self.model.fit(*key)
        alpha = np.asarray(fit.params["coefficients"], dtype=float)
        self.table[key] = (alpha, self.scorer.family(fit))
        self.columns[key] = (np.array((key[0], *key[1]), dtype=np.intp), np.concatenate([[1.0], -alpha]))

    def _stack(self, keys: list, k: int) -> None:
        s = self.model.scatter
        child = np.fromiter((c for c, _ in keys), dtype=np.intp, count=len(keys))
        s_xx = s[child, child]
        if k:
            par = np.array([p for _, p in keys], dtype=np.intp)
            s_ux = s[par, child[:, None]]
            s_uu = s[par[:, :, None], par[:, None, :]]
            if k == 1:  # as fit computes it: 1 / sqrt(S_uu), squared
                ok = s_uu[:, 0, 0] > 0
                with np.errstate(divide="ignore", invalid="ignore"):
                    c = 1.0 / np.sqrt(s_uu[:, 0, 0])
                alpha = (c * (c * s_ux[:, 0]))[:, None]
            else:
                chol, ok = _inverse_cholesky(s_uu)
                alpha = np.einsum("nji,nj->ni", chol, np.einsum("nij,nj->ni", chol, s_ux))
            ok &= np.isfinite(alpha).all(axis=1)
            rss = s_xx - np.einsum("ni,ni->n", s_ux, alpha)
        else:
            ok, alpha, rss = np.ones(len(keys), dtype=bool), np.zeros((len(keys), 0)), s_xx.copy()
        rss[rss < 64.0 * np.finfo(float).eps * s_xx] = 0.0  # an exact fit, as fit rounds it
        m = self.model.n_samples
        loglik = floored_loglik(rss, m, self.model._floor_var[child])
        pen = self.scorer.penalty(self.model.n_params(k), k)
        rows = np.concatenate([child[:, None], par], axis=1) if k else child[:, None]
        vals = np.concatenate([np.ones((len(keys), 1)), -alpha], axis=1)
        for n, key in enumerate(keys):
            if ok[n]:
                self.table[key] = (alpha[n], float(loglik[n]) - pen)
                self.columns[key] = (rows[n], vals[n])
            else:
                self._one(key)  # collinear parents: model.fit's least squares


def _inverse_cholesky(s_uu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``L^-1`` of each ``S_UU = L L^T`` of the stack (n, k, k), as ``model.fit`` forms it, and
    which have a Cholesky factor (``fit``'s test for collinear parents; the others are zeros, left
    to ``model.fit``). A failing stack is halved until the failures are alone."""
    n = s_uu.shape[0]
    try:
        return np.linalg.inv(np.linalg.cholesky(s_uu)), np.ones(n, dtype=bool)
    except np.linalg.LinAlgError:
        if n == 1:
            return np.zeros_like(s_uu), np.zeros(1, dtype=bool)
        a, ok_a = _inverse_cholesky(s_uu[: n // 2])
        b, ok_b = _inverse_cholesky(s_uu[n // 2 :])
        return np.concatenate([a, b]), np.concatenate([ok_a, ok_b])
