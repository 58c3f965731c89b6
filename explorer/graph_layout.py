"""Fixed node positions for the network drawings, computed once per data set.

Pure numpy, no drawing: :func:`data_layout` places strongly correlated variables close
(Fruchterman-Reingold, :func:`spring_layout`), :func:`separate` keeps label boxes apart and
:func:`complete_positions` places variables the layout did not know (hidden variables added by a
search). :mod:`explorer.network_view` draws with these positions, so nodes do not move between
steps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

__all__ = ["MAX_LAYOUT_NODES", "spring_layout", "data_layout", "separate", "complete_positions"]

#: node spacing of :func:`spring_layout`'s default size: the half-width is
#: ``SPACING_PER_ROOT * sqrt(n) + 40`` pixels, so n nodes get about (90 px)^2 each, room for a
#: label box once :func:`separate` has pushed close pairs apart; a 50-node neighbourhood fits the
#: Search page's 470-px frame at a zoom near 0.45 (at 70 sqrt(n) about 0.36)
SPACING_PER_ROOT = 38.0
#: the most nodes :func:`spring_layout` and :func:`data_layout` lay out (a few 10 MB and about a
#: second at this size; the n x n x 2 arrays grow quadratically beyond it)
MAX_LAYOUT_NODES = 400


def _check_size(n: int) -> None:
    if n > MAX_LAYOUT_NODES:
        raise ValueError(
            f"{n} nodes are too many to lay out (at most {MAX_LAYOUT_NODES}): draw a sub-network "
            "(explorer.subnetwork) and lay out only the nodes shown"
        )


def spring_layout(
    n: int,
    weights: np.ndarray | None = None,
    *,
    seed: int = 0,
    iterations: int = 150,
    scale: float | None = None,
) -> np.ndarray:
    """Fruchterman-Reingold positions of ``n`` nodes, shape (n, 2), in pixels.

    Parameters
    ----------
    n : int
        Number of nodes.
    weights : ndarray of shape (n, n), optional
        Symmetric non-negative attraction weights (0 = no spring). Without weights the nodes are
        only repelled from each other, which spreads them evenly.
    seed : int
        Seeds the starting positions; the result is deterministic.
    iterations : int
        Number of cooling steps.
    scale : float, optional
        Half-width (and half-height) of the drawing in pixels; default grows with ``sqrt(n)``
        (:data:`SPACING_PER_ROOT`) so that node spacing stays about the same whatever the size.

    Notes
    -----
    Forces: repulsion ``k^2 / d`` between every pair, attraction ``w d^2 / k`` along springs,
    with ``k = sqrt(1 / n)``; displacement capped by a temperature that cools linearly
    (Fruchterman & Reingold, Software: Practice and Experience 21:1129-1164, 1991).
    """
    _check_size(n)
    if n <= 0:
        return np.zeros((0, 2))
    scale = float(scale if scale is not None else SPACING_PER_ROOT * math.sqrt(n) + 40.0)
    if n == 1:
        return np.zeros((1, 2))
    rng = np.random.default_rng(seed)
    angle = 2 * np.pi * np.arange(n) / n
    pos = np.c_[np.cos(angle), np.sin(angle)] * 0.5 + rng.uniform(-0.05, 0.05, (n, 2))
    w = np.zeros((n, n)) if weights is None else np.asarray(weights, dtype=float)
    k = math.sqrt(1.0 / n)
    t = 0.1
    dt = t / (iterations + 1)
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta**2).sum(axis=-1))
        np.clip(dist, 0.01, None, out=dist)
        force = k * k / dist**2 - w * dist / k
        np.fill_diagonal(force, 0.0)
        disp = (delta * force[:, :, None]).sum(axis=1)
        length = np.sqrt((disp**2).sum(axis=1))
        np.clip(length, 0.01, None, out=length)
        pos += disp * (np.minimum(length, t) / length)[:, None]
        t -= dt
    pos -= pos.mean(axis=0)
    # turn the longest direction horizontal and stretch the other one so that chain-like graphs
    # fill the drawing area instead of a diagonal strip; square, as the frames are about square
    # (470 x 560 px beside the score trace, 900 x 860 in the large view)
    _, _, vt = np.linalg.svd(pos, full_matrices=False)
    pos = pos @ vt.T
    for axis, share in ((0, 1.0), (1, 1.15)):
        extent = np.abs(pos[:, axis]).max()
        if extent > 0:
            pos[:, axis] *= share * scale / extent
    return pos


def data_layout(values: np.ndarray, *, n_neighbors: int = 2, seed: int = 0) -> np.ndarray:
    """Positions for the variables of a data set: strongly correlated variables sit close.

    Each variable gets a spring to its ``n_neighbors`` most correlated variables (weight
    ``|corr|``), then :func:`spring_layout`. Computed once per data set; the drawing keeps these
    positions at every step, so only edges change when the search moves.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_vars)
        At most :data:`MAX_LAYOUT_NODES` variables (ValueError otherwise): pass the columns of
        the variables to draw.
    """
    x = np.asarray(values, dtype=float)
    n = x.shape[1]
    _check_size(n)
    x = np.nan_to_num(x)
    if n < 3 or x.shape[0] < 3:
        return spring_layout(n, seed=seed)
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    z = (x - x.mean(axis=0)) / sd
    corr = np.abs(z.T @ z) / x.shape[0]
    np.fill_diagonal(corr, 0.0)
    keep = np.zeros_like(corr, dtype=bool)
    m = min(n_neighbors, n - 1)
    top = np.argpartition(-corr, m - 1, axis=1)[:, :m]
    keep[np.repeat(np.arange(n), m), top.ravel()] = True
    keep |= keep.T
    pos = spring_layout(n, keep.astype(float), seed=seed)
    return separate(pos)


def separate(pos: np.ndarray, min_dist: float = 85.0, iterations: int = 60) -> np.ndarray:
    """Push apart nodes closer than ``min_dist`` pixels (labels are boxes, not points)."""
    pos = np.array(pos, dtype=float)
    n = pos.shape[0]
    if n < 2:
        return pos
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta**2).sum(axis=-1))
        np.fill_diagonal(dist, 2.0 * min_dist)
        close = dist < min_dist
        if not close.any():
            break
        dist = np.where(dist == 0, 1e-3, dist)
        push = np.where(close, (min_dist - dist) / (2 * dist), 0.0)
        pos += (delta * push[:, :, None]).sum(axis=1)
    return pos


def complete_positions(
    names: Sequence[str],
    base: Mapping[str, tuple[float, float]],
    edges: Iterable[tuple[str, str]] = (),
) -> dict[str, tuple[float, float]]:
    """Positions for every name: ``base`` where known; others (e.g. hidden variables added by the
    search) at the centre of their neighbours, or on a ring outside the drawing."""
    out = {n: (float(base[n][0]), float(base[n][1])) for n in names if n in base}
    todo = [n for n in names if n not in out]
    if not todo:
        return out
    nbrs: dict[str, list[str]] = {n: [] for n in todo}
    for p, c in edges:
        if p in nbrs and c in out:
            nbrs[p].append(c)
        if c in nbrs and p in out:
            nbrs[c].append(p)
    pts = np.array(list(out.values())) if out else np.zeros((1, 2))
    radius = float(np.abs(pts).max(initial=100.0)) * 1.15 + 40.0
    for j, n in enumerate(todo):
        if nbrs[n]:
            xy = _free_spot(np.mean([out[m] for m in nbrs[n]], axis=0), np.array(list(out.values())))
        else:
            a = 2 * np.pi * j / len(todo)
            xy = np.array([radius * math.cos(a), radius * math.sin(a)])
        out[n] = (float(xy[0]), float(xy[1]))
    return out


def _free_spot(centre: np.ndarray, taken: np.ndarray, gap: float = 75.0) -> np.ndarray:
    """The point nearest ``centre`` (on rings of 8 directions) at least ``gap`` from every taken
    point, so a hidden node placed among its children does not cover one of them."""
    for r in (0.0, *np.arange(1, 12) * 0.5 * gap):
        for a in np.arange(8) * (np.pi / 4) - np.pi / 2:
            xy = centre + r * np.array([math.cos(a), math.sin(a)])
            if not taken.size or np.min(np.hypot(*(taken - xy).T)) >= gap:
                return xy
            if r == 0.0:
                break
    return centre + np.array([gap, -gap])
