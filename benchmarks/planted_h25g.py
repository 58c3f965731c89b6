"""The ``h25g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-fifth session (seeds 2500-2509, ``planted_general.generate_all("h25g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2590 and up are free for smoke tests of
the sampling. Its own sampling code (nothing shared with the other generators).

What a biologist would recognise: **an untargeted metabolomics table** (LC-MS peak areas of annotated
metabolites, as XCMS, MS-DIAL or Compound Discoverer export them) of a metabolic network whose
**regulating enzyme is not measured** (an enzyme's activity, a transporter, a hormone: it moves its
products up and its substrates down, and nothing in the table reads it directly). The table is handed
**as a metabolomics lab hands it: total-ion-count (TIC) normalised, then log2**. Two things no seen
general generator (rn, dag, dag-root, sparse, dense, small-m, hub, layered, upstream, modular, tanh,
mixed, roots, fanin, h16g-h24g) has:

* **Compositional closure.** Each sample is divided by its total signal (the sum of its peak areas),
  which cancels the sample's dilution (a urine's water, a tissue's weight, the injection) but leaves
  every column sharing minus the log of that total. The total is dominated by the few most abundant
  metabolites (levels span four orders of magnitude), so the closure is a common factor of every column
  made of *observed* columns' levels (nonlinearly: log of a sum of exponentials) that no regulator makes.
  ``h22g``'s log2 CPM was closed too, but over hundreds of thousands of reads of 30-60 genes of
  comparable depth and with count noise; here the closing sum is a handful of features' intensities.
* **Heteroscedastic log-normal noise.** A peak area is ``I x exp(N(0, cv))`` (multiplicative, cv per
  seed) plus an additive N(0, b) of the instrument's noise floor, b a share of the 10th-percentile
  feature's level: a faint metabolite is noisy in log units, an abundant one is not. Areas below b are
  reported at b (the peak picker's floor): 0.3-6 % of the cells on the smoke seeds, in faint metabolites.

* **Metabolites and their drive.** N (30-60) metabolites in a DAG along a random order (mean in-degree
  U(0.8, 1.8), weights +-U(0.4, 1.0)); a metabolite's drive ``d_v = sum_u w_uv z_u + e_v`` (``z_u`` the
  parent's drive standardized, e_v ~ N(0, 1)); its level ``ln I_v = mu_v + s_v z_v`` (mu_v uniform in
  ln 1e4..ln 1e8, s_v U(0.25, 0.8) natural-log units: log-normal concentrations).
* **Samples.** A dilution per sample, ``ln`` N(0, U(0.2, 0.5)), multiplies every peak of it.

What it plants:

* M drawn log-uniformly in 50..500.
* **h** (the enzyme's activity) at 10-40 % of the order; on half the seeds h has one observed parent
  before it (h = a z_parent + sqrt(1 - a^2) e, |a| U(0.4, 0.7)), else a root N(0, 1).
* **4-20 metabolites after h** are its children; each child's drive is ``sqrt(1 - c) x its other drive
  standardized + sqrt(c) x sign x h``, c U(0.3, 0.6), sign + on 60 % (products), - on 40 % (substrates
  drawn down); a share U(0.4, 0.8) of them given an observed parent besides h when the DAG gave none.
  **None of h's children is among the 15 % most abundant metabolites** (their mu_v are the largest drawn,
  given to other metabolites), so the closing total carries only a small part of h: the planted children
  stay h's children in the table as handed (the smoke figures report |r(log total, h)|).

Truth, as for the other generators: h's planted child set, and h standardized. Recovered
(``bench_regulators.general``): the kept H that tracks h best reaches children precision and recall >=
0.8 and |corr(H, h)| >= 0.9 (the same judge as every general generator; the closure imprints a little of h
on every column, which the criterion does not count as h's children, as it does not in ``h22g``).
:func:`true_edges` lists the observed edges (the table's column indices = the metabolites).

``h25g-null`` (``null=True``): the same metabolites, levels, dilutions and noise draws without h's term
in its children; each table is closed by its own total (as a lab would), so a metabolite off h's paths
has the same peak areas in both and its normalised values differ only by the per-sample difference of
the two totals' logs. The closure stays in the null: it is a common factor of every column, and a kept H
on it is what a user would be shown as a regulator, so the null counts any kept H false (on smoke seed
2590 the null kept one H of 17 children, the columns most anti-correlated with the log total).

Run once, on the final code (budget in benchmarks/RESULTS.md, "Hold-out ``h25g``"):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h25g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SEED0 = 2500  # the first hold-out seed (seed index 0)
N_RANGE, M_RANGE = (30, 60), (50, 500)  # metabolites; M drawn log-uniformly
MEAN_DEGREE, WEIGHT = (0.8, 1.8), (0.4, 1.0)
H_PLACE, P_PARENT, H_UP = (0.10, 0.40), 0.5, (0.4, 0.7)
KIDS, H_SHARE, P_PLUS, CO_PARENT_SHARE = (4, 20), (0.3, 0.6), 0.6, (0.4, 0.8)
LOG_MU, SPREAD, TOP = (np.log(1e4), np.log(1e8)), (0.25, 0.8), 0.15  # TOP: share never h's children
DILUTION_SD, CV, FLOOR = (0.2, 0.5), (0.05, 0.2), (0.1, 0.4)  # FLOOR: b / the 10th-percentile level


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N metabolites and h (index N): the order of all N + 1 (h at
    ``place``), the weights w[parent, metabolite] (h's row: 1 on its children), h's observed parent (-1
    for a root) and its coefficient, its children (sorted), their h share and sign, each metabolite's
    log level mu (natural log) and spread s."""

    order: np.ndarray
    w: np.ndarray
    parent: int
    up: float
    children: np.ndarray
    share: np.ndarray
    sign: np.ndarray
    mu: np.ndarray
    spread: np.ndarray


