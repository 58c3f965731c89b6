"""The ``h16g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the sixteenth session (seeds 1600-1609, ``planted_general.generate_all("h16g",
s)`` with s = 0..9), written before anything of that session was tuned and run only once, by the
lead, on its final code; seeds 1620 and up are free for smoke tests and timing. It does not share
the other generators' sampling code. What it stresses that none of the seen ones does:

* **Unstandardised units.** Every seen generator scales its columns to unit variance; a user's
  table is in its instruments' units (a phospho-protein in arbitrary fluorescence units next to a
  metabolite in mM). Each column here is ``offset + scale * x`` with x centred and of unit variance, scale 10^U(-2, 3)
  (five orders of magnitude across one table) and a positive offset of U(2, 20) x scale, as
  concentrations are. The benchmark passes the table unstandardised.
* **Feed-forward loops among a root's children.** The most common motif of real transcription
  networks (h -> a, h -> b and a -> b; coherent or incoherent by the signs): 1 to |children| / 3
  (at least 1) pairs of one root's children are joined by an edge (the earlier in the order the
  parent, weight +-U(0.4, 0.9)), so such a child's h share comes both directly and through
  another child.
* **Two roots sharing children.** On half the seeds (drawn) a second root whose 4-10 children
  include 2-4 of the first root's (``mixed`` shared at most one): those children have two hidden
  parents.
* **Weak and mixed-sign loads** (30 % of the loads U(0.5, 0.8), the others U(0.8, 1.5), signs
  equally likely; a root's loads scaled up together until sum c^2 >= 4.5, as ``roots`` does, so
  a linear summary of its children can track it) and **heavy-tailed noise** per variable
  (Gaussian, Student t with 3-5 degrees of freedom, or Laplace; a third each).

The network: N drawn per seed in 30..55 observed variables in a random order; an Erdos-Renyi DAG
along it with edge probability drawn in [0.04, 0.10], weights +-U(0.4, 1.0) on the *standardized*
parent times the child's noise sd (so a weight means the same in every unit). Noise sd
log-uniform in [0.5, 2.0] per variable. Root 1 (h ~ N(0, 1)) has 6-18 children, root 2 4-10
(2-4 shared with root 1), drawn among the variables from the fourth in the order on. A child v
gets ``c_jv * sd(d_v + e_v) * h_j`` (d_v its observed parents' term, e_v its noise) during
ancestral sampling, so h reaches the children's descendants as any parent's effect does. M drawn
per seed in 50..500.

Truth: each root's planted child set and its h. Recovered (``bench_regulators.general``): per
planted root, the kept H that tracks its h best must reach children precision and recall >= 0.8
against that root's planted children and |corr(H, h)| >= 0.9; a seed is recovered when every root
is (all have >= 4 children).

``h16g-null`` (``null=True``): the same DAG (the feed-forward edges included), units and noise
draws without the hidden roots; any kept H is a false regulator.

Run once, on the final code (about a minute of CPU per seed on this machine):
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators.py --skip-timing --only h16g --hold-out --null
"""

from __future__ import annotations

import numpy as np

