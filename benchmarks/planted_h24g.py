"""The ``h24g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-fourth session (seeds 2400-2409, ``planted_general.generate_all("h24g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2490 and up are free for smoke tests of
the sampling. Its own sampling code (nothing shared with the other generators).

What a biologist would recognise: **a phosphoproteomics table** (label-free LC-MS/MS, MaxQuant or
Spectronaut output after the lab's own filtering) of a small signalling network whose **kinase is not
measured**: the activating site of a kinase is often never seen (a low-abundance protein, a peptide
that does not fly), while its substrates' sites are. The table is handed **as a lab hands it: log2
intensities with empty cells**, most of them **below the detection limit** (missing not at random:
a faint site goes missing where it is low), sites quantified in fewer than half the samples already
filtered out, each sample median-normalised. No seen general generator (rn, dag, dag-root, sparse,
dense, small-m, hub, layered, upstream, modular, tanh, mixed, roots, fanin, h16g-h23g) has a missing
cell: every one hands a complete table (``h19m``, a genome table, had 2-5 % of its spots missing).

* **Sites and their drive.** N0 (32-60) sites in a DAG along a random order (mean in-degree U(0.8,
  1.6), weights +-U(0.4, 1.0)); a site's drive ``d_v = sum_u w_uv z_u + e_v`` (``z_u`` the parent's
  drive standardized, e_v ~ N(0, 1)). The phosphorylated share is saturating, **one-sided**: the site's
  occupancy ``sigmoid(o_v + g_v d_v)`` (offset o_v U(-2.5, 1.5), gain g_v U(0.7, 2.0)), so a site low
  in occupancy reads its drive in log units and a near-saturated one flattens (not ``tanh``'s two-sided
  saturation, not ``h23g``'s Hill terms of concentrations).
* **Proteins.** The sites sit on proteins of 1-3 sites each (60 % single); the sites of one protein
  share its abundance, log2 N(0, p) per sample, p U(0.15, 0.5) per protein: a correlation no regulator
  makes.
* **Measurement.** ``y = mu_v + log2(occupancy / its value at d = 0) + abundance + load_i + N(0, s)``,
  mu_v U(20, 30) (log2 LFQ intensities), the sample load ``load_i`` N(0, U(0.2, 0.5)), s U(0.1, 0.3)
  per seed. **Detection**: per sample a limit at its q_i-quantile, q_i = q exp(N(0, 0.3)), q U(0.12,
  0.35) per seed; a cell goes missing with probability ``sigmoid((limit - y) / 0.25)``, plus 1 % at
  random. **The lab's processing**: sites with fewer than half their samples quantified dropped, then
  each sample minus the median of its quantified cells (plus the grand median): log2 intensities with
  NaN in the empty cells, never imputed.

What it plants:

* M drawn log-uniformly in 30..240 (phosphoproteomics cohorts are small).
* **h** (the kinase) at 10-40 % of the order; on half the seeds h has one observed parent before it (h =
  a z_parent + sqrt(1 - a^2) e, |a| U(0.4, 0.7)), else a root N(0, 1).
* **5-15 substrate sites** after h; each child's drive is ``sqrt(1 - c) x its other drive standardized
  + sqrt(c) x sign x h``, c U(0.3, 0.6), sign + on 75 % (a kinase adds phosphate; a phosphatase-like
  minus on the rest); a share U(0.4, 0.8) of them given an observed parent besides h when the DAG gave
  none. The children kept by the lab's filter are the truth (a child filtered out is not in the table).

Truth, as for the other generators: h's planted child set among the kept sites, and h standardized.
Recovered (``bench_regulators.general``): the kept H that tracks h best reaches children precision and
recall >= 0.8 and |corr(H, h)| >= 0.9. :func:`true_edges` lists the observed edges among the kept sites
(the table's column indices). The missing cells go to the method as missing (``from_array`` marks NaN
cells; ``HiddenSearch`` integrates them out by EM as missing at random, which they are not).

``h24g-null`` (``null=True``): the same sites, proteins, loads, noise and missing-cell draws without h's
term in its children; the detection limits, the kept sites and the per-sample normalisation are computed
once, from the table without h's effect, and used for both, so a site off h's paths has the same values
and the same empty cells in both tables.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Hold-out ``h24g``"):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h24g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.special import expit

SEED0 = 2400  # the first hold-out seed (seed index 0)
N0_RANGE, M_RANGE = (32, 60), (30, 240)  # sites before the filter; M drawn log-uniformly
MEAN_DEGREE, WEIGHT = (0.8, 1.6), (0.4, 1.0)
OFFSET, GAIN = (-2.5, 1.5), (0.7, 2.0)
H_PLACE, P_PARENT, H_UP = (0.10, 0.40), 0.5, (0.4, 0.7)
KIDS, H_SHARE, P_PLUS, CO_PARENT_SHARE = (5, 15), (0.3, 0.6), 0.75, (0.4, 0.8)
SITES_PER_PROTEIN, PROT_SD = (0.6, 0.25, 0.15), (0.15, 0.5)  # P(1, 2, 3 sites); abundance sd (log2)
MU, LOAD_SD, MEAS_SD = (20.0, 30.0), (0.2, 0.5), (0.1, 0.3)
LOD_Q, LOD_JITTER, LOD_SOFT, MCAR, VALID = (0.12, 0.35), 0.3, 0.25, 0.01, 0.5


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N0 drawn sites and h (index N0): the order of all N0 + 1 (h at
    ``place``), the weights w[parent, site] (h's row: 1 on its children), h's observed parent (-1 for a
    root) and its coefficient, its children (sorted, before the filter), their h share and sign, each
    site's occupancy offset and gain, its protein (index)."""

    order: np.ndarray
    w: np.ndarray
    parent: int
    up: float
    children: np.ndarray
    share: np.ndarray
    sign: np.ndarray
    offset: np.ndarray
    gain: np.ndarray
    protein: np.ndarray


