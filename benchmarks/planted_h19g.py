"""The ``h19g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the nineteenth session (seeds 1900-1909, ``planted_general.generate_all("h19g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, on its final code; seeds 1990 and up are free for smoke tests and timing. It
does not share the other generators' sampling code.

What a biologist would recognise: an **unmeasured mediator inside an incoherent feed-forward
loop**, the commonest motif with a small RNA or a modified protein in the middle. A measured
regulator u switches on an unmeasured mediator h (a small RNA absent from the array, a kinase's
active form) and also acts on h's targets directly, with the opposite sign (E. coli's Fur/RyhB or
CpxR/CpxQ: the direct and the mediated arms cancel in part, so a target's marginal dependence on u
is weak and h's children do not look like u's). And h acts on part of its targets only **with a
measured cofactor** (a partner subunit, a ligand's transporter): those children follow h strongly
where the cofactor q is high and hardly where it is low. The seen generators have a hidden variable
with observed parents (``upstream``, ``h17g``, h2 of ``h18g``) but never an observed parent that
is also a direct, opposing parent of H's children, and never a child whose response to h is
modulated by an observed variable (no interaction of a hidden and an observed parent); their base
networks have mean in-degree up to 1.5, these 1.5-2.5 (dense learned networks are where the
FindHidden-style prototype of #22 still failed). What it plants:

* **h, a mediator** (sampled at 15-40 % of the order) with 1-2 observed parents u (a third of the
  seeds two) among the variables before it: ``h = z(sqrt(R^2) z(sum_j a_j z(x_uj)) + sqrt(1 - R^2)
  e)``, a_j = +-U(0.5, 1.0), R^2 ~ U(0.35, 0.6) (the mediator follows its activator, not only).
* **4-20 children** after h; each gets a share U(0.25, 0.6) of its variance from h (load c with c^2
  = s / (1 - s), random sign; scaled up together until sum c^2 >= 4.5, as the other generators, so
  a linear summary of the children can track h).
* **Incoherent arms.** A share U(0.3, 0.6) of the children also get u1 (h's first parent) as a
  direct observed parent at U(0.4, 0.9), with the sign *opposite* to the mediated path's (sign(a_1
  c_v)).
* **Cofactor-gated children.** A share U(0.25, 0.5) of the children respond to ``z(h g)``, g = 0.15
  + 1.7 sigmoid(k (z(x_q) - t)) (k ~ U(2, 4), t ~ U(-0.5, 0.5) per child), q one observed variable
  before h (neither of h's parents nor a child), which is also their observed parent at +-U(0.3,
  0.6): a heteroscedastic response, strong in about half of the samples.

The network: N drawn per seed in 35..70 observed variables in a random order; an Erdos-Renyi DAG
along it with mean in-degree U(1.5, 2.5), weights +-U(0.3, 0.9) on the standardized parent times
the child's noise sd (Gaussian, sd log-uniform in [0.5, 1.5]). A child v gets ``sd(d_v + e_v) c_v
f_v(h)`` (d_v its observed parents' term, e_v its noise) during ancestral sampling. M drawn
log-uniformly in 40..600 per seed. Columns scaled to unit variance.

Truth, as for the other generators: h's planted child set (u, q and h's grandchildren are not its
children). Recovered (``bench_regulators.general``): the kept H that tracks h best reaches children
precision and recall >= 0.8 and |corr(H, h)| >= 0.9. Why it is fair: h keeps an own part of
variance >= 0.4 that no observed variable has; the loads keep sum c^2 >= 4.5; a gated child still
follows h monotonically wherever q is not at its floor (g >= 0.15).

``h19g-null`` (``null=True``): the same DAG (the incoherent and cofactor edges included), h's parents
and the noise draws, without h; any kept H is a false regulator.

Run once, on the final code (budget 1-2 h of CPU for the 20 networks at load 10-20, split with
``--first 0 --seeds 5`` and ``--first 5 --seeds 5``, and ``--only h19g-null`` for the nulls):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h19g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEED0 = 1900  # the first hold-out seed (seed index 0)
N_RANGE = (35, 70)
M_RANGE = (40, 600)  # drawn log-uniformly
MEAN_DEGREE = (1.5, 2.5)  # the base DAG's mean in-degree
WEIGHTS = (0.3, 0.9)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 1.5)
H_PLACE = (0.15, 0.40)  # h's place in the order, as a share of N
P_TWO_PARENTS, UP_W, UP_R2 = 1 / 3, (0.5, 1.0), (0.35, 0.6)
KIDS = (4, 20)
H_SHARE = (0.25, 0.6)  # the share of a child's variance h explains (before the scaling up)
MIN_LOAD2 = 4.5
IFFL_SHARE, IFFL_W = (0.3, 0.6), (0.4, 0.9)  # children with u1 as an opposing direct parent
GATED_SHARE, GATE_K, GATE_T, COF_W = (0.25, 0.5), (2.0, 4.0), (-0.5, 0.5), (0.3, 0.6)
GATE_FLOOR = 0.15  # g = GATE_FLOOR + (2 - 2 GATE_FLOOR) sigmoid(...): mean about 1


@dataclass(frozen=True)
class Network:
    """One seed's planted structure: the order, w[parent, child] (on standardized parents, in units
    of the child's noise sd; the incoherent and cofactor edges included), h's place (sampled just
    before ``order[place]``), its observed parents and their signed weights, R^2, the children
    (sorted), the loads c[variable] (0 off the children), the incoherent children, the cofactor q
    and the gated children as {v: (k, t)}."""

    order: np.ndarray
    w: np.ndarray
    place: int
    parents: tuple[int, ...]
    a: tuple[float, ...]
    r2: float
    children: np.ndarray
    c: np.ndarray
    iffl: tuple[int, ...]
    cofactor: int
    gated: dict[int, tuple[float, float]]


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


def _signed(rng: np.random.Generator, lo_hi: tuple[float, float], size: int | None = None):
    return rng.uniform(*lo_hi, size=size) * rng.choice([-1.0, 1.0], size=size)


def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    order = rng.permutation(n)
    p = min(1.0, 2.0 * rng.uniform(*MEAN_DEGREE) / (n - 1))
    w = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                w[order[i], order[j]] = _signed(rng, WEIGHTS)
    place = max(3, int(round(n * rng.uniform(*H_PLACE))))
    n_up = 2 if rng.random() < P_TWO_PARENTS else 1
    before = rng.permutation(order[:place])
    parents, cofactor = tuple(int(u) for u in before[:n_up]), int(before[n_up])
    a = tuple(float(v) for v in _signed(rng, UP_W, n_up))
    r2 = float(rng.uniform(*UP_R2))
    n_kids = int(rng.integers(KIDS[0], KIDS[1] + 1))
    kids = np.sort(rng.choice(order[place:], size=n_kids, replace=False))
    s = rng.uniform(*H_SHARE, size=n_kids)
    load = np.sqrt(s / (1.0 - s))
    load *= max(1.0, np.sqrt(MIN_LOAD2 / np.sum(load**2)))
    c = np.zeros(n)
    c[kids] = rng.choice([-1.0, 1.0], size=n_kids) * load
    perm = rng.permutation(kids)
    n_iffl = max(1, int(round(n_kids * rng.uniform(*IFFL_SHARE))))
    iffl = tuple(sorted(int(v) for v in perm[:n_iffl]))
    for v in iffl:  # u1 -> v against the mediated path u1 -> h -> v
        w[parents[0], v] = -np.sign(a[0] * c[v]) * rng.uniform(*IFFL_W)
    n_gated = max(1, int(round(n_kids * rng.uniform(*GATED_SHARE))))
    gated = {
        int(v): (float(rng.uniform(*GATE_K)), float(rng.uniform(*GATE_T))) for v in rng.permutation(kids)[:n_gated]
    }
    for v in gated:
        w[cofactor, v] = _signed(rng, COF_W)
    return Network(order, w, place, parents, a, r2, kids, c, iffl, cofactor, gated)


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the weight matrix w[parent, child] of seed index ``seed``."""
    net = network(seed)
    return net.order, net.w


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, w = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def _z(v: np.ndarray) -> np.ndarray:
    sd = v.std()
    return (v - v.mean()) / sd if sd > 0 else v * 0.0


