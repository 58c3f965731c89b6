"""The ``h27g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-seventh session (seeds 2700-2709, ``planted_general.generate_all("h27g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2790-2799 are free for smoke tests of
the sampling. Its own sampling code (nothing shared with the other generators).

What a biologist would recognise: **a single-cell RT-qPCR panel** (Fluidigm Biomark 48.48 or 96.96
chips after specific-target preamplification, as Guo et al. 2010 and Moignard et al. 2013 measured the
transcription factors of single embryo or blood-progenitor cells) of **one sorted population**: a few
dozen genes in a few hundred single cells, handed as **expression thresholds ``Et = LoD - Ct``** (log2
units above the limit of detection) **with the non-detects set to 0**, as such labs hand them. The
regulating transcription factor is **not on the panel** (its assay failed or was not designed). No seen
general generator (rn, dag, dag-root, sparse, dense, small-m, hub, layered, upstream, modular, tanh,
mixed, roots, fanin, h16g-h26g) has **semi-continuous values**: every one is continuous (``h24g`` left
its faint cells empty, NaN, for the method to integrate out); here a cell where a gene was not detected
is a **0, a point mass on the low edge of every column**, and a detected gene's value is a **count of a
few molecules** read on a log scale:

* **Molecules.** The cell's log2 level of gene v is ``mu_v + s_v z_v`` (``z_v`` its standardized drive),
  mu_v U(-1, 6) (h's children U(2, 6): genes of the population's program, expressed), s_v U(1, 2);
  transcription in bursts: the captured molecules are Poisson of ``capture_i x 2^level x G / k_v``, G a
  Gamma(k_v, 1) draw per cell and gene, burst frequency k_v log-uniform in 2..10 (a negative binomial:
  the telegraph model); the cell's capture (lysis, reverse transcription, its size) ``capture_i`` log2
  N(-1, c), c U(0.2, 0.4) per seed, on every gene of the cell alike.
* **qPCR.** A detected gene's ``Ct = ct1_v - log2(molecules) / log2(1 + E_v) + N(0, 0.25)``, the Ct of
  one molecule after preamplification ct1_v U(23, 26.5), efficiency E_v U(0.85, 1.0); no molecule, or a
  Ct past the limit LoD = 25, is a non-detect; ``Et = max(0, LoD - Ct)``, 0 for a non-detect. So a gene
  is absent in 0-97 % of the cells (a median gene in 15-40 %: its level, bursts and the capture), and a
  detected single molecule reads anywhere in 0-2.

* **Genes and their drive.** N (30-60) genes in a DAG along a random order (mean in-degree U(0.8, 1.8),
  weights +-U(0.4, 1.0)); a gene's drive ``d_v = sum_u w_uv z_u + e_v`` (``z_u`` the parent's drive
  standardized, e_v ~ N(0, 1), independent cells). M log-uniform in 80..480 (cells of one to five
  chips).

What it plants:

* **h** (the unmeasured TF) at 10-40 % of the order; on half the seeds h has one observed parent before
  it (h = a z_parent + sqrt(1 - a^2) e, |a| U(0.4, 0.7)), else a root N(0, 1).
* **6-18 genes after h** are its children; each child's drive is ``sqrt(1 - c) x its other drive
  standardized + sqrt(c) x sign x h``, c U(0.4, 0.7), sign + on 70 % (a TF of a lineage program
  mostly activates); a share U(0.4, 0.8) of them given an observed parent besides h when the DAG gave
  none.

Truth, as for the other generators: h's planted child set, and h standardized. Recovered
(``bench_regulators.general``): the kept H that tracks h best reaches children precision and recall >=
0.8 and |corr(H, h)| >= 0.9. :func:`true_edges` lists the observed edges (column indices = the genes).
The table is in its own units (Et), complete, with the non-detects as 0; :func:`capture` gives each
cell's capture (not handed to the method).

``h27g-null`` (``null=True``): the same genes, cells, captures, bursts, Poisson and Ct draws without h's
term in its children (each gene draws from its own stream): a gene off h's paths has the same values in
both. The null's only common cause beyond the network is the cells' capture (a technical factor on every
gene, small beside the genes' own spread), so any kept H is false; one on the capture is what this assay
makes.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Hold-out ``h27g``"):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h27g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SEED0 = 2700  # the first hold-out seed (seed index 0)
N_RANGE, M_RANGE = (30, 60), (80, 480)  # M drawn log-uniformly
MEAN_DEGREE, WEIGHT = (0.8, 1.8), (0.4, 1.0)
H_PLACE, P_PARENT, H_UP = (0.10, 0.40), 0.5, (0.4, 0.7)
KIDS, H_SHARE, P_PLUS, CO_PARENT_SHARE = (6, 18), (0.4, 0.7), 0.70, (0.4, 0.8)
MU, KID_MU, SPREAD, BURST = (-1.0, 6.0), (2.0, 6.0), (1.0, 2.0), (2.0, 10.0)  # log2 molecules; NB shape
CAPTURE_MEAN, CAPTURE_SD = -1.0, (0.2, 0.4)  # log2 of the cell's capture
CT1, EFFICIENCY, CT_SD, LOD = (23.0, 26.5), (0.85, 1.0), 0.25, 25.0


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N genes and h (index N): the order of all N + 1 (h at
    ``place``), the weights w[parent, gene] (h's row: 1 on its children), h's observed parent (-1 for a
    root) and its coefficient, its children (sorted), their h share and sign."""

    order: np.ndarray
    w: np.ndarray
    parent: int
    up: float
    children: np.ndarray
    share: np.ndarray
    sign: np.ndarray


