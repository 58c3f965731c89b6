"""Planted hidden regulators in general networks (#22 deliverable 1): the generators.

Written before any tuning (#22: "write the generators before you tune"). Each draws a random
linear-Gaussian DAG over N observed variables, samples it ancestrally with unit noise, and adds a
hidden root h ~ N(0, 1) as a parent of L planted children *during* the sampling: child v gets
``load_v * sd(x_v before the h term) * h`` with a random sign, so h reaches the children's
descendants as any parent's effect does (the issue's generator). Columns are then scaled to unit
variance. The truth is the planted child set; nothing else has an h term.

Generators (seeds 0-9 unless said):

* ``sparse``  - the issue's: 30 variables, edge probability 0.06, weights +-U(0.5, 1.0), 6 children,
  loads U(1.0, 1.5), M = 500;
* ``dense``   - 30 variables, edge probability 0.2, weights +-U(0.3, 0.8), 4-8 children, small
  loads U(0.6, 1.0), M = 300;
* ``small-m`` - 30 variables, edge probability 0.08, weights +-U(0.5, 1.0), 8-12 children, loads
  U(1.0, 1.5), M = 50;
* ``hub`` (hold-out, seeds 100-109, not looked at while tuning) - 40 variables, a scale-free DAG by
  preferential attachment (each new variable takes 1-3 parents among the earlier ones with
  probability proportional to 1 + their number of children), weights +-U(0.4, 0.9), 12-20
  children, loads U(0.7, 1.2), M = 200.

``null=True`` gives the same network and noise without h (a null network of that generator).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Spec:
    name: str
    n_vars: int
    n_samples: int
    kind: str  # "er" (edge probability) or "hub" (preferential attachment)
    density: float  # edge probability ("er") or unused ("hub")
    weights: tuple[float, float]
    kids: tuple[int, int]  # inclusive range of the number of planted children
    loads: tuple[float, float]
    seed0: int = 0


SPECS = {
    "sparse": Spec("sparse", 30, 500, "er", 0.06, (0.5, 1.0), (6, 6), (1.0, 1.5)),
    "dense": Spec("dense", 30, 300, "er", 0.2, (0.3, 0.8), (4, 8), (0.6, 1.0)),
    "small-m": Spec("small-m", 30, 50, "er", 0.08, (0.5, 1.0), (8, 12), (1.0, 1.5)),
    "hub": Spec("hub", 40, 200, "hub", 0.0, (0.4, 0.9), (12, 20), (0.7, 1.2), seed0=100),
}

#: the generator kept untouched until the end (#22)
HOLD_OUT = "hub"


def _weights(spec: Spec, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random order and the weight matrix w[parent, child] of the generator's DAG."""
    n = spec.n_vars
    order = rng.permutation(n)
    w = np.zeros((n, n))
    lo, hi = spec.weights
    if spec.kind == "er":
        for a in range(n):
            for b in range(a + 1, n):
                if rng.random() < spec.density:
                    w[order[a], order[b]] = rng.uniform(lo, hi) * rng.choice([-1.0, 1.0])
    else:
        out_deg = np.zeros(n)
        for b in range(1, n):
            earlier = order[:b]
            k = min(b, int(rng.integers(1, 4)))
            p = (1.0 + out_deg[earlier]) / (1.0 + out_deg[earlier]).sum()
            for u in rng.choice(earlier, size=k, replace=False, p=p):
                w[u, order[b]] = rng.uniform(lo, hi) * rng.choice([-1.0, 1.0])
                out_deg[u] += 1
    return order, w


def true_edges(name: str, seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of the generator's DAG for ``seed``."""
    spec = SPECS[name]
    _, w = _weights(spec, np.random.default_rng(7000 + spec.seed0 + seed))
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def generate(name: str, seed: int, *, null: bool = False) -> tuple[np.ndarray, set[int], np.ndarray | None]:
    """Data (M, N) scaled to unit variance, the planted children, and h (None for a null network).

    ``seed`` counts from 0; the generator's own offset (``Spec.seed0``) is added here."""
    spec = SPECS[name]
    s = spec.seed0 + seed
    rng = np.random.default_rng(7000 + s)
    order, w = _weights(spec, rng)
    n, m = spec.n_vars, spec.n_samples
    hrng = np.random.default_rng(9000 + s)
    h = hrng.normal(size=m)
    n_kids = int(hrng.integers(spec.kids[0], spec.kids[1] + 1))
    kids = hrng.choice(n, size=n_kids, replace=False)
    c = np.zeros(n)
    c[kids] = hrng.choice([-1.0, 1.0], size=n_kids) * hrng.uniform(*spec.loads, size=n_kids)
    x = np.zeros((m, n))
    for v in order:
        x[:, v] = x @ w[:, v] + rng.normal(size=m)
        if not null and c[v] != 0.0:
            x[:, v] += c[v] * x[:, v].std() * h
    x = x / x.std(axis=0)
    if null:
        return x, set(), None
    return x, {int(v) for v in kids}, h
