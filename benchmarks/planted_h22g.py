"""The ``h22g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-second session (seeds 2200-2209, ``planted_general.generate_all("h22g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2290 and up are free for smoke tests of
the sampling. It does not share the other generators' sampling code (only ``planted_h20g``'s
raw-unit build, ``equilibrium`` solve and signed draw, and ``bench_regulators_genome_h20``'s Poisson
draw by inversion).

What a biologist would recognise: **an unmeasured regulator of a handful of genes in a small
network measured by bulk RNA-seq, the table as a lab gives it**: read counts at modest depth,
libraries of unequal size, normalised to counts per million and logged, ``log2(1 + CPM)``, the form
most users paste into a tool. Every seen general generator (rn, dag, dag-root, sparse, dense, small-m,
hub, layered, upstream, modular, tanh, mixed, roots, fanin, h16g-h21g) hands over continuous values
(Gaussian, Student-t, Laplace, gamma, log-normal noise; ``h16g`` in raw units, ``h21g`` with Gaussian
measurement error); none has the count step, whose noise is set by the gene's expression level:

* **Counts at modest depth.** Each sample's library (its total reads, the whole transcriptome, of
  which the table's genes are a small share) is the seed's median depth, log-uniform in 2-20 million
  reads, times ``exp(N(0, 0.45))`` clipped to 0.2-5x: about a six-fold spread over the middle 95 %
  of samples, as sequencing lanes give. Each gene has an expected CPM log-uniform in 1-1000 (h's
  children 8-1000, so each averages at least 16 reads at the lowest depth: a target a lab would
  see), a biological amplitude (sd of its natural-log expression) U(0.3, 0.9) and an NB dispersion
  phi log-uniform in 0.01-0.1; the count is Poisson of ``library x CPM x exp(amp z) x G / 10^6``,
  G ~ Gamma(1 / phi, phi) (a negative-binomial count around the gene's biological level z).
* **What the table holds: log2(1 + CPM)**, the count over the sample's library times 10^6. A faint
  gene is a few reads: its values are steps (0, log2(1 + 10^6 / library), ...), zeros in shallow
  libraries, and its noise is larger than a highly expressed gene's; the pseudo-count's compression
  makes a faint gene's level depend on the library size (its mean log2(1 + CPM) is lower in a
  shallow library), so faint genes share a small depth pattern that no regulator causes.

What it plants (in z, each gene's standardized natural-log expression, before the count step):

* The network: N drawn per seed in 30..60 genes, Erdos-Renyi along a random order with mean
  in-degree U(0.8, 1.6), weights ``+-U(0.3, 0.9)`` on the standardized parent times the child's
  noise sd (log-uniform in [0.5, 1.5]), Gaussian noise; M drawn log-uniformly in 40..400 per seed.
* **h** at 10-40 % of the order; on half the seeds h has one observed parent u before it (|a| ~
  U(0.4, 0.7)), else a root.
* **5-15 children** after h (at most as many as follow it); each gets a share U(0.3, 0.6) of its
  variance (before h) from h: load c with c^2 = s / (1 - s), random sign, scaled up together until
  sum c^2 >= 4.5, in raw units on the population variances along the order as ``h20g``.
* **Observed co-parents**: a share U(0.4, 0.8) of h's children is given at least one observed parent
  besides h (drawn among the earlier genes at ``+-U(0.3, 0.9)`` when the random DAG gave none).

Truth, as for the other generators: h's planted child set. Recovered (``bench_regulators.general``):
the kept H that tracks h best reaches children precision and recall >= 0.8 and |corr(H, h)| >= 0.9.
Why it is fair: the loads keep sum c^2 >= 4.5 on 5 or more children, and h's children are expressed
(>= 16 reads on average in the shallowest seed's median library). :func:`true_edges` lists the
observed edges, a DAG along the order. The columns are NOT rescaled: a user's log2(1 + CPM) table.

``h22g-null`` (``null=True``): the same network without h (its out-edges removed), the same
structural noise, libraries, dispersions and the same gamma and Poisson draws (by inversion), so
a gene off h's paths has the same counts to the last read; any kept H is a false regulator (one on
the depth pattern of the faint genes most of all).

Run once, on the final code (budget about 1 h of CPU for the 20 networks at load 10-20, split with
``--first 0 --seeds 5`` and ``--first 5 --seeds 5``, and ``--only h22g-null`` for the nulls):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h22g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from bench_regulators_genome_h20 import poisson_counts
from planted_h20g import _signed, equilibrium, raw_dag

SEED0 = 2200  # the first hold-out seed (seed index 0)
N_RANGE = (30, 60)
M_RANGE = (40, 400)  # drawn log-uniformly
MEAN_DEGREE = (0.8, 1.6)
WEIGHTS = (0.3, 0.9)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 1.5)
H_PLACE = (0.10, 0.40)
P_PARENT, UP_A = 0.5, (0.4, 0.7)
KIDS = (5, 15)
H_SHARE = (0.3, 0.6)
MIN_LOAD2 = 4.5
CO_PARENT_SHARE = (0.4, 0.8)  # of h's children with at least one observed parent besides h
DEPTH = (2e6, 2e7)  # the seed's median library (reads), log-uniform
DEPTH_SD, DEPTH_CLIP = 0.45, (0.2, 5.0)  # a sample's library: median x exp(N(0, DEPTH_SD)), clipped
CPM, KID_CPM = (1.0, 1000.0), (8.0, 1000.0)  # a gene's expected counts per million, log-uniform
AMP = (0.3, 0.9)  # sd of a gene's natural-log expression (its biological variation)
DISPERSION = (0.01, 0.1)  # NB phi, log-uniform


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N observed genes and h (index N): the order, B[parent,
    child] (raw coefficients of ``x = x B + e``), the structural noise sd per node, the planted
    network's population variance per node, h's place, its observed parent (-1 for a root), its
    children (sorted), the loads c (0 off the children), and the count model: each gene's expected
    CPM, amplitude and dispersion, and each sample's library (reads)."""

    order: np.ndarray
    b: np.ndarray
    sd: np.ndarray
    var: np.ndarray
    place: int
    parent: int
    children: np.ndarray
    c: np.ndarray
    cpm: np.ndarray
    amp: np.ndarray
    phi: np.ndarray
    library: np.ndarray


