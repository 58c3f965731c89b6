"""The ``h20g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twentieth session (seeds 2000-2009, ``planted_general.generate_all("h20g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, on its final code; seeds 2090 and up are free for smoke tests of the sampling.
It does not share the other generators' sampling code.

What a biologist would recognise: an **unmeasured regulator inside a negative feedback loop,
sampled at steady state**. A sigma factor and its anti-sigma factor (FliA/FlgM, RpoE/RseA,
SigW/RsiW), or RpoH and the DnaK chaperones it induces: h switches on its targets, and one or two
of its own targets act back on h with the opposite sign. An expression table does not see the
loop turn: each sample is the network's equilibrium under that sample's noise, the linear
structural equations ``x = x B + e`` with a cyclic B solved as ``x = e (I - B)^-1`` (Lacerda,
Spirtes, Ramsey and Hoyer 2008; Hyttinen, Eberhardt and Hoyer 2012: the time-lagged feedback
collapsed into one sample). The observed part has 1-3 feedback loops of its own (a TF
autoregulating through its target, 70 % negative), so a cycle is not by itself h's signature, and
the null keeps them. Every seen generator (rn, dag, dag-root, sparse, dense, small-m, hub,
layered, upstream, modular, tanh, mixed, roots, fanin, h16g, h17g, h18g, h19g) samples a DAG
ancestrally; none has a cycle, and none a child that is also its hidden parent's parent.

What it plants:

* **h** at 15-40 % of a random order; on half the seeds h has one observed parent u before it
  (``h = a z(x_u) + sqrt(1 - a^2) e_h`` before the feedback, |a| ~ U(0.4, 0.7)), else a root.
* **4-20 children** after h (at most as many as follow it); each gets a share U(0.25, 0.6) of its
  variance from h (load c with c^2 = s / (1 - s), random sign, scaled up together until sum c^2 >=
  4.5, as the other generators); the DAG part is built in these units from its population
  variances along the order, so each load is ``c_v sd(d_v + e_v)`` on the standardized h, as in
  ``h19g``.
* **The feedback.** 1 child f (2 on half the seeds with at least 8 children) acts back on h with
  the standardized coefficient ``-sign(c_f) U(0.4, 0.8)`` (on the DAG part's variances): a negative
  loop that damps h. The feedback children stay h's children in the truth.
* **Observed loops.** 1-3 back edges among the observed variables: an edge a -> b of the DAG (or a
  path a -> b -> c) is closed by b -> a (c -> a) at a standardized U(0.3, 0.7), its sign making the
  loop negative on 70 % and positive on 30 %. Back edges touching h's children are allowed (h's
  children are ordinary genes), none into h.
* The spectral radius of B is brought under ``MAX_RHO`` (0.9) by shrinking the back edges (h's
  feedback included) by 0.8 at a time, so the equilibrium exists and the loop iteration converges.

The network: N drawn per seed in 30..70 observed variables; an Erdos-Renyi DAG along the order with
mean in-degree U(0.8, 1.6), weights +-U(0.3, 0.9) on the standardized parent times the child's noise
sd (Gaussian, sd log-uniform in [0.5, 1.5]). M drawn log-uniformly in 50..600 per seed. The samples
are the equilibria; columns scaled to unit variance, h standardized.

Truth, as for the other generators: h's planted child set (the feedback children included; u and
h's grandchildren are not its children). Recovered (``bench_regulators.general``): the kept H that
tracks h best reaches children precision and recall >= 0.8 and |corr(H, h)| >= 0.9. Why it is fair:
h keeps an own part of variance that no observed variable has (its noise e_h, damped but not
removed by the loop); the loads keep sum c^2 >= 4.5; a DAG with H -> f or f -> H can each explain
the loop's covariance in part. :func:`true_edges` lists the observed edges, back edges included
(so they are not a DAG: ``--ceiling``'s true-structure start does not apply to ``h20g``).

``h20g-null`` (``null=True``): the same network (the observed loops included) and the same noise
draws, without h (its out-edges and its feedback removed); any kept H is a false regulator.

Run once, on the final code (budget 1-2 h of CPU for the 20 networks at load 10-20, split with
``--first 0 --seeds 5`` and ``--first 5 --seeds 5``, and ``--only h20g-null`` for the nulls):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h20g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEED0 = 2000  # the first hold-out seed (seed index 0)
N_RANGE = (30, 70)
M_RANGE = (50, 600)  # drawn log-uniformly
MEAN_DEGREE = (0.8, 1.6)  # the DAG part's mean in-degree
WEIGHTS = (0.3, 0.9)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 1.5)
H_PLACE = (0.15, 0.40)  # h's place in the order, as a share of N
P_PARENT, UP_A = 0.5, (0.4, 0.7)  # h has one observed parent on half the seeds
KIDS = (4, 20)
H_SHARE = (0.25, 0.6)  # the share of a child's variance h explains (before the scaling up)
MIN_LOAD2 = 4.5
FEEDBACK_BETA, TWO_FEEDBACK_MIN_KIDS = (0.4, 0.8), 8
LOOPS, LOOP_W, P_NEGATIVE = (1, 3), (0.3, 0.7), 0.7
MAX_RHO, SHRINK = 0.9, 0.8


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N observed variables and h (index N): the order, B[parent,
    child] (raw coefficients of ``x = x B + e``, h's row and column included, every back edge
    included), the noise sd per node, h's place (it sits just before ``order[place]``), its observed
    parent (-1 for a root), the children (sorted), the loads c[variable] (0 off the children), the
    feedback children, and the observed back edges (from, to)."""

    order: np.ndarray
    b: np.ndarray
    sd: np.ndarray
    place: int
    parent: int
    children: np.ndarray
    c: np.ndarray
    feedback: tuple[int, ...]
    loops: tuple[tuple[int, int], ...]


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


