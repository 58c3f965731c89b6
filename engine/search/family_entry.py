"""A family's ranking and exact gains, in memory that grows with the edges, not with N^2 (issue #11).

JMLR 2007 Algorithm 2 ranks every Add and Replace candidate of a family by C1/C2 (section 4) and
scores the top K exactly. Kept for every family, those rankings are (1 + k) N-vectors each, about
48 N^2 bytes over the N families (1.8 GB at N = 6152). Here instead:

* The candidates are the columns ``cols``: every variable, or the candidate regulators. With a
  regulator list a family's ranking is an R-vector computed from the model's N x R scatter block
  (O(R k) per family refresh for linear-Gaussian families, not O(N)), and selecting its top K
  costs O(R).
* Rankings live in one byte-bounded cache shared by the families (:class:`RankCache`,
  :data:`RANK_BYTES`); a ranking it dropped is recomputed from the model's sufficient statistics
  when needed again, to the same bits, so the search does exactly what it did with every ranking
  kept.
* Exact gains (:class:`Gains`) are a dense N-vector per family when N is at most
  :data:`DENSE_GAINS_VARS`, and above it a dict of the few candidates a family scored (dense again
  once it holds more than N / 16 of them), not N.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from ..cpd.base import FamilyModel, Parents

__all__ = ["FamilyEntry", "Gains", "RowGains", "RankCache", "RANK_BYTES", "DENSE_GAINS_VARS", "rank_ahead"]

#: memory budget of the cached C1/C2 rankings of all families together (bytes)
RANK_BYTES = 128 * 2**20
#: exact gains are dense N-vectors up to this many variables (2.4 x 8 N^2 bytes over N families:
#: 80 MB at N = 2048), a dict of the candidates scored above
DENSE_GAINS_VARS = 2048


class Gains:
    """Exact log-likelihood gains of one family's candidates, by variable index (NaN: not yet
    computed). Indexing with an int gives a float, with an index array an array.

    Kept as a dense N-vector when ``dense``; otherwise as a dict of the candidates scored, which
    turns into the dense vector once it holds more than N / 16 of them (greedy scores them all).
    """

    __slots__ = ("_dense", "_map", "_n")

    def __init__(self, n_vars: int, dense: bool) -> None:
        self._n = n_vars
        self._dense = np.full(n_vars, np.nan) if dense else None
        self._map: dict[int, float] = {}

    def __getitem__(self, idx):
        if self._dense is not None:
            return self._dense[idx]
        if np.ndim(idx) == 0:
            return self._map.get(int(idx), np.nan)
        q = np.asarray(idx)
        keys = (np.flatnonzero(q) if q.dtype == bool else q).tolist()
        get = self._map.get
        return np.fromiter((get(i, np.nan) for i in keys), dtype=float, count=len(keys))

    def __setitem__(self, idx, values) -> None:
        if self._dense is None:
            q = np.asarray(idx)
            keys = (np.flatnonzero(q) if q.dtype == bool else np.atleast_1d(q)).tolist()
            if 16 * (len(self._map) + len(keys)) <= self._n:
                vals = np.broadcast_to(np.asarray(values, dtype=float), (len(keys),)).tolist()
                self._map.update(zip(keys, vals, strict=True))
                return
            self._dense = np.full(self._n, np.nan)  # many scored: a dense vector is no larger
            if self._map:
                self._dense[list(self._map)] = list(self._map.values())
            self._map = {}
        self._dense[idx] = values

    def carried(self, changed: set[int]) -> Gains:
        """A copy without the gains of the candidates in ``changed`` (NaN there)."""
        out = Gains(self._n, False)
        if self._dense is not None:
            out._dense = self._dense.copy()
            out._dense[list(changed)] = np.nan
        elif changed.isdisjoint(self._map):
            out._map = dict(self._map)
        else:
            out._map = {i: v for i, v in self._map.items() if i not in changed}
        return out


class RowGains:
    """One :class:`Gains` per current parent (Replace gains): ``g[i, idx]``."""

    __slots__ = ("rows",)

    def __init__(self, n_rows: int, n_vars: int, dense: bool) -> None:
        self.rows = [Gains(n_vars, dense) for _ in range(n_rows)]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key):
        i, idx = key
        return self.rows[i][idx]

    def __setitem__(self, key, values) -> None:
        i, idx = key
        self.rows[i][idx] = values


class RankCache:
    """The families' C1/C2 rankings, least recently used dropped first beyond ``budget`` bytes."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = int(RANK_BYTES if budget is None else budget)
        self.nbytes = 0
        self._items: OrderedDict = OrderedDict()

    def peek(self, key) -> tuple | None:
        """The cached ranking of ``key``, or None (its age unchanged)."""
        return self._items.get(key)

    def get(self, key, compute: Callable[[], tuple]) -> tuple:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
            return item
        return self.put(key, compute())

    def put(self, key, item: tuple) -> tuple:
        """Cache ``item`` (a tuple of arrays) as the ranking of ``key``."""
        if key in self._items:
            self.nbytes -= sum(a.nbytes for a in self._items.pop(key))
        self._items[key] = item
        self.nbytes += sum(a.nbytes for a in item)
        while self.nbytes > self.budget and len(self._items) > 1:
            _, old = self._items.popitem(last=False)
            self.nbytes -= sum(a.nbytes for a in old)
        return item


