"""The ``mixed`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the sixth #22 session (seeds 1000-1009, ``planted_general.generate_all("mixed",
s)`` with s = 0..9), written before anything of that session was tuned and run only once, on its
final code; seeds 1010 and up are free for smoke tests. It does not share the other generators'
sampling code: what it varies is what a real network mixes within one table.

* N drawn per seed in 25..60 observed variables; a random DAG over a random order whose edge
  probability is drawn per seed in [0.04, 0.12] (sparse and denser networks); weights
  +-U(0.3, 1.1); noise sd log-uniform in [0.6, 1.6] per variable.
* Responses mixed per variable (a child of at least one observed parent): about 60 % linear
  (the weighted sum d of its parents), 15 % with a *quadratic* term in one observed parent p
  (d + b sd(d) (z_p^2 - 1) / sqrt(2), b = +-U(0.3, 0.7), z_p the standardized parent), 15 %
  *piecewise linear* in their whole drive (d + b (d - t)_+ , t the U(0.3, 0.7) quantile of d,
  b = +-U(0.4, 0.8): the slope changes at the knot and stays positive), and 10 % *heteroscedastic*
  (linear, noise sd growing with one observed parent p: e x exp(g z_p) / rms, g = U(0.3, 0.7)).
  Roots are noise only.
* Hidden roots h ~ N(0, 1), added during ancestral sampling as parents of their children: child v
  gets ``c_v * sd(d + e before the h term) * h`` inside its drive (so through its response) with
  c_v = +-U(0.6, 1.6). On half the seeds (drawn) there are *two* roots: h1 with 4-20 children
  (at most N // 2), h2 with 3-8, and with probability one half h2 shares one child with h1; on
  the others one root with 4-20 children.
* M drawn per seed from {60, 120, 250, 500}. Columns scaled to unit variance.

Truth: each root's planted child set and its h. Recovered (as for the other generators, in
``bench_regulators.general``): per planted root, the kept H that tracks its h best must reach
children precision and recall >= 0.8 against the root's planted children and |corr(H, h)| >= 0.9.
**A seed counts as recovered when every planted root with >= 4 children is recovered** (a second
root with 3 children is reported, not required; two roots may be matched by the same H only if
that H passes both, which a shared child set cannot).

``mixed-null`` (``null=True``): the same DAG, responses and noise draws without the hidden roots;
any kept H is a false regulator.
"""

from __future__ import annotations

import numpy as np

SEED0 = 1000  # the first hold-out seed (seed index 0)
M_CHOICES = (60, 120, 250, 500)
N_RANGE = (25, 60)
P_RANGE = (0.04, 0.12)
WEIGHTS = (0.3, 1.1)
NOISE_SD = (0.6, 1.6)
LOADS = (0.6, 1.6)
KIDS_1, KIDS_2 = (4, 20), (3, 8)
#: response kinds and their probabilities (for a variable with at least one observed parent)
KINDS = ("linear", "quadratic", "hinge", "hetero")
P_KINDS = (0.6, 0.15, 0.15, 0.1)
MIN_REQUIRED = 4  # a planted root counts towards a seed's recovery when it has at least this many children


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the weight matrix w[parent, child] of seed index ``seed``."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    p = rng.uniform(*P_RANGE)
    order = rng.permutation(n)
    w = np.zeros((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < p:
                w[order[a], order[b]] = rng.uniform(*WEIGHTS) * rng.choice([-1.0, 1.0])
    return order, w


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, w = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def _roots(rng: np.random.Generator, n: int, m: int) -> tuple[list[np.ndarray], np.ndarray, list[set[int]]]:
    """The hidden roots' h (each (m,)), their loads c[root, variable] and child sets."""
    two = rng.random() < 0.5
    n1 = int(rng.integers(KIDS_1[0], min(KIDS_1[1], n // 2) + 1))
    kids1 = rng.choice(n, size=n1, replace=False)
    sets = [kids1]
    if two:
        n2 = int(rng.integers(KIDS_2[0], KIDS_2[1] + 1))
        share = rng.random() < 0.5
        free = np.setdiff1d(np.arange(n), kids1)
        kids2 = rng.choice(free, size=n2 - share, replace=False)
        if share:
            kids2 = np.append(kids2, rng.choice(kids1))
        sets.append(kids2)
    c = np.zeros((len(sets), n))
    for j, kids in enumerate(sets):
        c[j, kids] = rng.choice([-1.0, 1.0], size=len(kids)) * rng.uniform(*LOADS, size=len(kids))
    hs = [rng.normal(size=m) for _ in sets]
    return hs, c, [{int(v) for v in kids} for kids in sets]


def _z(v: np.ndarray) -> np.ndarray:
    sd = v.std()
    return (v - v.mean()) / sd if sd > 0 else v * 0.0


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, and per planted root its children and h (empty lists
    for ``null``: the same network, responses and noise without the roots). ``seed`` is the index
    (0 = hold-out seed 1000)."""
    order, w = dag(seed)
    n = len(order)
    rng = np.random.default_rng([SEED0 + seed, 3])
    m = int(rng.choice(M_CHOICES))
    sd = np.exp(rng.uniform(*np.log(NOISE_SD), size=n))
    hs, c, kid_sets = _roots(rng, n, m)
    rrng = np.random.default_rng([SEED0 + seed, 4])  # responses and noise: the same with and without h
    x = np.zeros((m, n))
    for v in order:
        parents = np.flatnonzero(w[:, v])
        kind = rrng.choice(KINDS, p=P_KINDS) if len(parents) else "linear"
        p = int(rrng.choice(parents)) if len(parents) else -1
        b, g, q, slope = (rrng.uniform(*r) for r in ((0.3, 0.7), (0.3, 0.7), (0.3, 0.7), (0.4, 0.8)))
        sign = rrng.choice([-1.0, 1.0])
        e = sd[v] * rrng.normal(size=m)
        d = x @ w[:, v]
        if kind == "quadratic":
            d = d + sign * b * d.std() * (_z(x[:, p]) ** 2 - 1.0) / np.sqrt(2.0)
        elif kind == "hetero":
            grow = np.exp(g * _z(x[:, p]))
            e = e * grow / np.sqrt(np.mean(grow**2))
        if not null:
            scale = (d + e).std()
            d = d + sum(c[j, v] * scale * hs[j] for j in range(len(hs)))
        if kind == "hinge":
            knot = np.quantile(d, q)
            d = d + sign * slope * np.maximum(d - knot, 0.0)
        x[:, v] = d + e
    x = x / x.std(axis=0)
    if null:
        return x, [], []
    return x, kid_sets, hs
