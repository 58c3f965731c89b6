"""How close the engine's sigmoid fits come to the least-squares optimum (issue #14, "fits that stop short").

Random sigmoid-Gaussian families ``x = theta_0 + theta_1 sigmoid(U alpha) + eps`` (JMLR 2007 eq. 4)
with k = 1..4 parents, M in {50, 100, 173, 400}, steepness (sd of U alpha) 0.3..10, noise from
nearly none to swamping the signal, correlated parents, and weak families whose child depends on
only some of the parents or on none. Data are standardized, as the search sees them.

Each family is fitted by the engine twice, along the two paths the search uses:

- ``fit``: :meth:`SigmoidGaussianFamilies.fit` of the whole parent set, fresh model;
- ``add``: the family without its last parent is fitted, then the last parent is added by
  :meth:`SigmoidGaussianFamilies.exact_add` (the warm start of every exact evaluation).

The reference is ``scipy.optimize.least_squares`` on the same model (all of alpha, theta_0,
theta_1 free, analytic Jacobian, tolerances 1e-12) from many starts: the engine's own answer
(a polish: what it gains shows the engine did not stop at a local optimum), the engine's linear
start, the generating alpha, and random directions at steepness 0.3, 1, 3 and 10. The shortfall of
a fit is ``(M/2) log(RSS_engine / RSS_best)`` nats, RSS_best the best of all the scipy fits. The
table counts, per path, the fits more than 0.1 nats below scipy from the same (linear) start,
below a polish of the engine's own answer, and below the best start.

Run:  python benchmarks/bench_sigmoid_fit.py [--n 80] [--seed 0]
      IPE_ROOT=/work/main python benchmarks/bench_sigmoid_fit.py   (another checkout's engine)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import least_squares

#: the checkout whose engine is measured (IPE_ROOT=/path/to/other/checkout to measure another one)
ROOT = Path(os.environ.get("IPE_ROOT", Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(ROOT))

from engine.cpd.sigmoid import SigmoidGaussianFamilies, sigmoid  # noqa: E402

#: a shortfall larger than this (nats) is counted as "short", as in the issue
SHORT_NATS = 0.1


@dataclass
class Family:
    """One random sigmoid family: column 0 of ``values`` is the child, columns 1..k its parents."""

    values: np.ndarray
    alpha: np.ndarray  # generating alpha on the standardized parents (0 for a child without signal)
    kind: str
    steepness: float
    noise: float  # noise sd / |theta_1|

    @property
    def k(self) -> int:
        return self.values.shape[1] - 1

    @property
    def n_samples(self) -> int:
        return self.values.shape[0]


def random_families(n: int, seed: int) -> list[Family]:
    """``n`` random families (seeded): strong, steep, noisy, partly relevant and irrelevant ones."""
    rng = np.random.default_rng(seed)
    kinds = ["sigmoid", "steep", "noisy", "partial", "none"]
    out = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        k = int(rng.integers(1, 5))
        m = int(rng.choice([50, 100, 173, 400]))
        mix = rng.uniform(0.0, 0.8)  # correlation of the parents through a common factor
        u = rng.standard_normal((m, k)) + mix * rng.standard_normal((m, 1))
        u = (u - u.mean(axis=0)) / u.std(axis=0)
        steep = float({"steep": rng.choice([5.0, 10.0, 20.0])}.get(kind, rng.choice([0.3, 1.0, 3.0])))
        noise = float({"noisy": rng.choice([1.0, 3.0]), "none": 1.0}.get(kind, rng.choice([0.02, 0.1, 0.3])))
        direction = rng.standard_normal(k)
        if kind == "partial" and k > 1:
            direction[rng.permutation(k)[: rng.integers(1, k)]] = 0.0  # some parents irrelevant
        if kind == "none":
            direction[:] = 0.0
        s = u @ direction
        alpha = direction * (steep / s.std()) if s.std() > 0 else direction
        theta1 = rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 3.0)
        x = rng.normal() + theta1 * sigmoid(u @ alpha) + noise * abs(theta1) * rng.standard_normal(m)
        x = (x - x.mean()) / x.std()
        out.append(Family(np.column_stack([x, u]), alpha, kind, steep, noise))
    return out


# ---------------------------------------------------------------- scipy reference
def _residual(params: np.ndarray, x: np.ndarray, u: np.ndarray) -> np.ndarray:
    k = u.shape[1]
    return params[k] + params[k + 1] * sigmoid(u @ params[:k]) - x


def _jacobian(params: np.ndarray, x: np.ndarray, u: np.ndarray) -> np.ndarray:
    k = u.shape[1]
    h = sigmoid(u @ params[:k])
    return np.column_stack([(params[k + 1] * h * (1.0 - h))[:, None] * u, np.ones(len(x)), h])


def profiled_theta(x: np.ndarray, u: np.ndarray, alpha: np.ndarray) -> tuple[float, float]:
    """theta_0, theta_1: least squares of x on [1, sigmoid(U alpha)]."""
    h = sigmoid(u @ alpha)
    hc = h - h.mean()
    hh = hc @ hc
    t1 = float(hc @ (x - x.mean()) / hh) if hh > 1e-300 else 0.0
    return float(x.mean() - t1 * h.mean()), t1


def scipy_rss(x: np.ndarray, u: np.ndarray, alpha0: np.ndarray) -> tuple[float, np.ndarray]:
    """RSS and alpha of ``least_squares`` from ``alpha0`` (theta_0, theta_1 started at their LS values)."""
    t0, t1 = profiled_theta(x, u, alpha0)
    p0 = np.concatenate([alpha0, [t0, t1]])
    res = least_squares(
        _residual, p0, jac=_jacobian, args=(x, u), method="trf", xtol=1e-12, ftol=1e-12, gtol=1e-12, max_nfev=2000
    )
    return float(2.0 * res.cost), res.x[: u.shape[1]]


def scipy_reference(fam: Family, *, seed: int = 0) -> float:
    """Best RSS of ``least_squares`` from the engine's linear start, the generating alpha and random
    directions at steepness 0.3, 1, 3 and 10 (two each)."""
    x, u = fam.values[:, 0], fam.values[:, 1:]
    rng = np.random.default_rng(seed)
    starts = [linear_start(fam)]
    if np.any(fam.alpha):
        starts.append(fam.alpha)
    for steep in (0.3, 1.0, 3.0, 10.0):
        for _ in range(2):
            d = rng.standard_normal(fam.k)
            starts.append(d * steep / max(np.std(u @ d), 1e-12))
    return min(scipy_rss(x, u, a)[0] for a in starts)


# ---------------------------------------------------------------- engine fits
@dataclass
class EngineFit:
    rss: float
    alpha: np.ndarray


def engine_fit(fam: Family, path: str, **model_kw) -> EngineFit:
    """The engine's fit of the family along ``path`` ("fit" or "add")."""
    model = SigmoidGaussianFamilies(fam.values, **model_kw)
    parents = tuple(range(1, fam.k + 1))
    if path == "add":
        model.exact_add(0, parents[:-1], np.array([parents[-1]]))
    st = model._stats(0, parents)
    return EngineFit(float(st.rss), np.asarray(st.alpha, dtype=float))


