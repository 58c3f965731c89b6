"""Held-out comparison of the scores on wide and tall shapes (RESULTS.md, "Scores for wide data").

For N = 173 variables and M training rows (35 = the paper's "Cond" shape), learn with BIC and with
EBIC (gamma 0.5 and 1), ideal K=2 and greedy, and print the held-out log-likelihood per instance
per variable (1000 held-out rows from the same network) against the empty network's.

    python benchmarks/bench_scores.py                 # M = 35, 87, 173, 350; DAG and factor data
    python benchmarks/bench_scores.py --rows 35 --generator factors
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import IdealParentSearch  # noqa: E402
from engine.synth import random_network, sample  # noqa: E402

CONFIGS = [
    ("empty", {"max_parents": 0, "score": "bic"}),
    ("BIC ideal", {"score": "bic"}),
    ("BIC greedy", {"score": "bic", "method": "greedy"}),
    ("EBIC 0.5 ideal", {"score": "ebic", "ebic_gamma": 0.5}),
    ("EBIC 1 ideal", {"score": "ebic", "ebic_gamma": 1.0}),
    ("EBIC 1 greedy", {"score": "ebic", "ebic_gamma": 1.0, "method": "greedy"}),
]


def factor_data(n: int, m: int, seed: int, n_factors: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    load = rng.normal(0, 1, (n_factors, n)) * (rng.random((n_factors, n)) < 0.3)
    return rng.normal(size=(m, n_factors)) @ load + rng.normal(0, 0.7, (m, n))


def run(generator: str, m: int, seed: int, n: int = 173) -> None:
    if generator == "dag":
        x = sample(random_network(n, seed=seed), m + 1000, seed=seed + 100)
    else:
        x = factor_data(n, m + 1000, seed)
    names = [f"V{i}" for i in range(n)]
    train, test = pd.DataFrame(x[:m], columns=names), pd.DataFrame(x[m:], columns=names)
    for label, kw in CONFIGS:
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = IdealParentSearch(**kw).fit(train)
        test_ll = est.network_.evaluate(test)["loglik_per_instance_per_variable"]
        print(
            f"{generator:>7} M={m:<4} seed={seed} {label:<15} edges {est.network_.n_edges:5d}  "
            f"train {est.loglik_ / (m * n):7.3f}  test {test_ll:12.3f}  {time.perf_counter() - t0:6.1f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="*", default=[35, 87, 173, 350])
    parser.add_argument("--generator", choices=["dag", "factors", "both"], default="both")
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2])
    args = parser.parse_args()
    gens = ["dag", "factors"] if args.generator == "both" else [args.generator]
    for gen in gens:
        for m in args.rows:
            for seed in args.seeds:
                run(gen, m, seed)


if __name__ == "__main__":
    main()
