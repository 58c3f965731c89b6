"""Growing every pruned semi-clique of a proposal round at once (#22: the Hidden page's Propose at
2,504 genes x 172 tumours with a TF list; benchmarks/RESULTS.md "Propose on a wide tumour table").

A candidate set is scored on its members' residuals with the inside edges removed, by the top
eigenpair of their cosines (JMLR 2007 section 5, eq. 11-13) and the one-factor fit
(:func:`~.factor.factor_fit`); :func:`~.candidates.grow` grows a pruned semi-clique (thesis ch. 4)
by the neighbours its factor explains, scores the grown set and prunes it (the weakest member
dropped while its loading is below ``MIN_LOADING``, the factor refitted per drop). One seed after
another, the factor's EM (up to 60 iterations of a dozen numpy calls on 25-50 members) ran once per
scored set and once per drop: a fifth of the Propose on that table, in Python overhead.

:func:`grow_many` runs :func:`~.candidates.grow`'s rounds for all seeds in step: each round's
distinct states are screened (:func:`~.prune.neighbour_screen`, as ``grow`` does), the new grown
sets are scored together and pruned together (each set's drops in its own order, one drop per set
per step), and every batch of factor fits is one call of :func:`~.seed_batch.factor_fit_batch` on
the cosines padded to the batch's largest set (pads: unit diagonal, zero loadings, which stay zero;
each set stops at the iteration where it stops alone). A state shared by seeds is grown once, as
``grow``'s memo does one seed after another. The same sets as ``grow`` with one memo for the round,
estimates to rounding (the sums run in another order): ``tests/engine/test_hidden_propose_speed.py``.
"""

from __future__ import annotations

import math

import numpy as np

from .parts import candidate_parts, from_parts
from .proposals import score_cluster
from .prune import MemberResiduals, neighbour_screen, neighbours, parent_matrix
from .seed_batch import factor_fit_batch

__all__ = ["factor_fits", "grow_many"]


def factor_fits(cosines: list[np.ndarray], starts: list[np.ndarray], n_samples: int) -> tuple[np.ndarray, list]:
    """:func:`~.factor.factor_fit` of each (cosines, start) pair, in one padded batch: the gains
    and each set's loadings (its own length)."""
    size = max(c.shape[0] for c in cosines)
    r = np.zeros((len(cosines), size, size))
    r[:, np.arange(size), np.arange(size)] = 1.0
    a = np.zeros((len(cosines), size))
    for b, (c, s) in enumerate(zip(cosines, starts, strict=True)):
        r[b, : c.shape[0], : c.shape[0]] = c
        a[b, : s.size] = s
    gains, loads = factor_fit_batch(r, n_samples, a)
    return gains, [loads[b, : c.shape[0]].copy() for b, c in enumerate(cosines)]


def _score_many(sets: list[np.ndarray], model, parents, scorer, xc: np.ndarray) -> list:
    """:func:`~.candidates.score_candidate` of each set, the factor fits in one batch."""
    parts = [candidate_parts(model, parents, s, scorer, xc) for s in sets]
    gains, loads = factor_fits([p.cos for p in parts], [p.start for p in parts], xc.shape[0])
    return [from_parts(p, float(g), a) for p, g, a in zip(parts, gains, loads, strict=True)]


def _prune_many(scored: list, model, parents, scorer, xc: np.ndarray, min_size: int, min_loading: float) -> list:
    """:func:`~.candidates.prune` of each scored set: every set drops its weakest member (its own
    :class:`~.prune.MemberResiduals`) while below ``MIN_LOADING``, the factors of one step refitted
    in one batch; the sets that dropped any are scored again together."""
    m = xc.shape[0]
    loads = [cs.factor_loadings for cs in scored]
    res: list[MemberResiduals | None] = [None] * len(scored)
    live = list(range(len(scored)))
    while live:
        step, cosines, starts = [], [], []
        for b in live:
            if (scored[b].members.size if res[b] is None else res[b].size) <= min_size:
                continue
            j = int(np.argmin(np.abs(loads[b])))
            if abs(loads[b][j]) >= min_loading:
                continue
            res[b] = res[b] or MemberResiduals(model, parents, scored[b].members)
            cos = res[b].drop(j)
            lam, vec, _ = score_cluster(cos, m)
            step.append(b)
            cosines.append(cos)
            starts.append(vec * math.sqrt(lam / m))
        if step:
            for b, a in zip(step, factor_fits(cosines, starts, m)[1], strict=True):
                loads[b] = a
        live = step
    out = list(scored)
    again = [b for b, r in enumerate(res) if r is not None]
    if again:
        for b, cs in zip(again, _score_many([res[b].members for b in again], model, parents, scorer, xc), strict=True):
            out[b] = cs
    return out


