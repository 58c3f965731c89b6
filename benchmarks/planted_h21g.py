"""The ``h21g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-first session (seeds 2100-2109, ``planted_general.generate_all("h21g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2190 and up are free for smoke tests of
the sampling. It does not share the other generators' sampling code (only ``planted_h20g``'s
raw-unit build, ``equilibrium`` solve and signed draw).

What a biologist would recognise: an **unmeasured global regulator at the top of coherent
feed-forward loops through measured specific regulators**, as CRP-cAMP (its activity is cAMP
binding, not its mRNA) over AraC, MalT or GalS and their shared operons (Mangan and Alon 2003: the
commonest three-node motif of E. coli's network), **under heavy-tailed noise and measurement
error**. What no seen generator (rn, dag, dag-root, sparse, dense, small-m, hub, layered, upstream,
modular, tanh, mixed, roots, fanin, h16g-h20g) plants together:

* **A measured child of h that regulates h's other children.** 1-2 of h's children are specific
  regulators q (drawn among the first third of h's children along the order); each q is also a
  parent of a drawn 40-70 % of h's children after it, at a standardized ``+-U(0.4, 0.8)`` signed so
  that the path h -> q -> child agrees with h -> child (coherent) on 70 % and opposes it
  (incoherent) on 30 %, and of 1-4 targets of its own outside h's children. A search that explains
  the shared children by q alone leaves h less to pay for; an H whose children are q's targets is
  wrong on them. (``h19g``'s feed-forward loops ran the other way: an observed parent of h.)
* **Collider-heavy children.** Every child of h has at least 2 observed parents besides h (q
  counted; missing ones drawn among the earlier variables at ``+-U(0.3, 0.9)``), so h is one of
  three or more inputs to each of its targets, as most regulated genes have.
* **Heavy-tailed noise and measurement error.** Each observed variable's structural noise is
  Student-t with 3-5 degrees of freedom (drawn per variable; ``tanh`` had 4-6 on saturating
  responses), scaled to its sd; and what the table holds is the variable's value **plus measurement
  error** (Gaussian, reliability U(0.85, 0.97) of the column's population variance: the share that
  is the variable itself). The children respond to q's true level, not its measured one, so q's
  column is a noisy proxy of their parent, as an mRNA is of its protein's activity; the null keeps
  this, so a kept H that only mends q's measurement error is a false regulator there.

What it plants:

* **h** at 10-35 % of a random order; on half the seeds h has one observed parent u before it
  (``h = a z(x_u) + sqrt(1 - a^2) e_h``, |a| ~ U(0.4, 0.7), e_h Gaussian), else a root.
* **5-20 children** after h (at most as many as follow it); each gets a share U(0.25, 0.6) of its
  variance (from its other parents and noise, before h) from h: load c with c^2 = s / (1 - s),
  random sign, scaled up together until sum c^2 >= 4.5, in raw units on the population variances
  along the order as ``h20g``. A shared child's q term comes on top (through q, h reaches it twice).
* The DAG part: N drawn per seed in 35..70 observed variables, Erdos-Renyi along the order with mean
  in-degree U(1.0, 1.8), weights ``+-U(0.3, 0.9)`` on the standardized parent times the child's noise
  sd (log-uniform in [0.5, 1.5]). M drawn log-uniformly in 60..400 per seed. Columns scaled to unit
  variance after the measurement error; h standardized.

Truth, as for the other generators: h's planted child set (q included; q's own targets and h's
grandchildren are not its children). Recovered (``bench_regulators.general``): the kept H that
tracks h best reaches children precision and recall >= 0.8 and |corr(H, h)| >= 0.9. Why it is fair:
h keeps an own part no observed variable has; the loads keep sum c^2 >= 4.5 on 5 or more children;
the reliability keeps at least 85 % of every column its variable's own. :func:`true_edges` lists the
observed edges (q's and the added collider parents included), a DAG along the order.

``h21g-null`` (``null=True``): the same network without h (its out-edges removed: q keeps its
loops' lower arm and its own targets), the same structural noise and the same measurement error
(the planted network's sd of it); any kept H is a false regulator.

Run once, on the final code (budget 1-2 h of CPU for the 20 networks at load 10-20, split with
``--first 0 --seeds 5`` and ``--first 5 --seeds 5``, and ``--only h21g-null`` for the nulls):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h21g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from planted_h20g import _signed, equilibrium, raw_dag

SEED0 = 2100  # the first hold-out seed (seed index 0)
N_RANGE = (35, 70)
M_RANGE = (60, 400)  # drawn log-uniformly
MEAN_DEGREE = (1.0, 1.8)
WEIGHTS = (0.3, 0.9)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 1.5)
T_DF = (3, 5)  # Student-t structural noise of the observed variables (inclusive, per variable)
RELIABILITY = (0.85, 0.97)  # the share of a measured column's population variance that is its variable
H_PLACE = (0.10, 0.35)
P_PARENT, UP_A = 0.5, (0.4, 0.7)
KIDS = (5, 20)
H_SHARE = (0.25, 0.6)
MIN_LOAD2 = 4.5
TWO_Q_MIN_KIDS = 10  # two specific regulators q on half the seeds with at least this many children
Q_SHARE, Q_W, P_COHERENT, Q_OWN = (0.4, 0.7), (0.4, 0.8), 0.7, (1, 4)
MIN_PARENTS = 2  # observed parents of each of h's children besides h


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N observed variables and h (index N): the order, B[parent,
    child] (raw coefficients of ``x = x B + e``), the structural noise sd and Student-t degrees of
    freedom per node (h's df 0: Gaussian), the measurement error sd per observed variable, h's place,
    its observed parent (-1 for a root), its children (sorted), the loads c (0 off the children), the
    specific regulators q with the children of h each also regulates, and q's own targets."""

    order: np.ndarray
    b: np.ndarray
    sd: np.ndarray
    df: np.ndarray
    meas_sd: np.ndarray
    place: int
    parent: int
    children: np.ndarray
    c: np.ndarray
    q: tuple[int, ...]
    shared: dict[int, tuple[int, ...]]
    q_own: dict[int, tuple[int, ...]]


