"""The ``h17g`` generator of planted hidden regulators in general networks (#22 deliverable 1).

The hold-out of the seventeenth session (seeds 1700-1709, ``planted_general.generate_all("h17g",
s)`` with s = 0..9), written and committed before anything of that session was tuned and run only
once, by the lead, on its final code; seeds 1790 and up are free for smoke tests and timing. It
does not share the other generators' sampling code. What it stresses that none of the seen ones
does (JMLR 2007 section 6 adds a hidden variable *anywhere* in a network, not only as a root):

* **A regulator in the middle of a pathway.** h is not a root: it has 1 or 2 observed parents
  (half the seeds each) that explain R^2 ~ U(0.25, 0.55) of it (``h = sqrt(R^2) z(a . z(parents)) +
  sqrt(1 - R^2) e``), and sits at 15-40 % of the order. (``upstream`` had one parent at a fixed
  place; here two parents make a v-structure u1 -> H <- u2 that the score can orient.)
* **Children that are leaves, or relays.** The seed draws a mode: ``leaf`` (every child of h has
  its own outgoing edges removed: h's effect stops at its children) or ``relay`` (half to all of
  h's children get 1-3 children of their own among the later non-children at +-U(0.5, 1.0): h's
  effect reaches grandchildren through strong observed edges, which compete with the children for
  H's child set).
* **Dose-response children.** About a third of the children respond to h through a sigmoid
  ``z(1 / (1 + exp(-k (h - t))))`` (k ~ U(1.5, 4), t ~ U(-0.6, 0.6)): saturating, monotone.
* **A pathway skeleton, not Erdos-Renyi.** A banded DAG: each variable's parents come from the
  B previous ones in a random order (B drawn in 6..12, each with probability q ~ U(0.12, 0.30)
  per seed), plus with probability 0.15 one long-range parent from further back; weights
  +-U(0.3, 1.0) on the *standardized* parent times the child's noise sd.
* **Contaminated and heteroscedastic noise.** Per variable (sd log-uniform in [0.5, 1.5]): Gaussian
  (half), a scale mixture (a share U(0.05, 0.15) of the cells with 3x the sd: occasional bad
  measurements, scaled to that sd; a quarter) or heteroscedastic (sd growing with the variable's
  own observed drive, ``e exp(g z(d)) / rms``, g ~ U(0.3, 0.7); a quarter).

The network: N drawn per seed in 40..60 observed variables; h's 5-16 children drawn among the
variables after h in the order, loads +-U(0.6, 1.4), signs equally likely, scaled up together
until sum c^2 >= 4.5 (as ``roots`` and ``h16g``: a linear summary of the children can then track
h); child v gets ``c_v * sd(d_v + e_v) * f_v(h)`` (d_v its observed parents' term, e_v its noise,
f_v = h or the sigmoid above) during ancestral sampling. M drawn log-uniformly in 50..500 per seed.
Columns scaled to unit variance.

Truth, as for the other generators: h's planted child set (its grandchildren and its observed
parents are not its children). Recovered (``bench_regulators.general``): the kept H that tracks h
best reaches children precision and recall >= 0.8 and |corr(H, h)| >= 0.9. Why it is fair: with
one parent u, u -> H and H -> u are score-equivalent, and with >= 5 children an H that takes u as a
child still has P >= 5/6; every root keeps sum c^2 >= 4.5 and the unexplained part of h has
variance >= 0.45; the sigmoid children stay monotone in h.

``h17g-null`` (``null=True``): the same DAG (relay edges and leaf cuts included), h's parents and
the noise draws, without h; any kept H is a false regulator.

Run once, on the final code (40-380 s of CPU per network on the smoke seeds 1796, 1798 and 1799
at load 10-14, 160 s on 1799's null; budget 30-60 min of CPU for the 20 networks):
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators.py --skip-timing --only h17g --hold-out --null
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEED0 = 1700  # the first hold-out seed (seed index 0)
N_RANGE = (40, 60)
M_RANGE = (50, 500)  # drawn log-uniformly
BAND, P_BAND = (6, 12), (0.12, 0.30)
P_LONG = 0.15  # a variable's chance of one long-range parent from before its band
WEIGHTS = (0.3, 1.0)  # on a standardized parent, times the child's noise sd
NOISE_SD = (0.5, 1.5)
NOISE_KINDS, P_NOISE = ("gaussian", "contaminated", "hetero"), (0.5, 0.25, 0.25)
CONTAM_SHARE, CONTAM_SCALE = (0.05, 0.15), 3.0
HETERO_G = (0.3, 0.7)
H_PLACE = (0.15, 0.40)  # h's place in the order, as a share of N
H_R2 = (0.25, 0.55)  # the share of h's variance its observed parents explain
H_COEF = (0.5, 1.0)  # |a| of each observed parent before the scaling to H_R2
KIDS = (5, 16)
LOADS = (0.6, 1.4)
MIN_LOAD2 = 4.5  # the loads are scaled up together until their sum of squares reaches this
P_SIGMOID, SIG_K, SIG_T = 1 / 3, (1.5, 4.0), (-0.6, 0.6)
P_RELAY = 0.5  # the seed's mode: ``relay`` with this probability, else ``leaf``
RELAY_SHARE, RELAY_KIDS, RELAY_WEIGHTS = (0.5, 1.0), (1, 3), (0.5, 1.0)


@dataclass(frozen=True)
class Network:
    """One seed's planted structure: the order of the observed variables, w[parent, child] (on
    standardized parents, in units of the child's noise sd), h's place (it is sampled just before
    ``order[place]``), its observed parents and their coefficients, its children (sorted), their
    loads ``c`` (per variable, 0 off the children), the sigmoid (k, t) of each dose-response child,
    the mode (``"leaf"`` or ``"relay"``) and the relay children (with children of their own)."""

    order: np.ndarray
    w: np.ndarray
    place: int
    h_parents: tuple[int, ...]
    h_coef: tuple[float, ...]
    h_r2: float
    children: np.ndarray
    c: np.ndarray
    sigmoid: dict[int, tuple[float, float]]
    mode: str
    relays: tuple[int, ...]


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
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    band, q = int(rng.integers(BAND[0], BAND[1] + 1)), rng.uniform(*P_BAND)
    w = np.zeros((n, n))
    for i in range(1, n):
        for j in range(max(0, i - band), i):
            if rng.random() < q:
                w[order[j], order[i]] = _signed(rng, WEIGHTS)
        if i > band and rng.random() < P_LONG:
            w[order[int(rng.integers(0, i - band))], order[i]] = _signed(rng, WEIGHTS)
    place = int(round(n * rng.uniform(*H_PLACE)))
    n_par = int(rng.integers(1, 3))
    h_parents = tuple(int(u) for u in rng.choice(order[:place], size=n_par, replace=False))
    h_coef = tuple(float(a) for a in _signed(rng, H_COEF, n_par))
    h_r2 = float(rng.uniform(*H_R2))
    n_kids = int(rng.integers(KIDS[0], KIDS[1] + 1))
    children = np.sort(rng.choice(order[place:], size=n_kids, replace=False))
    loads = rng.uniform(*LOADS, size=n_kids)
    loads *= max(1.0, np.sqrt(MIN_LOAD2 / np.sum(loads**2)))
    c = np.zeros(n)
    c[children] = rng.choice([-1.0, 1.0], size=n_kids) * loads
    sigmoid = {
        int(v): (float(rng.uniform(*SIG_K)), float(rng.uniform(*SIG_T))) for v in children if rng.random() < P_SIGMOID
    }
    mode = "relay" if rng.random() < P_RELAY else "leaf"
    kid_set = set(children.tolist())
    relays: list[int] = []
    if mode == "leaf":
        w[children, :] = 0.0  # h's children have no observed children
    else:
        able = [int(v) for v in children if any(int(u) not in kid_set for u in order[rank[v] + 1 :])]
        k = min(len(able), max(1, int(np.ceil(n_kids * rng.uniform(*RELAY_SHARE)))))
        for v in rng.choice(able, size=k, replace=False):
            later = np.array([u for u in order[rank[v] + 1 :] if int(u) not in kid_set])
            for u in rng.choice(
                later, size=min(len(later), int(rng.integers(RELAY_KIDS[0], RELAY_KIDS[1] + 1))), replace=False
            ):
                w[v, u] = _signed(rng, RELAY_WEIGHTS)
            relays.append(int(v))
    return Network(order, w, place, h_parents, h_coef, h_r2, children, c, sigmoid, mode, tuple(sorted(relays)))


def dag(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The random order and the weight matrix w[parent, child] of seed index ``seed``."""
    net = network(seed)
    return net.order, net.w


