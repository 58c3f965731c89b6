"""The ``roots`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the seventh #22 session (seeds 1200-1209, ``planted_general.generate_all("roots",
s)`` with s = 0..9), written before anything of that session was tuned and run only once, on its
final code; seeds 1210 and up are free for smoke tests. It does not share the other generators'
sampling code. What it stresses: *small* hidden roots (4-9 children) in a network whose skeleton
is small-world (local clusters joined by a few long-range edges), not Erdos-Renyi, preferential
attachment, layers or modules.

* N drawn per seed in 25..45 observed variables placed on a ring (a random permutation gives the
  ring positions). Skeleton: each variable is joined to its ``k`` nearest ring neighbours on each
  side (k drawn in 2..3), each lattice edge kept with probability U(0.45, 0.7) and, when kept,
  rewired with probability U(0.1, 0.3) to a random other variable (Watts-Strogatz). Edges are
  oriented along a random topological order drawn independently of the ring, so parents and
  children of a variable sit in the same ring neighbourhood except for the rewired edges.
  Weights +-U(0.3, 1.0), signs equally likely.
* Noise sd log-uniform in [0.4, 2.0] per variable; about 30 % of the variables (drawn) have
  Laplace noise (heavier tails, scaled to that sd), the others Gaussian. Responses are linear.
* One or two hidden roots (two on half of the seeds, drawn) with disjoint child sets of 4-9 each,
  drawn among the variables with at most two observed parents (so a child has 0-2 observed
  parents besides its root). The first root's children are *local* on half the seeds (drawn
  among the 2 x n_kids candidates nearest a random ring position: children the network's own
  edges also tie together), spread over the ring otherwise; the second root's are spread. Each
  h is N(0, 1), or on 40 % of the roots a standardized log-normal(0, 0.5) (a skewed activity).
  Child v gets ``c_v * sd(d + e before the h term) * h`` with c_v = +-U(0.6, 1.3), signs equally
  likely, the root's loads scaled up together until sum c_v^2 >= 4.5 (a root of 4 children is a
  strong one: without that, the best linear predictor of h from its children's residuals stays
  below |r| 0.9 on some roots, which no method could then recover by the rule below), added
  during ancestral sampling, so h reaches the children's descendants as any parent's effect does.
* M drawn per seed in 80..400. Columns scaled to unit variance.

Truth: each root's planted child set and its h. Recovered (``bench_regulators.general``): per
planted root, the kept H that tracks its h best must reach children precision and recall >= 0.8
against the root's planted children and |corr(H, h)| >= 0.9; a seed counts as recovered when every
planted root is (all have >= 4 children); the per-root count is printed.

``roots-null`` (``null=True``): the same DAG, weights and noise draws without the hidden roots; any
kept H is a false regulator.

Run once, on the final code:
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators.py --skip-timing --only roots --null
"""

from __future__ import annotations

import numpy as np