SEED0 = 1600  # the first hold-out seed (seed index 0)
N_RANGE = (30, 55)
M_RANGE = (50, 500)
P_RANGE = (0.04, 0.10)  # edge probability, drawn per seed
WEIGHTS = (0.4, 1.0)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 2.0)
NOISE_KINDS = ("gaussian", "student", "laplace")  # equally likely per variable
T_DF = (3, 5)
KIDS_1, KIDS_2, SHARED = (6, 18), (4, 10), (2, 4)
P_TWO_ROOTS = 0.5
FFL_PER = 3  # 1 .. (children // FFL_PER) feed-forward edges among one root's children
FFL_WEIGHTS = (0.4, 0.9)
WEAK, STRONG, P_WEAK = (0.5, 0.8), (0.8, 1.5), 0.3
MIN_LOAD2 = 4.5  # each root's loads are scaled up until their sum of squares reaches this
FIRST_CHILD = 3  # children are drawn from this position in the order on
LOG10_SCALE, OFFSET = (-2.0, 3.0), (2.0, 20.0)


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def _network(seed: int) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], np.ndarray]:
    """The order, the weight matrix w[parent, child] (on standardized parents, in units of the
    child's noise sd; feed-forward edges among a root's children included), the roots' child sets
    and their loads c[root, variable] of seed index ``seed``."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    order = rng.permutation(n)
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    p = rng.uniform(*P_RANGE)
    w = np.zeros((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < p:
                w[order[a], order[b]] = rng.uniform(*WEIGHTS) * rng.choice([-1.0, 1.0])
    free = order[FIRST_CHILD:]
    kids1 = rng.choice(free, size=int(rng.integers(KIDS_1[0], KIDS_1[1] + 1)), replace=False)
    sets = [np.sort(kids1)]
    if rng.random() < P_TWO_ROOTS:
        n2 = int(rng.integers(KIDS_2[0], KIDS_2[1] + 1))
        shared = rng.choice(kids1, size=int(rng.integers(SHARED[0], SHARED[1] + 1)), replace=False)
        own = rng.choice(np.setdiff1d(free, kids1), size=n2 - len(shared), replace=False)
        sets.append(np.sort(np.concatenate([shared, own])))
    c = np.zeros((len(sets), n))
    for j, kids in enumerate(sets):
        loads = np.where(rng.random(len(kids)) < P_WEAK, rng.uniform(*WEAK, len(kids)), rng.uniform(*STRONG, len(kids)))
        loads *= max(1.0, np.sqrt(MIN_LOAD2 / np.sum(loads**2)))
        c[j, kids] = rng.choice([-1.0, 1.0], size=len(kids)) * loads
        pairs = [(a, b) for a in kids for b in kids if rank[a] < rank[b] and w[a, b] == 0.0]
        n_ffl = min(len(pairs), int(rng.integers(1, max(2, len(kids) // FFL_PER) + 1)))
        for i in rng.choice(len(pairs), size=n_ffl, replace=False):  # feed-forward loops: h -> a -> b, h -> b
            w[pairs[i]] = rng.uniform(*FFL_WEIGHTS) * rng.choice([-1.0, 1.0])
    return order, w, sets, c


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the weight matrix w[parent, child] of seed index ``seed``."""
    order, w, _, _ = _network(seed)
    return order, w


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, w = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def shared_children(seed: int) -> set[int]:
    """The children both roots of seed index ``seed`` share (empty with one root)."""
    _, _, sets, _ = _network(seed)
    return set(sets[0].tolist()) & set(sets[1].tolist()) if len(sets) == 2 else set()


def noise_kinds(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per variable of seed index ``seed``: its noise sd and its noise kind (``NOISE_KINDS``)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 5])
    return np.exp(rng.uniform(*np.log(NOISE_SD), size=n)), rng.choice(np.array(NOISE_KINDS), size=n)


def units(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per variable of seed index ``seed``: its unit's scale and offset (the table's columns are
    ``offset + scale * x``)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 6])
    scale = 10.0 ** rng.uniform(*LOG10_SCALE, size=n)
    return scale, scale * rng.uniform(*OFFSET, size=n)


def _noise(rng: np.random.Generator, kind: str, sd: float, m: int) -> np.ndarray:
    """``m`` draws of one variable's noise, mean 0 and sd ``sd``."""
    if kind == "student":
        df = int(rng.integers(T_DF[0], T_DF[1] + 1))
        return sd * rng.standard_t(df, size=m) / np.sqrt(df / (df - 2.0))
    if kind == "laplace":  # Laplace(0, b) has sd b sqrt(2)
        return rng.laplace(0.0, sd / np.sqrt(2.0), size=m)
    return sd * rng.normal(size=m)


def _z(v: np.ndarray) -> np.ndarray:
    sd = v.std()
    return (v - v.mean()) / sd if sd > 0 else v * 0.0


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) in the variables' own units (not standardized), and per planted root its
    children and h (empty lists for ``null``: the same network, units and noise without the
    roots). ``seed`` is the index (0 = hold-out seed 1600)."""
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
        d = sum((w[u, v] * sd[v] * _z(x[:, u]) for u in np.flatnonzero(w[:, v])), np.zeros(m)) + e
        if not null:
            scale = d.std()
            d = d + sum(c[j, v] * scale * hs[j] for j in range(len(hs)))
        x[:, v] = d
    scale, offset = units(seed)
    x = offset + scale * (x - x.mean(axis=0)) / x.std(axis=0)  # mean ``offset``, sd ``scale``
    if null:
        return x, [], []
    return x, [{int(v) for v in kids} for kids in sets], hs