def _on_cols(arrays: tuple, cols: np.ndarray) -> tuple:
    return tuple(a[..., cols] for a in arrays)


class FamilyEntry:
    """Ranking and exact gains of one family (child, parent set).

    ``measures()`` gives (add C1, add C2, replace C1, replace C2) over the candidate columns
    ``cols`` (all variables when None): shapes (C,) and (k, C), the Def 4.1 profiles' measures;
    ``add_c1``/``add_c2``/``rep_c1``/``rep_c2`` give the same over all N variables (NaN outside
    the candidates; for inspection). ``add_exact``/``rep_exact`` hold exact log-likelihood gains by
    variable index once computed (NaN before); ``del_dll`` the exact change of deleting each parent.
    """

    __slots__ = ("child", "parents", "cols", "n_vars", "_model", "_cache", "add_exact", "rep_exact", "del_dll", "_base")

    def __init__(
        self,
        model: FamilyModel,
        child: int,
        parents: Parents,
        *,
        cols: np.ndarray | None = None,
        cache: RankCache | None = None,
    ) -> None:
        self.child, self.parents, self.cols = child, parents, cols
        self._model = model
        self._cache = RankCache() if cache is None else cache
        n = self.n_vars = model.n_vars
        dense = n <= DENSE_GAINS_VARS
        self.add_exact = Gains(n, dense)
        self.rep_exact = RowGains(len(parents), n, dense)
        self.del_dll = model.delete_gains(child, parents)
        self._base: tuple | None = None  # a carried ranking and the positions to recompute

    @classmethod
    def carried(
        cls, old: FamilyEntry, model: FamilyModel, cache: RankCache, changed: set[int], at: np.ndarray
    ) -> FamilyEntry:
        """``old``'s entry on a ``model`` whose statistics equal its own except in the variables
        ``changed`` (at positions ``at`` among the candidate columns), none of them this family's
        child or parents: the fit and deletions are the same, and so are the exact gains of the
        other candidates; the ranking is ``old``'s with the positions ``at`` recomputed when first
        needed (the same bits as a fresh ranking; the model needs ``similarities``). Structural
        EM: the hidden columns change between M-steps, not the rest (:mod:`engine.search.carry`)."""
        e = cls.__new__(cls)
        e.child, e.parents, e.cols, e.n_vars = old.child, old.parents, old.cols, old.n_vars
        e._model, e._cache, e.del_dll = model, cache, old.del_dll
        e.add_exact = old.add_exact.carried(changed)
        e.rep_exact = RowGains(0, old.n_vars, False)
        e.rep_exact.rows = [g.carried(changed) for g in old.rep_exact.rows]
        ranking = old._cache.peek((old.child, old.parents))
        if ranking is not None:
            e._base = (ranking, at)
        elif old._base is not None:  # never ranked there: its own base, changed in both steps
            e._base = (old._base[0], np.union1d(old._base[1], at))
        else:
            e._base = None
        return e

    def _compute(self) -> tuple:
        m, c, p, cols = self._model, self.child, self.parents, self.cols
        if self._base is not None:  # a carried ranking: only the changed candidates' positions
            ranking, at = self._base
            self._base = None
            if not at.size:
                return ranking
            ranking = tuple(a.copy() for a in ranking)
            for a, f in zip(ranking, m.similarities(c, p, cols, at), strict=True):
                a[..., at] = f
            return ranking
        if hasattr(m, "similarities"):  # linear-Gaussian: both measures with y.z formed once
            return m.similarities(c, p, cols)
        if cols is None:
            return (*m.add_similarity(c, p), *m.replace_similarity(c, p))
        if getattr(m, "ranks_columns", False):  # O(R k) from the model's N x R block
            return (*m.add_similarity(c, p, cols=cols), *m.replace_similarity(c, p, cols=cols))
        return _on_cols((*m.add_similarity(c, p), *m.replace_similarity(c, p)), cols)

    def rank_job(self) -> tuple[bool, np.ndarray | None]:
        """What :meth:`measures` would compute now: (False, None) when nothing (its ranking is cached, or
        carried with no position changed), else (True, the positions among the columns, None: all)."""
        if self._cache.peek((self.child, self.parents)) is not None:
            return False, None
        if self._base is not None:
            return bool(self._base[1].size), self._base[1]
        return True, None

    def put_ranking(self, fresh: tuple) -> None:
        """Cache the ranking :meth:`measures` would compute, given its model's ``similarities`` at the
        :meth:`rank_job` positions (:func:`rank_ahead`)."""
        if self._base is not None:  # as _compute: the carried ranking with those positions replaced
            ranking, at = self._base
            self._base = None
            ranking = tuple(a.copy() for a in ranking)
            for a, f in zip(ranking, fresh, strict=True):
                a[..., at] = f
            fresh = ranking
        self._cache.put((self.child, self.parents), fresh)

    def measures(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(add C1, add C2, replace C1, replace C2) over the candidate columns."""
        return self._cache.get((self.child, self.parents), self._compute)

    def pos(self, z: int) -> int:
        """Position of variable ``z`` among the candidate columns."""
        return z if self.cols is None else int(np.searchsorted(self.cols, z))

    def _full(self, a: np.ndarray) -> np.ndarray:
        if self.cols is None:
            return a
        out = np.full(a.shape[:-1] + (self.n_vars,), np.nan)
        out[..., self.cols] = a
        return out

    add_c1 = property(lambda self: self._full(self.measures()[0]), doc="C1 of adding each variable, (N,).")
    add_c2 = property(lambda self: self._full(self.measures()[1]), doc="C2 of adding each variable, (N,).")
    rep_c1 = property(lambda self: self._full(self.measures()[2]), doc="C1 of each replacement, (k, N).")
    rep_c2 = property(lambda self: self._full(self.measures()[3]), doc="C2 of each replacement, (k, N).")


def rank_ahead(model: FamilyModel, entries: list[FamilyEntry], cols: np.ndarray | None) -> int:
    """Rank in one batch the families of ``entries`` whose :meth:`FamilyEntry.measures` would compute a
    ranking (linear-Gaussian models: :func:`engine.cpd.linear_rank.similarities_many`, the same bits as
    one family at a time); the rest are left to be ranked when asked. Skipped (0) when the batch would
    not fit in half the rank cache's budget (its first rankings would be dropped before use). Returns
    how many families were ranked."""
    from ..cpd.linear import LinearGaussianFamilies
    from ..cpd.linear_rank import similarities_many

    if type(model) is not LinearGaussianFamilies or not entries:
        return 0
    jobs, ats = [], []
    size = 0
    width = model.n_vars if cols is None else cols.size
    for e in entries:
        need, at = e.rank_job()
        if need:
            jobs.append(e)
            ats.append(at)
            size += 16 * (1 + len(e.parents)) * (width if at is None else at.size)
    if not jobs or size > entries[0]._cache.budget // 2:
        return 0
    fresh = similarities_many(model, [(e.child, e.parents) for e in jobs], cols, ats)
    for e, f in zip(jobs, fresh, strict=True):
        e.put_ranking(f)
    return len(jobs)