def n_vars(seed: int) -> int:
    """The number of genes (columns) of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M (cells) of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


@lru_cache(maxsize=16)  # drawn once per seed: the table, its null and the truth share it
def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 2])
    obs = rng.permutation(n)
    place = max(2, int(round(n * rng.uniform(*H_PLACE))))
    order = np.insert(obs, place, n)
    rank = np.argsort(order)
    w = np.zeros((n + 1, n + 1))
    p = min(1.0, 2.0 * rng.uniform(*MEAN_DEGREE) / (n - 1))
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                w[obs[i], obs[j]] = rng.uniform(*WEIGHT) * rng.choice([-1.0, 1.0])
    parent = int(rng.choice(obs[:place])) if rng.random() < P_PARENT else -1
    up = rng.uniform(*H_UP) * rng.choice([-1.0, 1.0]) if parent >= 0 else 0.0
    n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), n - place)
    kids = np.sort(rng.choice(obs[place:], size=n_kids, replace=False))
    n_co = int(round(n_kids * rng.uniform(*CO_PARENT_SHARE)))
    for v in rng.choice(kids, size=n_co, replace=False):  # at least one observed co-parent
        if not w[:n, v].any():
            w[int(rng.choice(obs[: rank[v] - 1])), v] = rng.uniform(*WEIGHT) * rng.choice([-1.0, 1.0])
    w[n, kids] = 1.0
    share = rng.uniform(*H_SHARE, size=n_kids)
    sign = np.where(rng.random(n_kids) < P_PLUS, 1.0, -1.0)
    return Network(order, w, parent, up, kids, share, sign)


@lru_cache(maxsize=16)
def _drives(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each gene's standardized drive with and without h's term (M, N), and h: one pass along the
    order, the same noises for both (a gene off h's paths has the same drive in both)."""
    net, n, m = network(seed), n_vars(seed), n_samples(seed)
    e = np.random.default_rng([SEED0 + seed, 4]).normal(size=(m, n + 1))
    z, z0 = np.zeros((m, n + 1)), np.zeros((m, n + 1))
    kid = {int(v): i for i, v in enumerate(net.children)}
    for v in net.order:
        if v == n:  # h: its parent's standardized drive (the same in both tables: it is before h)
            own = e[:, n]
            h = own if net.parent < 0 else net.up * z[:, net.parent] + np.sqrt(1.0 - net.up**2) * own
            z[:, n] = z0[:, n] = (h - h.mean()) / h.std()
            continue
        ins = np.flatnonzero(net.w[:n, v])
        d, d0 = z[:, ins] @ net.w[ins, v] + e[:, v], z0[:, ins] @ net.w[ins, v] + e[:, v]
        if v in kid:
            i = kid[v]
            own, own0 = (d - d.mean()) / d.std(), (d0 - d0.mean()) / d0.std()
            d = np.sqrt(1.0 - net.share[i]) * own + np.sqrt(net.share[i]) * net.sign[i] * z[:, n]
            d0 = np.sqrt(1.0 - net.share[i]) * own0
        z[:, v], z0[:, v] = (d - d.mean()) / d.std(), (d0 - d0.mean()) / d0.std()
    return z[:, :n], z0[:, :n], z[:, n]