def gate(q: np.ndarray, k: float, t: float) -> np.ndarray:
    """The cofactor's gate g = GATE_FLOOR + (2 - 2 GATE_FLOOR) sigmoid(k (z(q) - t))."""
    return GATE_FLOOR + (2.0 - 2.0 * GATE_FLOOR) / (1.0 + np.exp(-k * (_z(q) - t)))


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, [h's children] and [h] (empty lists for ``null``: the
    same network and noise without h). ``seed`` is the index (0 = seed 1900)."""
    net = network(seed)
    n, m = len(net.order), n_samples(seed)
    e_h = np.random.default_rng([SEED0 + seed, 7]).normal(size=m)
    sd = np.exp(np.random.default_rng([SEED0 + seed, 5]).uniform(*np.log(NOISE_SD), size=n))
    erng = np.random.default_rng([SEED0 + seed, 4])  # the noise: the same with and without h
    x, h = np.zeros((m, n)), np.zeros(m)
    for i, v in enumerate(net.order):
        if i == net.place:  # h from its observed parents (all earlier) and its own part
            up = _z(sum((a * _z(x[:, u]) for u, a in zip(net.parents, net.a, strict=True)), np.zeros(m)))
            h = _z(np.sqrt(net.r2) * up + np.sqrt(1.0 - net.r2) * e_h)
        d = sum((net.w[u, v] * sd[v] * _z(x[:, u]) for u in np.flatnonzero(net.w[:, v])), np.zeros(m))
        e = sd[v] * erng.normal(size=m)
        if not null and net.c[v] != 0.0:
            f = h if int(v) not in net.gated else _z(h * gate(x[:, net.cofactor], *net.gated[int(v)]))
            d = d + net.c[v] * (d + e).std() * f
        x[:, v] = d + e
    x = x / x.std(axis=0)
    if null:
        return x, [], []
    return x, [set(net.children.tolist())], [h]
