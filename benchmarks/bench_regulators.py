"""Hidden regulators inside general (not two-layer) networks (#12; JMLR 2007 sections 5-6, thesis ch. 4).

1. Planted-regulator recovery, two generators, 30 observed variables, M = 500:
   * ``rn``: ``random_network(30, expected_parents=1.0, signal=0.4, seed)`` sampled, columns scaled
     to unit variance, then a factor h ~ N(0, 1) added to 6 random columns with random signs and
     loads U(1.0, 1.5) (``--load`` fixes one load instead);
   * ``dag``: a plain random DAG (edge probability 0.1 in a random order, weights +-U(0.5, 1.0),
     unit noise), columns scaled to unit variance, the same factor.
   ``HiddenSearch(ds).auto(max_hidden=2)``; per seed: added?, children precision / recall against
   the 6 planted, |corr(H1 profile, h)|, estimated and realized score change, and the realized
   change recomputed independently (scipy multivariate normal of the observed columns under the
   final parameters, minus the BIC penalty counted by hand, against the baseline network's score).
2. No false regulators: the same generators with nothing planted; how often auto adds one.
3. Proposal time (both sources) on random networks of 500 and 2000 variables, after a search.

Run:  python benchmarks/bench_regulators.py [--seeds 10] [--load L] [--skip-timing]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import multivariate_normal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cpd.linear import LinearGaussianFamilies  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch, propose_from_search  # noqa: E402
from engine.search import Stepper  # noqa: E402
from engine.synth import random_network, sample  # noqa: E402

N, KIDS, M = 30, 6, 500


def gen_rn(seed: int, m: int) -> np.ndarray:
    net = random_network(N, expected_parents=1.0, signal=0.4, seed=seed)
    x = sample(net, m, seed=1000 + seed)
    return x / x.std(axis=0)


def gen_dag(seed: int, m: int) -> np.ndarray:
    rng = np.random.default_rng(5000 + seed)
    order = rng.permutation(N)
    w = np.zeros((N, N))
    for a in range(N):
        for b in range(a + 1, N):
            if rng.random() < 0.1:
                w[order[a], order[b]] = rng.uniform(0.5, 1.0) * rng.choice([-1.0, 1.0])
    x = np.zeros((m, N))
    for v in order:
        x[:, v] = x @ w[:, v] + rng.normal(size=m)
    return x / x.std(axis=0)


def plant(x: np.ndarray, seed: int, load: float | None) -> tuple[np.ndarray, set[int], np.ndarray]:
    rng = np.random.default_rng(seed)
    h = rng.normal(size=x.shape[0])
    kids = rng.choice(N, size=KIDS, replace=False)
    loads = np.full(KIDS, load) if load is not None else rng.uniform(1.0, 1.5, size=KIDS)
    x = x.copy()
    x[:, kids] += rng.choice([-1.0, 1.0], size=KIDS) * loads * h[:, None]
    return x, {int(k) for k in kids}, h


def independent_score(hs: HiddenSearch) -> float:
    """Observed-data BIC recomputed without marginal_loglik: scipy's multivariate normal of the
    observed columns under the final parameters, minus (log M / 2) * sum(k + 2)."""
    par = hs.em.params()
    n = len(hs.names)
    a = np.linalg.inv(np.eye(n) - par.coef.T)
    mu, cov = a @ par.intercept, (a * par.variance) @ a.T
    o = hs.n_observed
    ll = multivariate_normal(mu[:o], cov[:o, :o]).logpdf(hs.em.mean[:, :o]).sum()
    k = (par.coef != 0).sum(axis=0)
    return float(ll - 0.5 * math.log(hs.dataset.n_samples) * np.sum(k + 2))


def run_one(x: np.ndarray, kids: set[int] | None, h: np.ndarray | None) -> dict:
    names = [f"X{i + 1}" for i in range(N)]
    ds = from_array(x, names, standardize=False)
    t0, c0 = time.perf_counter(), time.process_time()
    hs = HiddenSearch(ds)
    found = hs.auto(max_hidden=2)
    out = {"added": len(found), "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0}
    if found:
        h1 = found[0]
        ch = {names.index(c) for c in h1.children}
        out["prec"] = len(ch & kids) / len(ch) if (kids and ch) else float("nan")
        out["rec"] = len(ch & kids) / len(kids) if kids else float("nan")
        out["corr"] = abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) if h is not None else float("nan")
        out["est"] = h1.estimated_gain
        out["real"] = sum(v.realized_gain for v in found)
        out["check"] = independent_score(hs) - found[-1].score_after
    return out


def recovery(gen, label: str, seeds: int, load: float | None, planted: bool) -> None:
    rows = []
    for seed in range(seeds):
        x = gen(seed, M)
        if planted:
            x, kids, h = plant(x, seed, load)
        else:
            kids, h = None, None
        r = run_one(x, kids, h)
        rows.append(r)
        if planted:
            extra = (
                f"P {r['prec']:.2f} R {r['rec']:.2f} |corr| {r['corr']:.3f} est {r['est']:+8.1f} "
                f"real {r['real']:+7.1f} check {r['check']:+.1e}"
                if r["added"]
                else "none"
            )
        else:
            extra = f"real {r['real']:+7.1f} check {r['check']:+.1e}" if r["added"] else "none"
        print(
            f"  {label:4s} seed {seed:2d} added {r['added']}  {extra}  {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU)",
            flush=True,
        )
    added = sum(r["added"] > 0 for r in rows)
    if planted:
        ok = [r for r in rows if r["added"]]
        strict = sum(r["prec"] >= 0.8 and r["rec"] >= 0.8 and r["corr"] >= 0.9 for r in ok)
        print(f"  {label}: added on {added}/{seeds}; P, R >= 0.8 and |corr| >= 0.9 on {strict}/{seeds}")
        if ok:
            means = [np.mean([r[k] for r in ok]) for k in ("prec", "rec", "corr")]
            print(f"  {label}: where added, mean P {means[0]:.2f}, R {means[1]:.2f}, |corr| {means[2]:.3f}")
    else:
        print(f"  {label}: false regulators on {added}/{seeds}")
    print(f"  {label}: auto median {np.median([r['cpu'] for r in rows]):.1f} s CPU per network")
    if any(r["added"] for r in rows):
        worst = max(abs(r["check"]) for r in rows if r["added"])
        pos = all(r["real"] > 0 for r in rows if r["added"])
        print(f"  {label}: every kept variable realized > 0: {pos}; worst |reported - recomputed| {worst:.1e}")


def timing() -> None:
    for n in (500, 2000):
        net = random_network(n, expected_parents=1.0, seed=1)
        x = sample(net, 500, seed=2)
        stp = Stepper(LinearGaussianFamilies(x))
        stp.run(max_steps=2 * n)
        t0 = time.perf_counter()
        props = propose_from_search(stp, x, net.names, min_size=3)
        dt = time.perf_counter() - t0
        print(f"  {n} variables, {len(stp.edges())} edges: {len(props)} proposals in {dt:.2f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--load", type=float, default=None)
    ap.add_argument("--skip-timing", action="store_true")
    ap.add_argument("--only", choices=["rn", "dag", "null", "timing"], default=None)
    args = ap.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores; M = {M}, {N} variables, {KIDS} children")
    t0 = time.perf_counter()
    if args.only in (None, "rn"):
        print("planted regulator, random_network + factor")
        recovery(gen_rn, "rn", args.seeds, args.load, True)
    if args.only in (None, "dag"):
        print("planted regulator, plain random DAG + factor")
        recovery(gen_dag, "dag", args.seeds, args.load, True)
    if args.only in (None, "null"):
        print("nothing planted")
        recovery(gen_rn, "rn", args.seeds, None, False)
        recovery(gen_dag, "dag", args.seeds, None, False)
    if not args.skip_timing and args.only in (None, "timing"):
        print("proposal time (both sources)")
        timing()
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