def n_vars(seed: int) -> int:
    """The number of observed variables of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


def _wiring(n: int, rng: np.random.Generator) -> tuple:
    """The standardized weights w[parent, child] among the observed variables (the random DAG, q's
    loops and own targets, the added collider parents), the order, h's place, parent and coefficient,
    the children, the loads c, q and its shared children and own targets."""
    order = rng.permutation(n)
    rank = np.argsort(order)
    p = min(1.0, 2.0 * rng.uniform(*MEAN_DEGREE) / (n - 1))
    w = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                w[order[i], order[j]] = _signed(rng, WEIGHTS)
    place = max(2, int(round(n * rng.uniform(*H_PLACE))))
    parent, a = -1, 0.0
    if rng.random() < P_PARENT:
        parent, a = int(rng.choice(order[:place])), float(_signed(rng, UP_A))
    n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), n - place)
    kids = np.sort(rng.choice(order[place:], size=n_kids, replace=False))
    s = rng.uniform(*H_SHARE, size=n_kids)
    load = np.sqrt(s / (1.0 - s))
    load *= max(1.0, np.sqrt(MIN_LOAD2 / np.sum(load**2)))
    c = np.zeros(n)
    c[kids] = rng.choice([-1.0, 1.0], size=n_kids) * load
    by_rank = kids[np.argsort(rank[kids])]
    n_q = 2 if n_kids >= TWO_Q_MIN_KIDS and rng.random() < 0.5 else 1
    q = tuple(sorted(int(v) for v in rng.choice(by_rank[: max(n_q, n_kids // 3)], size=n_q, replace=False)))
    shared, own = {}, {}
    for u in q:
        later = np.array([v for v in by_rank if rank[v] > rank[u] and v not in q], dtype=int)
        picked = rng.choice(later, size=int(round(len(later) * rng.uniform(*Q_SHARE))), replace=False)
        for v in picked:  # the sign of h -> u -> v against h -> v: coherent on P_COHERENT
            agree = 1.0 if rng.random() < P_COHERENT else -1.0
            w[u, v] = agree * np.sign(c[u]) * np.sign(c[v]) * rng.uniform(*Q_W)
        shared[u] = tuple(sorted(int(v) for v in picked))
        free = [int(v) for v in order[rank[u] + 1 :] if c[v] == 0.0]
        targets = rng.choice(free, size=min(len(free), int(rng.integers(Q_OWN[0], Q_OWN[1] + 1))), replace=False)
        w[u, targets] = _signed(rng, WEIGHTS, size=len(targets))
        own[u] = tuple(sorted(int(v) for v in targets))
    for v in by_rank:  # collider-heavy: at least MIN_PARENTS observed parents besides h
        earlier = [int(u) for u in order[: rank[v]] if w[u, v] == 0.0]
        extra = max(0, MIN_PARENTS - int(np.count_nonzero(w[:, v])))
        for u in rng.choice(earlier, size=min(extra, len(earlier)), replace=False):
            w[u, v] = _signed(rng, WEIGHTS)
    return w, order, place, parent, a, kids, c, q, shared, own


def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    w, order, place, parent, a, kids, c, q, shared, own = _wiring(n, rng)
    df = np.append(rng.integers(T_DF[0], T_DF[1] + 1, size=n), 0)
    sd = np.append(np.exp(rng.uniform(*np.log(NOISE_SD), size=n)), np.sqrt(1.0 - a * a) if parent >= 0 else 1.0)
    rel = rng.uniform(*RELIABILITY, size=n)
    b, var = raw_dag(order, w, sd, place, parent, a, c)
    meas_sd = np.sqrt(var[:n] * (1.0 - rel) / rel)
    return Network(order, b, sd, df, meas_sd, place, parent, kids, c, q, shared, own)


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the observed part of B[parent, child] of seed index ``seed``."""
    net = network(seed)
    n = len(net.order)
    return net.order, net.b[:n, :n]


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, b = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(b), strict=True)]


def true_values(seed: int, *, null: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The structural values (M, N + 1) before the measurement error (h last) and the error (M, N)."""
    net = network(seed)
    n, m = len(net.order), n_samples(seed)
    nrng = np.random.default_rng([SEED0 + seed, 4])
    df = np.where(net.df > 0, net.df, 3)  # h's column is drawn and replaced by a Gaussian
    e = nrng.standard_t(df, size=(m, n + 1)) / np.sqrt(df / (df - 2.0))
    e[:, n] = nrng.normal(size=m)
    b = net.b.copy()
    if null:
        b[n, :] = 0.0
    x = equilibrium(b, e * net.sd)
    return x, np.random.default_rng([SEED0 + seed, 5]).normal(size=(m, n)) * net.meas_sd


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, [h's children] and [h] (empty lists for ``null``: the
    same network, noise and measurement error without h). ``seed`` is the index (0 = seed 2100)."""
    net = network(seed)
    x, err = true_values(seed, null=null)
    n = len(net.order)
    y = x[:, :n] + err
    y = y / y.std(axis=0)
    if null:
        return y, [], []
    h = (x[:, n] - x[:, n].mean()) / x[:, n].std()
    return y, [set(net.children.tolist())], [h]