def n_drawn(seed: int) -> int:
    """The number of sites drawn (before the lab's filter) of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N0_RANGE[0], N0_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


@lru_cache(maxsize=16)  # drawn once per seed: the table, its null and the truth share it
def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n = n_drawn(seed)
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
    offset, gain = rng.uniform(*OFFSET, size=n), rng.uniform(*GAIN, size=n)
    sizes = rng.choice([1, 2, 3], size=n, p=SITES_PER_PROTEIN)
    protein = np.repeat(np.arange(n), sizes)[:n][rng.permutation(n)]
    return Network(order, w, parent, up, kids, share, sign, offset, gain, protein)


@lru_cache(maxsize=16)
def _drives(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each site's drive with and without h's term (M, N0), and h: one pass along the order, the same
    draws for both (a site off h's paths has the same drive in both)."""
    net, n, m = network(seed), n_drawn(seed), n_samples(seed)
    rng = np.random.default_rng([SEED0 + seed, 4])
    e = rng.normal(size=(m, n + 1))
    d, d0 = np.zeros((m, n + 1)), np.zeros((m, n + 1))
    z, z0 = np.zeros((m, n + 1)), np.zeros((m, n + 1))
    kid = {int(v): i for i, v in enumerate(net.children)}
    for v in net.order:
        if v == n:  # h: its parent's standardized drive (the same in both tables: it is before h)
            h = e[:, n] if net.parent < 0 else net.up * z[:, net.parent] + np.sqrt(1.0 - net.up**2) * e[:, n]
            d[:, n] = d0[:, n] = z[:, n] = z0[:, n] = (h - h.mean()) / h.std()
            continue
        ins = np.flatnonzero(net.w[:n, v])
        for out, zz in ((d, z), (d0, z0)):
            out[:, v] = zz[:, ins] @ net.w[ins, v] + e[:, v]
        if v in kid:
            i = kid[v]
            own = (d[:, v] - d[:, v].mean()) / d[:, v].std()
            own0 = (d0[:, v] - d0[:, v].mean()) / d0[:, v].std()
            d[:, v] = np.sqrt(1.0 - net.share[i]) * own + np.sqrt(net.share[i]) * net.sign[i] * z[:, n]
            d0[:, v] = np.sqrt(1.0 - net.share[i]) * own0
        z[:, v] = (d[:, v] - d[:, v].mean()) / d[:, v].std()
        z0[:, v] = (d0[:, v] - d0[:, v].mean()) / d0[:, v].std()
    return d[:, :n], d0[:, :n], z[:, n]