def _signed(rng: np.random.Generator, lo_hi: tuple[float, float], size: int | None = None):
    return rng.uniform(*lo_hi, size=size) * rng.choice([-1.0, 1.0], size=size)


def _dag_part(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, float]:
    """The order, the standardized DAG weights w[parent, child] (observed only), the noise sd per
    observed variable, h's place, its observed parent (-1: none) and its coefficient a."""
    order = rng.permutation(n)
    p = min(1.0, 2.0 * rng.uniform(*MEAN_DEGREE) / (n - 1))
    w = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                w[order[i], order[j]] = _signed(rng, WEIGHTS)
    sd = np.exp(rng.uniform(*np.log(NOISE_SD), size=n))
    place = max(2, int(round(n * rng.uniform(*H_PLACE))))
    parent, a = -1, 0.0
    if rng.random() < P_PARENT:
        parent, a = int(rng.choice(order[:place])), float(_signed(rng, UP_A))
    return order, w, sd, place, parent, a


def raw_dag(
    order: np.ndarray, w: np.ndarray, sd: np.ndarray, place: int, parent: int, a: float, c: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The DAG part in raw units: B[parent, child] over the N observed variables and h (index N, just
    before ``order[place]``) from the standardized weights ``w``, h's observed parent and coefficient
    ``a`` and the loads ``c`` on the standardized h (``c_v sd(d_v + e_v)``), and the population
    variances along the order (``x = e A``, A's columns per node; ``sd`` the noise sd per node)."""
    n = len(order)
    hn = n
    b, amat, var = np.zeros((n + 1, n + 1)), np.zeros((n + 1, n + 1)), np.zeros(n + 1)

    def settle(v: int) -> None:
        amat[:, v] = amat @ b[:, v]
        amat[v, v] += 1.0
        var[v] = float(np.sum((sd * amat[:, v]) ** 2))

    for i, v in enumerate(order):
        if i == place:  # h, from its observed parent (earlier) and its own part
            if parent >= 0:
                b[parent, hn] = a / np.sqrt(var[parent])
            settle(hn)
        for u in np.flatnonzero(w[:, v]):
            b[u, v] = w[u, v] * sd[v] / np.sqrt(var[u])
        settle(v)
        if c[v] != 0.0:
            b[hn, v] = c[v] * np.sqrt(var[v]) / np.sqrt(var[hn])
            settle(v)
    return b, var


def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    order, w, sd_obs, place, parent, a = _dag_part(n, rng)
    n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), n - place)  # 18 follow h at the least
    kids = np.sort(rng.choice(order[place:], size=n_kids, replace=False))
    s = rng.uniform(*H_SHARE, size=n_kids)
    load = np.sqrt(s / (1.0 - s))
    load *= max(1.0, np.sqrt(MIN_LOAD2 / np.sum(load**2)))
    c = np.zeros(n)
    c[kids] = rng.choice([-1.0, 1.0], size=n_kids) * load
    hn = n
    sd = np.append(sd_obs, np.sqrt(1.0 - a * a) if parent >= 0 else 1.0)
    b, var = raw_dag(order, w, sd, place, parent, a, c)
    n_fb = 2 if n_kids >= TWO_FEEDBACK_MIN_KIDS and rng.random() < 0.5 else 1
    feedback = tuple(sorted(int(f) for f in rng.choice(kids, size=n_fb, replace=False)))
    back = [(f, hn, -np.sign(c[f]) * rng.uniform(*FEEDBACK_BETA)) for f in feedback]
    edges = list(zip(*np.nonzero(w), strict=True))
    loops: list[tuple[int, int]] = []
    for k in rng.permutation(len(edges))[: int(rng.integers(LOOPS[0], LOOPS[1] + 1))]:
        u, v = (int(z) for z in edges[k])
        later = np.flatnonzero(w[v])
        if len(later) and rng.random() < 0.5:  # close u -> v -> t by t -> u
            t = int(rng.choice(later))
            gain = w[u, v] * w[v, t]
        else:
            t, gain = v, w[u, v]
        if (t, u) in loops or w[t, u] != 0.0:
            continue
        sign = -np.sign(gain) if rng.random() < P_NEGATIVE else np.sign(gain)
        loops.append((t, u))
        back.append((t, u, sign * rng.uniform(*LOOP_W)))
    for f, t, beta in back:  # standardized (on the DAG part's variances) into raw units
        b[f, t] = beta * np.sqrt(var[t]) / np.sqrt(var[f])
    is_back = np.zeros_like(b, dtype=bool)
    for f, t, _ in back:
        is_back[f, t] = True
    while np.max(np.abs(np.linalg.eigvals(b))) >= MAX_RHO:
        b[is_back] *= SHRINK
    return Network(order, b, sd, place, parent, kids, c, feedback, tuple(loops))


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the observed part of B[parent, child] of seed index ``seed`` (back
    edges included: not a DAG along the order where the loops close)."""
    net = network(seed)
    n = len(net.order)
    return net.order, net.b[:n, :n]


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``, back edges included."""
    _, b = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(b), strict=True)]


def equilibrium(b: np.ndarray, e: np.ndarray) -> np.ndarray:
    """The steady state of ``x_{t+1} = x_t B + e`` for each row of ``e``: ``e (I - B)^-1``."""
    return np.linalg.solve((np.eye(len(b)) - b).T, e.T).T


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, [h's children] and [h] (empty lists for ``null``: the
    same network and noise without h). ``seed`` is the index (0 = seed 2000)."""
    net = network(seed)
    n, m = len(net.order), n_samples(seed)
    e = np.random.default_rng([SEED0 + seed, 4]).normal(size=(m, n + 1)) * net.sd
    b = net.b.copy()
    if null:
        b[n, :], b[:, n] = 0.0, 0.0
    x = equilibrium(b, e)
    h = (x[:, n] - x[:, n].mean()) / x[:, n].std()
    x = x[:, :n] / x[:, :n].std(axis=0)
    if null:
        return x, [], []
    return x, [set(net.children.tolist())], [h]
