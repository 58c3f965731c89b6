"""Hidden variables and missing values (JMLR 2007 sections 5, 6 and 9.2; issue #4).

1. The paper's two-layer experiment on synthetic data: 7 hidden roots -> 141 observed leaves
   (each observed variable has 1-2 hidden parents, weights +-U(0.5, 1.5), noise so the hidden
   parents explain about half its variance), linear Gaussian, several training sizes and a test set
   of 1000. Greedy-hidden (each new hidden variable is a parent of every observed one, structure
   by greedy search) against Ideal K=2 and K=5 (each new hidden variable is the parent of the best
   cluster of ideal profiles). Figures: train and test log-likelihood per instance per observed
   variable (nats; hidden variables integrated out exactly), hidden variables, edges, seconds.
2. Missing values like the paper's Table 1 (354 variables x 173 instances): a random linear network,
   10% of cells missing at random, structural EM with greedy vs ideal K=2/K=5 search.

Also: proposing clusters for 500 variables (issue target < 2 s).

Run:  python benchmarks/bench_hidden.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cpd.linear import LinearGaussianFamilies  # noqa: E402
from engine.data import Dataset  # noqa: E402
from engine.em import StructuralEM, marginal_loglik  # noqa: E402
from engine.hidden import propose_from_search  # noqa: E402
from engine.latent import HiddenSearch  # noqa: E402
from engine.search import Stepper  # noqa: E402
from engine.synth import random_network, sample  # noqa: E402


def two_layer_data(n_hidden: int, n_obs: int, m: int, seed: int):
    rng = np.random.default_rng(seed)
    w = np.zeros((n_hidden, n_obs))
    for j in range(n_obs):
        ps = rng.choice(n_hidden, size=int(rng.integers(1, 3)), replace=False)
        w[ps, j] = rng.uniform(0.5, 1.5, size=ps.size) * rng.choice([-1, 1], size=ps.size)
    noise = np.sqrt((w**2).sum(axis=0))  # hidden parents explain ~half the variance

    def draw(n, s):
        r = np.random.default_rng(s)
        return r.normal(size=(n, n_hidden)) @ w + r.normal(size=(n, n_obs)) * noise

    return draw(m, seed + 1), draw(1000, seed + 2)


def observed_ll(hs: HiddenSearch, data: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> float:
    """Per instance per observed variable, hidden integrated out, on ``data`` (raw scale)."""
    par = hs.em.params()
    n_obs = data.shape[1]
    x = np.zeros((data.shape[0], hs.em.n_vars))
    x[:, :n_obs] = (data - mean) / scale
    obs = np.zeros_like(x, dtype=bool)
    obs[:, :n_obs] = True
    ll = marginal_loglik(par.intercept, par.coef, par.variance, x, obs)
    ll -= data.shape[0] * np.log(scale).sum()  # back to the raw scale's density
    return ll / data.size


def run_two_layer(sizes, max_hidden: int, seed: int) -> None:
    print("\nTwo-layer synthetic network: 7 hidden -> 141 observed, linear Gaussian, test set 1000")
    print(f"  {'M':>5} {'method':<14} {'hidden':>6} {'edges':>6} {'train':>8} {'test':>8} {'seconds':>8}")
    for m in sizes:
        train, test = two_layer_data(7, 141, m, seed)
        mean, scale = train.mean(axis=0), train.std(axis=0)
        z = (train - mean) / scale
        ds = Dataset(names=tuple(f"G{i}" for i in range(141)), values=z, missing=np.zeros(z.shape, bool),
                     standardized=True, means=mean, scales=scale)
        for label, settings, greedy in (("greedy-hidden", {"method": "greedy"}, True),
                                        ("ideal K=2", {"method": "ideal", "k": 2}, False),
                                        ("ideal K=5", {"method": "ideal", "k": 5}, False)):
            t0 = time.perf_counter()
            hs = HiddenSearch(ds, {**settings, "max_parents": 2}, two_layer=True, seed=seed)
            hs.auto(max_hidden=max_hidden, greedy_hidden=greedy)
            sec = time.perf_counter() - t0
            print(f"  {m:>5} {label:<14} {len(hs.hidden):>6} {len(hs.em.edges):>6} "
                  f"{observed_ll(hs, train, mean, scale):>8.3f} {observed_ll(hs, test, mean, scale):>8.3f} {sec:>8.1f}")


def run_missing(n_vars: int, m: int, seed: int) -> None:
    print(f"\nMissing values: random linear network, {n_vars} variables x {m} instances, 10% of cells missing")
    net = random_network(n_vars, seed=seed)
    x = sample(net, m, seed=seed + 1)
    rng = np.random.default_rng(seed + 2)
    x[rng.random(x.shape) < 0.1] = np.nan
    mean, scale = np.nanmean(x, axis=0), np.nanstd(x, axis=0)
    z = (x - mean) / scale
    ds = Dataset(names=tuple(net.names), values=z, missing=np.isnan(z), standardized=True, means=mean, scales=scale)
    base = None
    print(f"  {'method':<10} {'seconds':>8} {'EM iter':>7} {'edges':>6} {'exact':>9} {'train':>8} {'speedup':>8}")
    for label, kw in (("greedy", {"method": "greedy"}), ("ideal K=2", {"method": "ideal", "k": 2}),
                      ("ideal K=5", {"method": "ideal", "k": 5})):
        t0 = time.perf_counter()
        em = StructuralEM(ds, **kw, max_iter=30)
        em.run()
        sec = time.perf_counter() - t0
        base = base or sec
        ll = em.observed_loglik() / np.isfinite(z).sum()
        print(f"  {label:<10} {sec:>8.1f} {len(em.history):>7} {len(em.edges):>6} {em.n_exact:>9} {ll:>8.3f} "
              f"{base / sec:>8.1f}")


def time_proposals(n_vars: int, seed: int) -> None:
    net = random_network(n_vars, seed=seed)
    x = sample(net, 500, seed=seed + 1)
    x = (x - x.mean(axis=0)) / x.std(axis=0)
    s = Stepper(LinearGaussianFamilies(x))
    s.run(max_steps=50)
    t0 = time.perf_counter()
    props = propose_from_search(s, x, net.names)
    print(f"\nProposing clusters for {n_vars} variables (500 instances, after 50 moves): "
          f"{time.perf_counter() - t0:.2f} s, {len(props)} proposals")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"machine: Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, "
          f"{__import__('os').cpu_count()} cores; log-likelihoods in nats")
    time_proposals(500, args.seed)
    if args.quick:
        run_two_layer([100], 3, args.seed)
        run_missing(60, 173, args.seed)
    else:
        run_two_layer([50, 100, 200, 500], 10, args.seed)
        run_missing(354, 173, args.seed)


if __name__ == "__main__":
    main()