def _measure(seed: int, net: Network, d: np.ndarray) -> np.ndarray:
    """The log2 intensities before detection (M, N0) of the drives ``d``: occupancy, protein abundance,
    sample load and measurement noise (the same draws for any ``d``)."""
    m, n = d.shape
    rng = np.random.default_rng([SEED0 + seed, 5])
    mu = rng.uniform(*MU, size=n)
    prot = rng.normal(size=(m, n)) * rng.uniform(*PROT_SD, size=n)
    abundance = prot[:, net.protein]  # a protein's sites share its abundance
    load = rng.normal(size=(m, 1)) * rng.uniform(*LOAD_SD)
    noise = rng.normal(size=(m, n)) * rng.uniform(*MEAS_SD)
    occ = np.log2(expit(net.offset + net.gain * d) / expit(net.offset))
    return mu + occ + abundance + load + noise


@lru_cache(maxsize=16)
def detection(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per sample its detection limit (from the table without h's effect), the missing cells (M, N0) of
    the table without h and the uniforms that decide them (shared by both tables)."""
    net = network(seed)
    _, d0, _ = _drives(seed)
    y0 = _measure(seed, net, d0)
    rng = np.random.default_rng([SEED0 + seed, 7])
    q = rng.uniform(*LOD_Q) * np.exp(LOD_JITTER * rng.normal(size=len(y0)))
    limit = np.array([np.quantile(row, min(qi, 0.6)) for row, qi in zip(y0, q, strict=True)])
    u, mcar = rng.random(y0.shape), rng.random(y0.shape)
    return limit, _missing(y0, limit, u, mcar), np.stack([u, mcar])


def _missing(y: np.ndarray, limit: np.ndarray, u: np.ndarray, mcar: np.ndarray) -> np.ndarray:
    return (u < expit((limit[:, None] - y) / LOD_SOFT)) | (mcar < MCAR)


def kept_sites(seed: int) -> np.ndarray:
    """The drawn sites the lab's filter keeps (quantified in at least half the samples of the table
    without h's effect), in drawn order: column j of the table is site ``kept_sites(seed)[j]``."""
    _, miss0, _ = detection(seed)
    return np.flatnonzero((~miss0).mean(axis=0) >= VALID)


def n_vars(seed: int) -> int:
    """The number of sites in the table (after the filter) of seed index ``seed``."""
    return len(kept_sites(seed))


def table(seed: int, *, null: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The table as handed (M, N: normalised log2 intensities, NaN in the empty cells) and h (standardized)."""
    net = network(seed)
    d, d0, h = _drives(seed)
    limit, miss0, (u, mcar) = detection(seed)
    y0 = _measure(seed, net, d0)
    y = y0 if null else _measure(seed, net, d)
    miss = _missing(y, limit, u, mcar)
    centre = np.array([np.median(r[~mr]) for r, mr in zip(y0, miss0, strict=True)])  # from the h-free table
    keep = kept_sites(seed)
    out = np.where(miss, np.nan, y - centre[:, None] + np.median(centre))[:, keep]
    return out, h.copy()


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) among the kept sites, as column indices."""
    net = network(seed)
    keep = kept_sites(seed)
    col = {int(v): j for j, v in enumerate(keep)}
    n = n_drawn(seed)
    pairs = zip(*np.nonzero(net.w[:n, :n]), strict=True)
    return [(col[int(p)], col[int(c)]) for p, c in pairs if p in col and c in col]


def children(seed: int) -> set[int]:
    """h's planted children among the kept sites (column indices)."""
    col = {int(v): j for j, v in enumerate(kept_sites(seed))}
    return {col[int(v)] for v in network(seed).children if int(v) in col}


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) as a phosphoproteomics table (normalised log2 intensities, NaN where not quantified),
    [h's children among the kept sites] and [h standardized] (empty lists for ``null``). ``seed`` is the
    index (0 = seed 2400)."""
    y, h = table(seed, null=null)
    if null:
        return y, [], []
    return y, [children(seed)], [h]