SEED0 = 1200  # the first hold-out seed (seed index 0)
N_RANGE = (25, 45)
M_RANGE = (80, 400)
RING_K = (2, 3)  # nearest ring neighbours on each side (inclusive)
KEEP = (0.45, 0.7)  # probability a lattice edge is kept, drawn per seed
REWIRE = (0.1, 0.3)  # probability a kept edge is rewired, drawn per seed
WEIGHTS = (0.3, 1.0)
NOISE_SD = (0.4, 2.0)
P_LAPLACE = 0.3
KIDS = (4, 9)
LOADS = (0.6, 1.3)
MIN_LOAD2 = 4.5  # each root's loads are scaled up until their sum of squares reaches this
MAX_OBSERVED_PARENTS = 2  # a planted child has at most this many observed parents
P_TWO_ROOTS, P_LOCAL, P_SKEWED = 0.5, 0.5, 0.4


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def _network(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ring positions (``ring[i]`` = the variable at position i), the topological order and the
    weight matrix w[parent, child] of seed index ``seed``."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    k = int(rng.integers(RING_K[0], RING_K[1] + 1))
    keep, rewire = rng.uniform(*KEEP), rng.uniform(*REWIRE)
    ring = rng.permutation(n)
    order = rng.permutation(n)
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    pairs: set[tuple[int, int]] = set()
    for i in range(n):
        for step in range(1, k + 1):
            if rng.random() >= keep:
                continue
            a, b = int(ring[i]), int(ring[(i + step) % n])
            if rng.random() < rewire:
                b = int(rng.choice(np.setdiff1d(np.arange(n), [a])))
            pairs.add((min(a, b), max(a, b)))
    w = np.zeros((n, n))
    for a, b in sorted(pairs):
        u, v = (a, b) if rank[a] < rank[b] else (b, a)
        w[u, v] = rng.uniform(*WEIGHTS) * rng.choice([-1.0, 1.0])
    return ring, order, w


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the weight matrix w[parent, child] of seed index ``seed``."""
    _, order, w = _network(seed)
    return order, w


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, w = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def _children(rng: np.random.Generator, ring: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
    """The disjoint child sets of the one or two roots (see the module docstring)."""
    n = len(ring)
    free = set(np.flatnonzero((w != 0).sum(axis=0) <= MAX_OBSERVED_PARENTS).tolist())
    n_roots = 2 if rng.random() < P_TWO_ROOTS else 1
    local = rng.random() < P_LOCAL
    pos = np.empty(n, dtype=int)
    pos[ring] = np.arange(n)
    sets = []
    for j in range(n_roots):
        n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), len(free))
        cand = np.array(sorted(free))
        if j == 0 and local:
            centre = int(rng.integers(n))
            dist = np.minimum(np.abs(pos[cand] - centre), n - np.abs(pos[cand] - centre))
            cand = cand[np.argsort(dist, kind="stable")[: 2 * n_kids]]
        kids = rng.choice(cand, size=n_kids, replace=False)
        free -= set(kids.tolist())
        sets.append(kids)
    return sets


def _noise(rng: np.random.Generator, sd: float, laplace: bool, m: int) -> np.ndarray:
    if laplace:  # Laplace(0, b) has sd b sqrt(2)
        return rng.laplace(0.0, sd / np.sqrt(2.0), size=m)
    return sd * rng.normal(size=m)


def _h(rng: np.random.Generator, m: int) -> np.ndarray:
    h = rng.lognormal(0.0, 0.5, size=m) if rng.random() < P_SKEWED else rng.normal(size=m)
    return (h - h.mean()) / h.std()


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, and per planted root its children and h (empty lists
    for ``null``: the same network and noise without the roots). ``seed`` is the index (0 =
    hold-out seed 1200)."""
    ring, order, w = _network(seed)
    n = len(order)
    rng = np.random.default_rng([SEED0 + seed, 3])
    m = int(rng.integers(M_RANGE[0], M_RANGE[1] + 1))
    sd, laplace = noise_kinds(seed)
    sets = _children(rng, ring, w)
    c = np.zeros((len(sets), n))
    for j, kids in enumerate(sets):
        loads = rng.uniform(*LOADS, size=len(kids))
        loads *= max(1.0, np.sqrt(MIN_LOAD2 / np.sum(loads**2)))  # a small root is a strong one
        c[j, kids] = rng.choice([-1.0, 1.0], size=len(kids)) * loads
    hs = [_h(rng, m) for _ in sets]
    erng = np.random.default_rng([SEED0 + seed, 4])  # the noise: the same with and without the roots
    x = np.zeros((m, n))
    for v in order:
        d = x @ w[:, v] + _noise(erng, sd[v], laplace[v], m)
        if not null:
            scale = d.std()
            d = d + sum(c[j, v] * scale * hs[j] for j in range(len(hs)))
        x[:, v] = d
    x = x / x.std(axis=0)
    if null:
        return x, [], []
    return x, [{int(v) for v in kids} for kids in sets], hs


def noise_kinds(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per variable of seed index ``seed``: its noise sd and whether its noise is Laplace."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 5])
    return np.exp(rng.uniform(*np.log(NOISE_SD), size=n)), rng.random(n) < P_LAPLACE