@lru_cache(maxsize=16)
def _assays(seed: int) -> dict[str, np.ndarray]:
    """Per gene: mean log2 molecules ``mu``, spread ``s``, burst frequency ``k``, one molecule's Ct
    ``ct1`` and the efficiency ``eff``; per cell its log2 ``capture``."""
    n, m = n_vars(seed), n_samples(seed)
    rng = np.random.default_rng([SEED0 + seed, 3])
    mu = rng.uniform(*MU, size=n)
    kids = network(seed).children
    mu[kids] = rng.uniform(*KID_MU, size=len(kids))
    return {
        "mu": mu,
        "s": rng.uniform(*SPREAD, size=n),
        "k": np.exp(rng.uniform(*np.log(BURST), size=n)),
        "ct1": rng.uniform(*CT1, size=n),
        "eff": rng.uniform(*EFFICIENCY, size=n),
        "capture": CAPTURE_MEAN + rng.uniform(*CAPTURE_SD) * rng.normal(size=m),
    }


def capture(seed: int) -> np.ndarray:
    """Each cell's log2 capture (on every gene of the cell alike)."""
    return _assays(seed)["capture"].copy()


def _et(seed: int, v: int, z: np.ndarray) -> np.ndarray:
    """Gene v's Et in every cell from its standardized drive ``z``: bursty molecules captured, Poisson,
    Ct, censored at the limit. Its own stream: the Gamma and Ct draws come first, so a gene with the same
    drive has the same values whatever the other genes drew."""
    a = _assays(seed)
    rng = np.random.default_rng([SEED0 + seed, 5, v])
    k = a["k"][v]
    gamma = rng.gamma(k, 1.0, size=len(z))
    noise = rng.normal(0.0, CT_SD, size=len(z))
    lam = 2.0 ** (a["capture"] + a["mu"][v] + a["s"][v] * z) * gamma / k
    mol = rng.poisson(lam)
    ct = a["ct1"][v] - np.log2(np.maximum(mol, 1)) / np.log2(1.0 + a["eff"][v]) + noise
    return np.where(mol > 0, np.maximum(0.0, LOD - ct), 0.0)


def table(seed: int, *, null: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The table as handed (M cells, N genes: Et, 0 for a non-detect) and h (standardized)."""
    z, z0, h = _drives(seed)
    zz = z0 if null else z
    return np.column_stack([_et(seed, v, zz[:, v]) for v in range(zz.shape[1])]), h.copy()


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) among the genes, as column indices."""
    n = n_vars(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(network(seed).w[:n, :n]), strict=True)]


def children(seed: int) -> set[int]:
    """h's planted children (column indices)."""
    return {int(v) for v in network(seed).children}


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) as a single-cell qPCR panel (Et, non-detects 0), [h's children] and [h standardized]
    (empty lists for ``null``). ``seed`` is the index (0 = seed 2700)."""
    y, h = table(seed, null=null)
    if null:
        return y, [], []
    return y, [children(seed)], [h]