def true_edges(seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of seed index ``seed``."""
    _, w = dag(seed)
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def noise_kinds(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per variable of seed index ``seed``: its noise sd and its noise kind (``NOISE_KINDS``)."""
    n = n_vars(seed)
    rng = np.random.default_rng([SEED0 + seed, 5])
    sd = np.exp(rng.uniform(*np.log(NOISE_SD), size=n))
    return sd, rng.choice(np.array(NOISE_KINDS), size=n, p=P_NOISE)


def _z(v: np.ndarray) -> np.ndarray:
    sd = v.std()
    return (v - v.mean()) / sd if sd > 0 else v * 0.0


def _noise(rng: np.random.Generator, kind: str, sd: float, drive: np.ndarray) -> np.ndarray:
    """One variable's noise, mean 0 and sd ``sd`` (the heteroscedastic kind's sd grows with its
    observed ``drive``: ``drive`` is the same with and without h, so is the noise)."""
    m = len(drive)
    g, share = rng.uniform(*HETERO_G), rng.uniform(*CONTAM_SHARE)
    e = rng.normal(size=m)
    bad = rng.random(m) < share
    if kind == "contaminated":  # a scale mixture, rescaled to unit sd
        e = np.where(bad, CONTAM_SCALE * e, e) / np.sqrt(1.0 + share * (CONTAM_SCALE**2 - 1.0))
    elif kind == "hetero":
        grow = np.exp(g * _z(drive))
        e = e * grow / np.sqrt(np.mean(grow**2))
    return sd * e


def generate(seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance, and [h's children] and [h] (empty lists for ``null``:
    the same network and noise without h). ``seed`` is the index (0 = hold-out seed 1700)."""
    net = network(seed)
    n, m = len(net.order), n_samples(seed)
    e_h = np.random.default_rng([SEED0 + seed, 3]).normal(size=m)
    sd, kinds = noise_kinds(seed)
    erng = np.random.default_rng([SEED0 + seed, 4])  # the noise: the same with and without h
    x, h = np.zeros((m, n)), np.zeros(m)
    for i, v in enumerate(net.order):
        if i == net.place:  # h, from its observed parents (all earlier) and its own part
            up = _z(sum(a * _z(x[:, u]) for u, a in zip(net.h_parents, net.h_coef, strict=True)))
            h = _z(np.sqrt(net.h_r2) * up + np.sqrt(1.0 - net.h_r2) * e_h)
        d = sum((net.w[u, v] * sd[v] * _z(x[:, u]) for u in np.flatnonzero(net.w[:, v])), np.zeros(m))
        e = _noise(erng, str(kinds[v]), sd[v], d)
        if not null and net.c[v] != 0.0:
            k, t = net.sigmoid.get(int(v), (0.0, 0.0))
            f = _z(1.0 / (1.0 + np.exp(-k * (h - t)))) if int(v) in net.sigmoid else h
            d = d + net.c[v] * (d + e).std() * f
        x[:, v] = d + e
    x = x / x.std(axis=0)
    if null:
        return x, [], []
    return x, [set(net.children.tolist())], [h]
