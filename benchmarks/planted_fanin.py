"""The ``fanin`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the eighth #22 session (seeds 1400-1409, ``planted_general.generate_all("fanin",
s)`` with s = 0..9), written before anything of that session was tuned and run only once, on its
final code; seeds 1410 and up are free for smoke tests. It does not share the other generators'
sampling code. What it stresses: a hidden root that *competes with observed parents* of comparable
strength in every one of its children (in the other generators a planted child has 0-2 weaker
observed parents or none), in a DAG whose every variable draws its number of parents (a fixed
in-degree DAG, not Erdos-Renyi, preferential attachment, layers, modules or a ring), with skewed
noise.

* N drawn per seed in 30..60 observed variables in a random topological order. Each variable
  after the first draws its in-degree from {0, 1, 2, 3} with probabilities (0.3, 0.35, 0.25, 0.1)
  (at most its number of predecessors) and takes that many parents uniformly among its
  predecessors; weight +-U(0.4, 1.0) on each *standardized* parent, times the variable's noise sd.
* Noise sd log-uniform in [0.5, 1.5] per variable; its kind drawn per variable: Gaussian (50 %),
  centred gamma with shape U(1, 3) (25 %), centred log-normal with sigma U(0.5, 0.8) (25 %), each
  skewed kind with a random sign (left or right tail), scaled to that sd.
* One or two hidden roots (two on half of the seeds, drawn), each h ~ N(0, 1), with disjoint child
  sets of 5-15 each (the second at most what is left), drawn among the variables from the fifth
  in the order on. Each child's parents are **re-drawn**: 1-3 observed co-parents among its
  predecessors that are not children of the same root, each at weight +-U(0.7, 2.0) on the
  standardized co-parent times the child's noise sd, and h at load c_v = +-U(0.7, 2.0) times the
  child's noise sd: the h term and each observed parent's term are of the same size. h is added
  during ancestral sampling, so it reaches the children's descendants as any parent's effect does.
* M drawn per seed in 100..500. Columns scaled to unit variance.

Truth: each root's planted child set and its h. Recovered (``bench_regulators.general``): per
planted root, the kept H that tracks its h best must reach children precision and recall >= 0.8
against the root's planted children and |corr(H, h)| >= 0.9; a seed counts as recovered when every
planted root is (all have >= 5 children); the per-root count is printed.

``fanin-null`` (``null=True``): the same DAG, weights and noise draws without the hidden roots (the
children keep their re-drawn observed parents); any kept H is a false regulator.

Run once, on the final code:
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators.py --skip-timing --only fanin --hold-out
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators.py --skip-timing --only fanin-null --hold-out
"""

from __future__ import annotations

import numpy as np

SEED0 = 1400  # the first hold-out seed (seed index 0)
N_RANGE = (30, 60)
M_RANGE = (100, 500)
IN_DEGREE, P_IN_DEGREE = (0, 1, 2, 3), (0.3, 0.35, 0.25, 0.1)
WEIGHTS = (0.4, 1.0)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 1.5)
NOISE_KINDS, P_NOISE = ("gaussian", "gamma", "lognormal"), (0.5, 0.25, 0.25)
GAMMA_SHAPE, LOGNORMAL_SIGMA = (1.0, 3.0), (0.5, 0.8)
KIDS = (5, 15)
LOADS = (0.7, 2.0)  # h's load and each co-parent's weight of a planted child (comparable strength)
CO_PARENTS = (1, 3)
FIRST_CHILD = 4  # children are drawn from this position in the order on (co-parents exist)
P_TWO_ROOTS = 0.5


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def _network(seed: int) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], np.ndarray]:
    """The order, the weight matrix w[parent, child] (on standardized parents, in units of the
    child's noise sd), the roots' child sets and loads c[root, variable] of seed index ``seed``."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    order = rng.permutation(n)
    w = np.zeros((n, n))
    for i in range(1, n):
        k = min(i, int(rng.choice(IN_DEGREE, p=P_IN_DEGREE)))
        for u in rng.choice(order[:i], size=k, replace=False):
            w[u, order[i]] = rng.uniform(*WEIGHTS) * rng.choice([-1.0, 1.0])
    n_roots = 2 if rng.random() < P_TWO_ROOTS else 1
    free = list(order[FIRST_CHILD:])
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    sets, c = [], np.zeros((n_roots, n))
    for j in range(n_roots):
        n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), len(free))
        kids = rng.choice(free, size=n_kids, replace=False)
        free = [v for v in free if v not in set(kids.tolist())]
        for v in kids:
            w[:, v] = 0.0
            earlier = [u for u in order[: rank[v]] if u not in set(kids.tolist())]
            k = min(len(earlier), int(rng.integers(CO_PARENTS[0], CO_PARENTS[1] + 1)))
            for u in rng.choice(earlier, size=k, replace=False):
                w[u, v] = rng.uniform(*LOADS) * rng.choice([-1.0, 1.0])
            c[j, v] = rng.uniform(*LOADS) * rng.choice([-1.0, 1.0])
        sets.append(np.sort(kids))
    return order, w, sets, c


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the weight matrix w[parent, child] of seed index ``seed``."""
    order, w, _, _ = _network(seed)
    return order, w


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, w = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def noise_kinds(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per variable of seed index ``seed``: its noise sd and its noise kind (``NOISE_KINDS``)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 5])
    sd = np.exp(rng.uniform(*np.log(NOISE_SD), size=n))
    return sd, rng.choice(np.array(NOISE_KINDS), size=n, p=P_NOISE)


def _noise(rng: np.random.Generator, kind: str, sd: float, m: int) -> np.ndarray:
    """``m`` draws of one variable's noise: mean 0, sd ``sd``, skewed kinds with a random tail."""
    if kind == "gaussian":
        return sd * rng.normal(size=m)
    if kind == "gamma":
        shape = rng.uniform(*GAMMA_SHAPE)
        e = (rng.gamma(shape, 1.0, size=m) - shape) / np.sqrt(shape)
    else:
        s = rng.uniform(*LOGNORMAL_SIGMA)
        mean, var = np.exp(s * s / 2), (np.exp(s * s) - 1) * np.exp(s * s)
        e = (rng.lognormal(0.0, s, size=m) - mean) / np.sqrt(var)
    return sd * rng.choice([-1.0, 1.0]) * e


def _z(v: np.ndarray) -> np.ndarray:
    sd = v.std()
    return (v - v.mean()) / sd if sd > 0 else v * 0.0


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, and per planted root its children and h (empty lists
    for ``null``: the same network and noise without the roots). ``seed`` is the index (0 =
    hold-out seed 1400)."""
    order, w, sets, c = _network(seed)
    n = len(order)
    rng = np.random.default_rng([SEED0 + seed, 3])
    m = int(rng.integers(M_RANGE[0], M_RANGE[1] + 1))
    hs = [rng.normal(size=m) for _ in sets]
    sd, kinds = noise_kinds(seed)
    erng = np.random.default_rng([SEED0 + seed, 4])  # the noise: the same with and without the roots
    x = np.zeros((m, n))
    for v in order:
        e = _noise(erng, str(kinds[v]), sd[v], m)
        d = sum((w[u, v] * sd[v] * _z(x[:, u]) for u in np.flatnonzero(w[:, v])), np.zeros(m))
        if not null:
            d = d + sum(c[j, v] * sd[v] * hs[j] for j in range(len(hs)))
        x[:, v] = d + e
    x = x / x.std(axis=0)
    if null:
        return x, [], []
    return x, [{int(v) for v in kids} for kids in sets], hs