def n_vars(seed: int) -> int:
    """The number of observed genes of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


def _wiring(n: int, rng: np.random.Generator) -> tuple:
    """The standardized weights w[parent, child] among the observed genes (the random DAG and the
    added co-parents), the order, h's place, parent and coefficient, the children and the loads c."""
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
    n_co = int(round(n_kids * rng.uniform(*CO_PARENT_SHARE)))
    for v in rng.choice(kids, size=n_co, replace=False):  # at least one observed co-parent
        if not w[:, v].any():
            w[int(rng.choice(order[: rank[v]])), v] = _signed(rng, WEIGHTS)
    return w, order, place, parent, a, kids, c


def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n, m = n_vars(seed), n_samples(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    w, order, place, parent, a, kids, c = _wiring(n, rng)
    sd = np.append(np.exp(rng.uniform(*np.log(NOISE_SD), size=n)), np.sqrt(1.0 - a * a) if parent >= 0 else 1.0)
    b, var = raw_dag(order, w, sd, place, parent, a, c)
    crng = np.random.default_rng([SEED0 + seed, 3])
    cpm = np.exp(crng.uniform(*np.log(CPM), size=n))
    cpm[kids] = np.exp(crng.uniform(*np.log(KID_CPM), size=len(kids)))
    amp = crng.uniform(*AMP, size=n)
    phi = np.exp(crng.uniform(*np.log(DISPERSION), size=n))
    depth = np.exp(crng.uniform(*np.log(DEPTH)))
    library = np.round(depth * np.clip(np.exp(crng.normal(0.0, DEPTH_SD, size=m)), *DEPTH_CLIP))
    return Network(order, b, sd, var, place, parent, kids, c, cpm, amp, phi, library)


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
    """The structural values z (M, N + 1), each node over its planted population sd (h last), and the
    read counts (M, N) drawn from them (the same gamma and Poisson draws with and without h)."""
    net = network(seed)
    n, m = len(net.order), n_samples(seed)
    e = np.random.default_rng([SEED0 + seed, 4]).normal(size=(m, n + 1)) * net.sd
    b = net.b.copy()
    if null:
        b[n, :] = 0.0
    z = equilibrium(b, e) / np.sqrt(net.var)
    drng = np.random.default_rng([SEED0 + seed, 5])
    gamma = drng.gamma(1.0 / net.phi, net.phi, size=(m, n))
    mean = net.library[:, None] * 1e-6 * net.cpm * np.exp(net.amp * z[:, :n]) * gamma
    return z, poisson_counts(mean, drng.random((m, n)))


def log_cpm(counts: np.ndarray, library: np.ndarray) -> np.ndarray:
    """``log2(1 + CPM)``: each count over its sample's library (reads) times 10^6, logged."""
    return np.log2(1.0 + counts / library[:, None] * 1e6)


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) as log2(1 + CPM) in its own units, [h's children] and [h] (empty lists for ``null``:
    the same network, libraries and count draws without h). ``seed`` is the index (0 = seed 2200)."""
    net = network(seed)
    z, counts = true_values(seed, null=null)
    y = log_cpm(counts, net.library)
    if null:
        return y, [], []
    h = z[:, -1]
    return y, [set(net.children.tolist())], [(h - h.mean()) / h.std()]
