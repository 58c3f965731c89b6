"""The ``h29g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the twenty-ninth session (seeds 2900-2909, ``planted_general.generate_all("h29g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, at the start of the next session; seeds 2990-2999 are free for smoke tests of
the sampling. Its own sampling code (nothing shared with the other generators).

What a biologist (or a clinician) would recognise: **a routine clinical laboratory panel** exported from
a hospital's laboratory information system for a cohort of outpatients: chemistry and haematology
analytes, one row a blood draw, **each column in its own clinical unit and reported at the resolution the
analyser prints** (sodium in whole mmol/L, creatinine in whole umol/L, bilirubin to 0.1...), values
outside an assay's reportable range **handed as the limit** (``<3`` read as 3, ``>1650`` as 1650), the
patient's sex among the columns (reference ranges need it) and the analyser's **haemolysis index**. The
cytokine that drives the acute-phase analytes (IL-6) is **not on a routine panel**. No seen general
generator (rn, dag, dag-root, sparse, dense, small-m, hub, layered, upstream, modular, tanh, mixed, roots,
fanin, h16g-h28g) has **columns rounded to a reporting resolution** (a tightly regulated analyte such as
sodium takes 15-60 distinct values: ties everywhere, no smooth density), **three kinds of columns side by
side** (homeostatic near-normal analytes with a CV of 1-4 %, near-normal proteins and cell counts with a
CV of 6-15 %, right-skewed log-normal enzymes, hormones and markers with a log sd of 0.3-1.0, all in raw
units), **censoring at a reportable limit that is not 0** (a point mass at the limit) or **an in-vitro
artefact of the sample tube** (haemolysis releases red-cell potassium, LDH, AST, phosphate and
magnesium: a common cause of several analytes that is the draw's, not the patient's, with its own index
as a coarse, censored proxy):

* **Columns.** N (30-50): N - 2 analytes, then ``sex`` (0 female, 1 male) and ``H-index`` (free
  haemoglobin in mg/dL, reported to 5 mg/dL, ``<5`` read as 5). An analyte's kind: homeostatic (20 %;
  value ``mean x (1 + cv z)``, mean log-uniform 1..150, cv U(0.01, 0.04)), near-normal (35 %; cv U(0.06,
  0.15)) or log-normal (45 %; ``median x exp(s z)``, median log-uniform 0.5..500, s U(0.3, 1.0)); ``z``
  its standardized drive. Analytical error: a multiplicative N(0, a), a U(0.01, 0.04). Reported to a
  resolution of sd / U(1.5, 4) (homeostatic), sd / U(3, 10) (near-normal) or median / U(8, 60)
  (log-normal), rounded down to 1, 2 or 5 x a power of ten; 40 % of the log-normal analytes have a lower
  reportable limit at their U(5, 30) % quantile and 30 % an upper one at their U(97, 99.5) % quantile,
  values past a limit handed as the limit.
* **Patients and draws.** Sex Bernoulli(U(0.4, 0.6)); it moves 20-35 % of the analytes (haemoglobin,
  creatinine, ferritin, urate...: a term +-U(0.3, 0.8) on their drive, edges of the network). Haemolysis:
  free haemoglobin log-normal around 3 mg/dL in most draws, U(50, 400) mg/dL in a share U(0.04, 0.12); it
  adds U(0.3, 1.2) analyte sd per 100 mg/dL to 3-6 intracellular analytes (not h's children).
* **Analytes and their drive.** The N - 2 analytes in a DAG along a random order (mean in-degree U(0.8,
  1.8), weights +-U(0.4, 1.0)); an analyte's drive ``d_v = sum_u w_uv z_u + sex term + e_v`` (z_u the
  parent's drive standardized, e_v ~ N(0, 1), independent draws). M log-uniform in 120..900.

What it plants:

* **h** (the unmeasured IL-6) at 10-40 % of the order; on half the seeds h has one observed parent
  before it (h = a z_parent + sqrt(1 - a^2) e, |a| U(0.4, 0.7)), else a root N(0, 1).
* **5-15 analytes after h** (near-normal or log-normal, never homeostatic) are its children (the
  acute-phase reactants); each child's drive is ``sqrt(1 - c) x its other drive standardized + sqrt(c) x
  sign x h``, c U(0.35, 0.65), sign + on 65 % (CRP, ferritin, fibrinogen, platelets up; albumin,
  transferrin, iron are negative acute-phase reactants); a share U(0.4, 0.8) of them given an observed
  parent besides h when the DAG gave none.

Truth, as for the other generators: h's planted child set, and h standardized. Recovered
(``bench_regulators.general``): the kept H that tracks h best reaches children precision and recall >=
0.8 and |corr(H, h)| >= 0.9. :func:`true_edges` lists the analytes' edges and sex's (column indices; the
haemolysis is not an edge of the network). The table is in its own units (each analyte's clinical unit),
complete; :func:`haemolysis` gives each draw's free haemoglobin (not handed to the method).

``h29g-null`` (``null=True``): the same analytes, patients, sexes, haemolysis, analytical errors and limits
without h's term in its children (each column draws from its own stream): an analyte off h's paths has the
same values in both. The null's only common cause beyond the network is the haemolysis (on 3-6 analytes,
with the H-index as its censored proxy), so any kept H is false; one on the haemolysis is what this
assay makes.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Hold-out ``h29g``"):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators.py --skip-timing --only h29g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SEED0 = 2900  # the first hold-out seed (seed index 0)
N_RANGE, M_RANGE = (30, 50), (120, 900)  # N with sex and the H-index; M drawn log-uniformly
MEAN_DEGREE, WEIGHT = (0.8, 1.8), (0.4, 1.0)
H_PLACE, P_PARENT, H_UP = (0.10, 0.40), 0.5, (0.4, 0.7)
KIDS, H_SHARE, P_PLUS, CO_PARENT_SHARE = (5, 15), (0.35, 0.65), 0.65, (0.4, 0.8)
KINDS, P_KIND = ("homeostatic", "normal", "lognormal"), (0.20, 0.35, 0.45)
TIGHT_CV, NORMAL_CV, LOG_SD, MEAN, MEDIAN = (0.01, 0.04), (0.06, 0.15), (0.3, 1.0), (1.0, 150.0), (0.5, 500.0)
ANALYTIC, STEPS_TIGHT, STEPS, LOG_STEPS = (0.01, 0.04), (1.5, 4.0), (3.0, 10.0), (8.0, 60.0)
P_LOW, LOW_Q, P_HIGH, HIGH_Q = 0.4, (0.05, 0.30), 0.3, (0.97, 0.995)
P_MALE, SEX_SHARE, SEX_EFFECT = (0.4, 0.6), (0.20, 0.35), (0.3, 0.8)
HAEMOLYSED, FREE_HB, LYSED_HB, LYSIS_EFFECT, N_LYSIS = (0.04, 0.12), 3.0, (50.0, 400.0), (0.3, 1.2), (3, 6)
H_INDEX_STEP = 5.0  # mg/dL: the H-index's resolution and lower limit


@dataclass(frozen=True)
class Network:
    """One seed's planted structure over N - 2 analytes and h (index N - 2): the order of all N - 1 (h at
    ``place``), the weights w[parent, analyte] (h's row: 1 on its children), sex's term on each analyte,
    h's observed parent (-1 for a root) and its coefficient, its children (sorted), their h share and
    sign, each analyte's kind (index into ``KINDS``)."""

    order: np.ndarray
    w: np.ndarray
    sex: np.ndarray
    parent: int
    up: float
    children: np.ndarray
    share: np.ndarray
    sign: np.ndarray
    kind: np.ndarray


def n_vars(seed: int) -> int:
    """The number of columns (analytes, sex and the H-index) of seed index ``seed``."""
    return int(np.random.default_rng([SEED0 + seed, 1]).integers(N_RANGE[0], N_RANGE[1] + 1))


def n_samples(seed: int) -> int:
    """M (blood draws) of seed index ``seed``, log-uniform in ``M_RANGE``."""
    u = np.random.default_rng([SEED0 + seed, 6]).uniform(*np.log(M_RANGE))
    return int(np.clip(round(np.exp(u)), *M_RANGE))


@lru_cache(maxsize=16)  # drawn once per seed: the table, its null and the truth share it
def network(seed: int) -> Network:
    """The planted structure of seed index ``seed`` (see the module docstring)."""
    n = n_vars(seed) - 2
    rng = np.random.default_rng([SEED0 + seed, 2])
    obs = rng.permutation(n)
    kind = rng.choice(len(KINDS), size=n, p=P_KIND)
    place = max(2, int(round(n * rng.uniform(*H_PLACE))))
    order = np.insert(obs, place, n)
    rank = np.argsort(order)
    w = np.zeros((n + 1, n + 1))
    p = min(1.0, 2.0 * rng.uniform(*MEAN_DEGREE) / (n - 1))
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                w[obs[i], obs[j]] = rng.uniform(*WEIGHT) * rng.choice([-1.0, 1.0])
    sexed = rng.choice(n, size=int(round(n * rng.uniform(*SEX_SHARE))), replace=False)
    sex = np.zeros(n)
    sex[sexed] = rng.uniform(*SEX_EFFECT, size=len(sexed)) * rng.choice([-1.0, 1.0], size=len(sexed))
    parent = int(rng.choice(obs[:place])) if rng.random() < P_PARENT else -1
    up = rng.uniform(*H_UP) * rng.choice([-1.0, 1.0]) if parent >= 0 else 0.0
    after = np.array([v for v in obs[place:] if kind[v] != 0])
    n_kids = min(int(rng.integers(KIDS[0], KIDS[1] + 1)), len(after))
    kids = np.sort(rng.choice(after, size=n_kids, replace=False))
    n_co = int(round(n_kids * rng.uniform(*CO_PARENT_SHARE)))
    for v in rng.choice(kids, size=n_co, replace=False):  # at least one observed co-parent
        if not w[:n, v].any():
            w[int(rng.choice(obs[: rank[v] - 1])), v] = rng.uniform(*WEIGHT) * rng.choice([-1.0, 1.0])
    w[n, kids] = 1.0
    share = rng.uniform(*H_SHARE, size=n_kids)
    sign = np.where(rng.random(n_kids) < P_PLUS, 1.0, -1.0)
    return Network(order, w, sex, parent, up, kids, share, sign, kind)


@lru_cache(maxsize=16)
def _draws(seed: int) -> dict[str, np.ndarray]:
    """Per draw: the patient's ``sex`` (0/1) and the tube's free haemoglobin ``hb`` (mg/dL); the
    haemolysed analytes ``lysed`` and their sd per 100 mg/dL ``lysis``."""
    n, m = n_vars(seed) - 2, n_samples(seed)
    rng = np.random.default_rng([SEED0 + seed, 3])
    sex = (rng.random(m) < rng.uniform(*P_MALE)).astype(float)
    hb = FREE_HB * np.exp(0.5 * rng.normal(size=m))
    lysed = rng.random(m) < rng.uniform(*HAEMOLYSED)
    hb[lysed] = rng.uniform(*LYSED_HB, size=int(lysed.sum()))
    free = np.setdiff1d(np.arange(n), network(seed).children)
    cells = np.sort(rng.choice(free, size=min(len(free), int(rng.integers(N_LYSIS[0], N_LYSIS[1] + 1))), replace=False))
    return {"sex": sex, "hb": hb, "lysed": cells, "lysis": rng.uniform(*LYSIS_EFFECT, size=len(cells))}


def haemolysis(seed: int) -> np.ndarray:
    """Each draw's free haemoglobin (mg/dL) before the H-index's rounding."""
    return _draws(seed)["hb"].copy()


@lru_cache(maxsize=16)
def _drives(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each analyte's standardized drive with and without h's term (M, N - 2), and h: one pass along the
    order, the same noises for both (an analyte off h's paths has the same drive in both)."""
    net, n, m = network(seed), n_vars(seed) - 2, n_samples(seed)
    e = np.random.default_rng([SEED0 + seed, 4]).normal(size=(m, n + 1))
    sex = _draws(seed)["sex"]
    sex = (sex - sex.mean()) / max(sex.std(), 1e-12)
    z, z0 = np.zeros((m, n + 1)), np.zeros((m, n + 1))
    kid = {int(v): i for i, v in enumerate(net.children)}
    for v in net.order:
        if v == n:  # h: its parent's standardized drive (the same in both tables: it is before h)
            own = e[:, n]
            h = own if net.parent < 0 else net.up * z[:, net.parent] + np.sqrt(1.0 - net.up**2) * own
            z[:, n] = z0[:, n] = (h - h.mean()) / h.std()
            continue
        ins = np.flatnonzero(net.w[:n, v])
        base = net.sex[v] * sex + e[:, v]
        d, d0 = z[:, ins] @ net.w[ins, v] + base, z0[:, ins] @ net.w[ins, v] + base
        if v in kid:
            i = kid[v]
            own, own0 = (d - d.mean()) / d.std(), (d0 - d0.mean()) / d0.std()
            d = np.sqrt(1.0 - net.share[i]) * own + np.sqrt(net.share[i]) * net.sign[i] * z[:, n]
            d0 = np.sqrt(1.0 - net.share[i]) * own0
        z[:, v], z0[:, v] = (d - d.mean()) / d.std(), (d0 - d0.mean()) / d0.std()
    return z[:, :n], z0[:, :n], z[:, n]


def _nice(step: float) -> float:
    """``step`` rounded down to 1, 2 or 5 x a power of ten (a printed resolution)."""
    p = 10.0 ** np.floor(np.log10(step))
    return float(p * max(c for c in (1.0, 2.0, 5.0) if c * p <= step))


@lru_cache(maxsize=16)
def assays(seed: int) -> dict[str, np.ndarray]:
    """Per analyte: its ``centre`` (mean or median), ``spread`` (cv or log sd), analytical cv ``analytic``,
    printed ``resolution`` and reportable ``low`` and ``high`` limits (0 and inf for none); drawn on the
    null's values so both tables share them."""
    net, n = network(seed), n_vars(seed) - 2
    rng = np.random.default_rng([SEED0 + seed, 7])
    log = net.kind == 2
    centre = np.where(log, np.exp(rng.uniform(*np.log(MEDIAN), n)), np.exp(rng.uniform(*np.log(MEAN), n)))
    spread = np.select(
        [net.kind == 0, net.kind == 1], [rng.uniform(*TIGHT_CV, n), rng.uniform(*NORMAL_CV, n)], rng.uniform(*LOG_SD, n)
    )
    analytic = rng.uniform(*ANALYTIC, n)
    true = _truth(centre, spread, log, _drives(seed)[1])
    sd = true.std(axis=0)
    steps = np.where(net.kind == 0, rng.uniform(*STEPS_TIGHT, n), rng.uniform(*STEPS, n))
    steps = np.where(log, centre / rng.uniform(*LOG_STEPS, n), sd / steps)
    resolution = np.array([_nice(s) for s in steps])
    low_q, high_q = rng.uniform(*LOW_Q, n), rng.uniform(*HIGH_Q, n)
    has_low, has_high = log & (rng.random(n) < P_LOW), log & (rng.random(n) < P_HIGH)
    low = np.where(has_low, [np.quantile(true[:, v], low_q[v]) for v in range(n)], 0.0)
    high = np.where(has_high, [np.quantile(true[:, v], high_q[v]) for v in range(n)], np.inf)
    low, high = np.ceil(low / resolution) * resolution, np.floor(high / resolution) * resolution
    return {
        "centre": centre,
        "spread": spread,
        "analytic": analytic,
        "resolution": resolution,
        "low": low,
        "high": high,
    }


def _truth(centre: np.ndarray, spread: np.ndarray, log: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Each analyte's level in the patient's blood (its unit) from the standardized drives ``z``."""
    return np.where(log, centre * np.exp(spread * z), centre * np.maximum(1.0 + spread * z, 0.05))


def table(seed: int, *, null: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The table as handed (M draws, N columns: the analytes in their units and resolutions, sex, the
    H-index) and h (standardized). Each analyte draws its analytical error from its own stream."""
    z, z0, h = _drives(seed)
    a, d, net = assays(seed), _draws(seed), network(seed)
    level = _truth(a["centre"], a["spread"], net.kind == 2, z0 if null else z)
    sd = _truth(a["centre"], a["spread"], net.kind == 2, z0).std(axis=0)
    level[:, d["lysed"]] += d["hb"][:, None] / 100.0 * d["lysis"] * sd[d["lysed"]]
    cols = []
    for v in range(level.shape[1]):
        rng = np.random.default_rng([SEED0 + seed, 5, v])
        x = level[:, v] * (1.0 + a["analytic"][v] * rng.normal(size=level.shape[0]))
        x = np.round(np.maximum(x, 0.0) / a["resolution"][v]) * a["resolution"][v]
        cols.append(np.clip(x, a["low"][v], a["high"][v]))
    index = np.maximum(np.round(d["hb"] / H_INDEX_STEP), 1.0) * H_INDEX_STEP
    return np.column_stack([*cols, d["sex"], index]), h.copy()


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The analyte-to-analyte edges (parent, child) of the network and sex's (column N - 2), as column
    indices."""
    net, n = network(seed), n_vars(seed) - 2
    edges = [(int(p), int(c)) for p, c in zip(*np.nonzero(net.w[:n, :n]), strict=True)]
    return edges + [(n, int(c)) for c in np.flatnonzero(net.sex)]


def children(seed: int) -> set[int]:
    """h's planted children (column indices)."""
    return {int(v) for v in network(seed).children}


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) as a clinical laboratory export (analytes in their units, then sex and the H-index),
    [h's children] and [h standardized] (empty lists for ``null``). ``seed`` is the index (0 = seed 2900)."""
    y, h = table(seed, null=null)
    if null:
        return y, [], []
    return y, [children(seed)], [h]