def n_vars(seed: int) -> int:
    """The number of metabolites (columns) of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
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
    mu = rng.uniform(*LOG_MU, size=n)
    n_top = int(np.ceil(TOP * n))
    top = np.argsort(mu)[-n_top:]  # the most abundant: never h's children
    free = np.array([v for v in obs[place:] if v not in set(top.tolist())])
    n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), len(free))
    kids = np.sort(rng.choice(free, size=n_kids, replace=False))
    n_co = int(round(n_kids * rng.uniform(*CO_PARENT_SHARE)))
    for v in rng.choice(kids, size=n_co, replace=False):  # at least one observed co-parent
        if not w[:n, v].any():
            w[int(rng.choice(obs[: rank[v] - 1])), v] = rng.uniform(*WEIGHT) * rng.choice([-1.0, 1.0])
    w[n, kids] = 1.0
    share = rng.uniform(*H_SHARE, size=n_kids)
    sign = np.where(rng.random(n_kids) < P_PLUS, 1.0, -1.0)
    spread = rng.uniform(*SPREAD, size=n)
    return Network(order, w, parent, up, kids, share, sign, mu, spread)


@lru_cache(maxsize=16)
def _drives(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each metabolite's standardized drive with and without h's term (M, N), and h: one pass along the
    order, the same draws for both (a metabolite off h's paths has the same drive in both)."""
    net, n, m = network(seed), n_vars(seed), n_samples(seed)
    rng = np.random.default_rng([SEED0 + seed, 4])
    e = rng.normal(size=(m, n + 1))
    z, z0 = np.zeros((m, n + 1)), np.zeros((m, n + 1))
    kid = {int(v): i for i, v in enumerate(net.children)}
    for v in net.order:
        if v == n:  # h: its parent's standardized drive (the same in both tables: it is before h)
            h = e[:, n] if net.parent < 0 else net.up * z[:, net.parent] + np.sqrt(1.0 - net.up**2) * e[:, n]
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


def peak_areas(seed: int, *, null: bool = False) -> np.ndarray:
    """The peak areas before normalisation (M, N): log-normal levels, the sample's dilution, multiplicative
    and additive noise, the floor (the same draws with and without h)."""
    net = network(seed)
    z, z0, _ = _drives(seed)
    m, n = z.shape
    rng = np.random.default_rng([SEED0 + seed, 5])
    dilution = rng.normal(size=(m, 1)) * rng.uniform(*DILUTION_SD)
    cv = rng.uniform(*CV)
    mult = rng.normal(size=(m, n)) * cv
    b = rng.uniform(*FLOOR) * np.exp(np.quantile(net.mu, 0.1))
    add = rng.normal(size=(m, n)) * b
    level = np.exp(net.mu + net.spread * (z0 if null else z) + dilution)
    return np.maximum(level * np.exp(mult) + add, b)


def closed(areas: np.ndarray) -> np.ndarray:
    """A lab's TIC normalisation and log: log2 of each area over its sample's total, times the median total."""
    total = areas.sum(axis=1, keepdims=True)
    return np.log2(areas / total * np.median(total))


def table(seed: int, *, null: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The table as handed (M, N: log2 TIC-normalised peak areas) and h (standardized)."""
    _, _, h = _drives(seed)
    return closed(peak_areas(seed, null=null)), h.copy()


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) among the metabolites, as column indices."""
    n = n_vars(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(network(seed).w[:n, :n]), strict=True)]


def children(seed: int) -> set[int]:
    """h's planted children (column indices)."""
    return {int(v) for v in network(seed).children}


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) as a metabolomics table (log2 TIC-normalised peak areas), [h's children] and [h
    standardized] (empty lists for ``null``). ``seed`` is the index (0 = seed 2500)."""
    y, h = table(seed, null=null)
    if null:
        return y, [], []
    return y, [children(seed)], [h]
