"""The ``h26g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-sixth session (seeds 2600-2609, ``planted_general.generate_all("h26g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2690-2699 are free for smoke tests of
the sampling. Its own sampling code (nothing shared with the other generators).

What a biologist would recognise: **a longitudinal plasma-protein panel** (a targeted affinity panel
such as Olink's, NPX values in log2 units) of a **cohort followed over time**: a few subjects (patients
after surgery, volunteers of a vaccine or diet study, ICU stays) each sampled at many visits, the
table handed as one row per sample, subject after subject in visit order. The regulating signal is **not
on the panel** (an upstream cytokine's or hormone's activity, e.g. hepatocyte IL-6/STAT3 signalling
that moves the acute-phase proteins). No seen general generator (rn, dag, dag-root, sparse, dense,
small-m, hub, layered, upstream, modular, tanh, mixed, roots, fanin, h16g-h25g) has **rows that are not
independent draws**: every one samples its rows i.i.d. Here

* **Repeated measures.** 4-16 subjects, each with 4 or more visits (M log-uniform in 60..360 split
  Dirichlet(3) over the subjects); a protein's own noise is ``sqrt(icc) x`` a subject level (N(0, 1) per
  subject) ``+ sqrt(1 - icc) x`` a within-subject part, icc U(0.2, 0.7) per protein: plasma proteins are
  individual, so much of a column's variance is between a handful of subjects.
* **Autocorrelation in time.** The within-subject part is an Ornstein-Uhlenbeck process at the visits'
  days: visit days uniform over a follow-up of U(30, 365) days per seed (irregular gaps, the first at
  day 0), correlation ``exp(-gap / tau)`` between consecutive visits, tau log-uniform in 3..90 days per
  protein (h's 20..120 days: a slow state). Neighbouring rows of one subject are near copies, so the
  table has far fewer independent rows than M (two unrelated slow series correlate by chance).

Every marginal is the same linear-Gaussian structural model as in an i.i.d. table (each noise term has
unit variance and the noises are independent across proteins): only the rows' dependence is new.

* **Proteins and their drive.** N (30-60) proteins in a DAG along a random order (mean in-degree U(0.8,
  1.8), weights +-U(0.4, 1.0)); a protein's drive ``d_v = sum_u w_uv z_u + e_v`` (``z_u`` the parent's
  drive standardized, e_v its noise above); its NPX ``mu_v + s_v z_v + pQTL + N(0, m_v)``, mu_v U(2, 12),
  s_v U(0.4, 1.2), the measurement error m_v U(0.1, 0.3) s_v; on 25 % of the proteins a cis-pQTL: the
  subject's dosage (0/1/2, allele frequency U(0.1, 0.5)) x +-U(0.3, 1.0) s_v on the measured level only (a
  subject offset that no regulation passes on).

What it plants:

* **h** (the unmeasured signal) at 10-40 % of the order; its own part ``sqrt(icc_h) x`` a subject level
  ``+ sqrt(1 - icc_h) x`` its slow OU process, icc_h U(0.2, 0.5); on half the seeds h has one observed
  parent before it (h = a z_parent + sqrt(1 - a^2) x its own part, |a| U(0.4, 0.7)), else a root.
* **5-15 proteins after h** are its children; each child's drive is ``sqrt(1 - c) x its other drive
  standardized + sqrt(c) x sign x h``, c U(0.3, 0.6), sign + on 75 % (induced, as acute-phase proteins);
  a share U(0.4, 0.8) of them given an observed parent besides h when the DAG gave none.

Truth, as for the other generators: h's planted child set, and h standardized. Recovered
(``bench_regulators.general``): the kept H that tracks h best reaches children precision and recall >=
0.8 and |corr(H, h)| >= 0.9. :func:`true_edges` lists the observed edges (column indices = the proteins).
The table is in its own units (NPX), complete; :func:`subjects` and :func:`days` give each row's
subject and visit day (not handed to the method).

``h26g-null`` (``null=True``): the same proteins, subjects, visits, noise processes, pQTLs and
measurement draws without h's term in its children: a protein off h's paths has the same values in both.
The null has no common cause of the proteins beyond the network, so any kept H is false (an H on one
subject's rows, or on two slow series that drift together by chance, is what the repeated measures
make).

Run once, on the final code (budget in benchmarks/RESULTS.md, "Hold-out ``h26g``"):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h26g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SEED0 = 2600  # the first hold-out seed (seed index 0)
N_RANGE, M_RANGE, SUBJECTS, MIN_VISITS = (30, 60), (60, 360), (4, 16), 4  # M drawn log-uniformly
MEAN_DEGREE, WEIGHT = (0.8, 1.8), (0.4, 1.0)
H_PLACE, P_PARENT, H_UP = (0.10, 0.40), 0.5, (0.4, 0.7)
KIDS, H_SHARE, P_PLUS, CO_PARENT_SHARE = (5, 15), (0.3, 0.6), 0.75, (0.4, 0.8)
ICC, H_ICC, FOLLOW_UP, TAU, H_TAU = (0.2, 0.7), (0.2, 0.5), (30.0, 365.0), (3.0, 90.0), (20.0, 120.0)
MU, SPREAD, MEAS = (2.0, 12.0), (0.4, 1.2), (0.1, 0.3)  # NPX; MEAS: measurement sd / spread
P_PQTL, MAF, PQTL = 0.25, (0.1, 0.5), (0.3, 1.0)


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N proteins and h (index N): the order of all N + 1 (h at
    ``place``), the weights w[parent, protein] (h's row: 1 on its children), h's observed parent (-1 for
    a root) and its coefficient, its children (sorted), their h share and sign."""

    order: np.ndarray
    w: np.ndarray
    parent: int
    up: float
    children: np.ndarray
    share: np.ndarray
    sign: np.ndarray