def _grown(
    cs, model, pmat, xc: np.ndarray, adj, allowed: np.ndarray, cap: int, screen: float
) -> tuple[int, ...] | None:
    """One round of :func:`~.candidates.grow` up to the grown set (sorted members), or None where
    ``grow`` stops (no neighbour, the cap reached, or no neighbour passing the screen)."""
    inside = np.zeros(adj.shape[0], dtype=bool)
    inside[cs.members] = True
    near = np.flatnonzero(neighbours(adj, cs.members) & ~inside & allowed)
    if near.size == 0 or cs.members.size >= cap:
        return None
    z = cs.profile - cs.profile.mean()
    z = z / max(float(np.linalg.norm(z)), 1e-300)
    corr = neighbour_screen(model, pmat, xc, near, inside, z)
    join = near[corr >= screen]
    if join.size == 0:
        return None
    join = join[np.argsort(-corr[corr >= screen])][: cap - cs.members.size]
    return tuple(np.sort(np.concatenate([cs.members, join])).tolist())


def grow_many(
    seeds: list,
    model,
    parents,
    scorer,
    xc: np.ndarray,
    adj,
    allowed: np.ndarray,
    min_size: int = 3,
    max_size: int | None = None,
    pmat=None,
    memo: dict | None = None,
    *,
    rules: tuple[float, float, int],
) -> list:
    """:func:`~.candidates.grow` of each of ``seeds`` (pruned candidate scores) with one shared
    ``memo`` (the same keys as ``grow``'s, filled as one seed after another fills it), round by round
    for all seeds at once (see the module docstring); ``rules``: :mod:`.candidates`'s ``MIN_LOADING``,
    ``GROW_SCREEN`` and ``GROW_ROUNDS``; other arguments as ``grow``'s."""
    min_loading, screen, rounds = rules
    cap = max_size or adj.shape[0]
    pmat = parent_matrix(parents) if pmat is None else pmat
    memo = {} if memo is None else memo
    state, live, starts = list(seeds), list(range(len(seeds))), [[] for _ in seeds]
    for r in range(rounds):
        groups: dict[tuple[int, ...], list[int]] = {}
        for k in live:
            groups.setdefault(tuple(state[k].members.tolist()), []).append(k)
        todo: dict[tuple[int, ...], tuple[int, ...]] = {}
        for key, ks in groups.items():
            if ("round", r, key) in memo:  # grown before this call: its final set
                for k in ks:
                    state[k] = memo["round", r, key]
                continue
            for k in ks:
                starts[k].append(("round", r, key))
            if (g := _grown(state[ks[0]], model, pmat, xc, adj, allowed, cap, screen)) is not None:
                todo[key] = g
        new = [g for g in dict.fromkeys(todo.values()) if ("pruned", g) not in memo]
        if new:  # each new grown set scored and pruned once, all together
            scored = _score_many([np.array(g, dtype=np.intp) for g in new], model, parents, scorer, xc)
            for g, cs in zip(new, _prune_many(scored, model, parents, scorer, xc, min_size, min_loading), strict=True):
                memo["pruned", g] = cs
        live = []
        for key, g in todo.items():
            if memo["pruned", g].members.tolist() != list(key):  # else grow stops: the state is the set
                for k in groups[key]:
                    state[k] = memo["pruned", g]
                live += groups[key]
    for k, cs in enumerate(state):
        memo.update(dict.fromkeys(starts[k], cs))
    return state