def linear_start(fam: Family) -> np.ndarray:
    """The engine's linear start of the whole family (what ``fit`` starts from)."""
    model = SigmoidGaussianFamilies(fam.values)
    return model._linear_start(0, np.arange(1, fam.k + 1)[None, :])[0]


def shortfall(rss: float, best: float, m: int) -> float:
    """Log-likelihood below the best fit, in nats: ``(M/2) log(RSS / RSS_best)``."""
    return 0.5 * m * float(np.log(rss / best))


def study(families: list[Family], reference: list[float] | None = None, **model_kw) -> list[dict]:
    """Per family and path, in nats: the engine's fit below scipy from the engine's linear start
    (``same``), the gain of a scipy polish of the engine's answer (``polish``) and the shortfall
    to the best of all scipy fits (``short``); and the engine's fit seconds (CPU).

    ``reference`` (optional): each family's :func:`scipy_reference`, computed here if not given."""
    rows = []
    for i, fam in enumerate(families):
        x, u, m = fam.values[:, 0], fam.values[:, 1:], fam.n_samples
        fits, cpu = {}, {}
        for path in ("fit", "add"):
            t0 = time.process_time()
            fits[path] = engine_fit(fam, path, **model_kw)
            cpu[path] = time.process_time() - t0
        polished = {path: scipy_rss(x, u, f.alpha)[0] for path, f in fits.items()}
        same = scipy_rss(x, u, linear_start(fam))[0]
        ref = scipy_reference(fam, seed=i) if reference is None else reference[i]
        best = min(ref, same, *polished.values())
        for path, f in fits.items():
            rows.append(
                {
                    "family": i,
                    "kind": fam.kind,
                    "k": fam.k,
                    "M": m,
                    "steep": fam.steepness,
                    "path": path,
                    "same": shortfall(f.rss, same, m),
                    "polish": shortfall(f.rss, polished[path], m),
                    "short": shortfall(f.rss, best, m),
                    "cpu": cpu[path],
                }
            )
    return rows


def _count(values: np.ndarray) -> str:
    bad = values[values > SHORT_NATS]
    return f"{bad.size:>2} ({bad.min():.2f}-{bad.max():.2f})" if bad.size else " 0"


def summarize(rows: list[dict], label: str) -> None:
    """Print, per path, how many fits fall more than SHORT_NATS below each scipy fit, then the rows."""
    print(f"\n{label}")
    print(f"  fits more than {SHORT_NATS} nats below scipy (count, range in nats); worst in nats; engine CPU s")
    print(f"  {'path':<5} {'n':>3} | {'same start':<16} {'polish':<16} {'best start':<16} | {'worst':>6} {'cpu':>6}")
    for path in ("fit", "add"):
        sel = [r for r in rows if r["path"] == path]
        col = {key: np.array([r[key] for r in sel]) for key in ("same", "polish", "short", "cpu")}
        print(
            f"  {path:<5} {len(sel):>3} | {_count(col['same']):<16} {_count(col['polish']):<16} "
            f"{_count(col['short']):<16} | {col['short'].max():>6.2f} {col['cpu'].sum():>6.2f}"
        )
    bad = [r for r in rows if max(r["short"], r["same"], r["polish"]) > SHORT_NATS]
    if bad:
        print(
            f"  {'family':>6} {'kind':<8} {'k':>2} {'M':>4} {'steep':>5} {'path':<4} "
            f"{'same':>7} {'polish':>7} {'best':>7}"
        )
        for r in bad:
            print(
                f"  {r['family']:>6} {r['kind']:<8} {r['k']:>2} {r['M']:>4} {r['steep']:>5.1f} {r['path']:<4} "
                f"{r['same']:>7.3f} {r['polish']:>7.3f} {r['short']:>7.3f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=80, help="number of random families")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    families = random_families(args.n, args.seed)
    t0 = time.perf_counter()
    rows = study(families)
    summarize(
        rows, f"{args.n} random sigmoid families (seed {args.seed}), engine at {ROOT}, {time.perf_counter() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