def n_vars(seed: int) -> int:
    """The number of proteins (columns) of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


@lru_cache(maxsize=16)
def _design(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's subject (0..S-1, rows subject after subject) and visit day (increasing within one)."""
    m = n_samples(seed)
    rng = np.random.default_rng([SEED0 + seed, 3])
    s = min(int(rng.integers(SUBJECTS[0], SUBJECTS[1] + 1)), m // MIN_VISITS)
    per = MIN_VISITS + rng.multinomial(m - MIN_VISITS * s, rng.dirichlet(np.full(s, 3.0)))
    span = rng.uniform(*FOLLOW_UP)
    subject = np.repeat(np.arange(s), per)
    day = np.concatenate([np.r_[0.0, np.sort(rng.uniform(0.0, span, k - 1))] for k in per])
    return subject, day


def subjects(seed: int) -> np.ndarray:
    """Each row's subject (index), rows subject after subject."""
    return _design(seed)[0].copy()


def days(seed: int) -> np.ndarray:
    """Each row's visit day (from the subject's first visit)."""
    return _design(seed)[1].copy()


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


def _ou(rng: np.random.Generator, subject: np.ndarray, day: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """(M, k) unit-variance Ornstein-Uhlenbeck processes at the visits, one per column of time scale
    ``tau``, restarted (stationary) at each subject's first visit."""
    m = len(day)
    eps = rng.normal(size=(m, len(tau)))
    out = np.empty_like(eps)
    for i in range(m):
        if i == 0 or subject[i] != subject[i - 1]:
            out[i] = eps[i]
            continue
        rho = np.exp(-(day[i] - day[i - 1]) / tau)
        out[i] = rho * out[i - 1] + np.sqrt(1.0 - rho**2) * eps[i]
    return out


@lru_cache(maxsize=16)
def noises(seed: int) -> np.ndarray:
    """Each protein's noise e_v and h's own part (M, N + 1; column N is h's): a subject level and a
    within-subject OU process mixed at the column's icc, unit variance each."""
    subject, day = _design(seed)
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 4])
    tau = np.exp(np.r_[rng.uniform(*np.log(TAU), size=n), rng.uniform(*np.log(H_TAU))])
    icc = np.r_[rng.uniform(*ICC, size=n), rng.uniform(*H_ICC)]
    level = rng.normal(size=(int(subject.max()) + 1, n + 1))[subject]
    return np.sqrt(icc) * level + np.sqrt(1.0 - icc) * _ou(rng, subject, day, tau)


@lru_cache(maxsize=16)
def _drives(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each protein's standardized drive with and without h's term (M, N), and h: one pass along the
    order, the same noises for both (a protein off h's paths has the same drive in both)."""
    net, n = network(seed), n_vars(seed)
    e = noises(seed)
    m = e.shape[0]
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


def table(seed: int, *, null: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The table as handed (M, N: NPX, log2 units) and h (standardized)."""
    z, z0, h = _drives(seed)
    m, n = z.shape
    subject = _design(seed)[0]
    rng = np.random.default_rng([SEED0 + seed, 5])
    mu, spread = rng.uniform(*MU, size=n), rng.uniform(*SPREAD, size=n)
    meas = rng.uniform(*MEAS, size=n) * spread
    maf = rng.uniform(*MAF, size=n)
    n_sub = int(subject.max()) + 1
    dosage = (rng.random((n_sub, n)) < maf).astype(float) + (rng.random((n_sub, n)) < maf)
    effect = np.where(rng.random(n) < P_PQTL, rng.uniform(*PQTL, size=n) * rng.choice([-1.0, 1.0], n), 0.0)
    err = rng.normal(size=(m, n)) * meas
    y = mu + spread * (z0 if null else z) + (dosage * effect * spread)[subject] + err
    return y, h.copy()


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) among the proteins, as column indices."""
    n = n_vars(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(network(seed).w[:n, :n]), strict=True)]


def children(seed: int) -> set[int]:
    """h's planted children (column indices)."""
    return {int(v) for v in network(seed).children}


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) as a longitudinal protein panel (NPX), [h's children] and [h standardized] (empty
    lists for ``null``). ``seed`` is the index (0 = seed 2600)."""
    y, h = table(seed, null=null)
    if null:
        return y, [], []
    return y, [children(seed)], [h]
