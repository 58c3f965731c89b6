"""Sigmoid-Gaussian benchmark in the layout of the paper's Table 1 (JMLR 2007, section 9.1).

Synthetic stand-ins for the paper's yeast subsets (the Gasch data are not available offline): a
random sigmoid-Gaussian network of the AA shape (44 variables) and of the Met shape (89 variables),
173 instances, 5-fold cross-validation. For greedy and Ideal Parent K=2 and K=5 it prints search
seconds (``stats.seconds``), exact evaluations, moves, edges, the training BIC (the score the
search maximizes, the paper's, per instance per variable), train and test log-likelihood per
instance per variable (nats; test = the learned parameters evaluated on the held-out fold), and in
the paper's Table 1 layout the differences to greedy (Delta train, Delta test), edge %, move %,
eval % and the speedup. Folds are standardized with their training fold's statistics.

Run:  python benchmarks/bench_nonlinear.py [--quick] [--cpd sigmoid|multiplicative|linear]
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

from engine.cpd import CPD_CHOICES, family_loglik, get_cpd, make_families  # noqa: E402
from engine.search import Stepper  # noqa: E402
from engine.synth import random_network, sample  # noqa: E402

METHODS = [("greedy", 0), ("ideal", 2), ("ideal", 5)]


def heldout_loglik(model, stepper: Stepper, test: np.ndarray, cpd: str) -> float:
    total = 0.0
    for c in range(test.shape[1]):
        ps = stepper.parents(c)
        total += family_loglik(cpd, model.fit(c, ps).params, test[:, c], test[:, list(ps)])
    return total / test.size


def run_shape(name: str, n_vars: int, n_samples: int, cpd: str, folds: int, seed: int) -> None:
    net = random_network(n_vars, seed=seed, cpd=cpd)
    data = sample(net, n_samples, seed=seed + 1)
    rng = np.random.default_rng(seed + 2)
    fold_of = rng.permutation(n_samples) % folds
    per: dict[tuple[str, int], list[dict]] = {m: [] for m in METHODS}
    for f in range(folds):
        train, test = data[fold_of != f], data[fold_of == f]
        if not get_cpd(cpd).raw_scale:
            mu, sd = train.mean(axis=0), train.std(axis=0)
            train, test = (train - mu) / sd, (test - mu) / sd
        for method, k in METHODS:
            model = make_families(train, cpd)
            # the paper's Table 1 is a BIC search: the score is named (the default picks by shape)
            stepper = Stepper(model, method=method, k=max(k, 1), score="bic")
            t0 = time.perf_counter()
            res = stepper.run()
            per[(method, k)].append(
                {
                    "seconds": res.elapsed_s,
                    "wall": time.perf_counter() - t0,
                    "exact": res.n_exact,
                    "moves": res.n_iter,
                    "edges": len(res.edges),
                    "bic": res.score / train.size,
                    "train": res.loglik / train.size,
                    "test": heldout_loglik(model, stepper, test, cpd),
                }
            )
    mean = {m: {key: float(np.mean([r[key] for r in rows])) for key in rows[0]} for m, rows in per.items()}
    g = mean[("greedy", 0)]
    print(
        f"\n{name}: {n_vars} variables x {n_samples} instances, {cpd} CPD, {folds}-fold CV "
        f"(true network: {len(net.edge_index())} edges)"
    )
    print(
        f"  {'method':<9} {'seconds':>8} {'exact':>8} {'moves':>6} {'edges':>6} {'bic':>8} {'train':>8} {'test':>8} | "
        f"{'dTrain':>7} {'dTest':>7} {'edge%':>6} {'move%':>6} {'eval%':>6} {'speedup':>7}"
    )
    for (method, k), r in mean.items():
        label = "greedy" if method == "greedy" else f"ideal K={k}"
        print(
            f"  {label:<9} {r['seconds']:>8.2f} {r['exact']:>8.0f} {r['moves']:>6.0f} {r['edges']:>6.1f} "
            f"{r['bic']:>8.3f} {r['train']:>8.3f} {r['test']:>8.3f} | "
            f"{r['train'] - g['train']:>7.3f} {r['test'] - g['test']:>7.3f} "
            f"{100 * r['edges'] / g['edges']:>6.1f} {100 * r['moves'] / g['moves']:>6.1f} "
            f"{100 * r['exact'] / g['exact']:>6.1f} {g['seconds'] / r['seconds']:>7.1f}"
        )
    for (method, k), r in mean.items():
        if method == "ideal":
            ceiling = g["exact"] / r["exact"]
            print(
                f"  ideal K={k}: evaluation-count ceiling {ceiling:.1f}x = the speedup if each of its "
                f"exact evaluations cost what greedy's do ({1000 * g['seconds'] / g['exact']:.3f} ms)\n"
                f"             and nothing else; it takes {1000 * r['seconds'] / r['moves']:.2f} ms per move, "
                f"greedy {1000 * g['seconds'] / g['moves']:.2f} ms"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="AA shape only, 2 folds")
    ap.add_argument("--cpd", default="sigmoid", choices=CPD_CHOICES)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(
        f"machine: Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, "
        f"{__import__('os').cpu_count()} cores"
    )
    print("log-likelihoods in nats per instance per variable; seconds = time inside Stepper.step")
    folds = 2 if args.quick else 5
    run_shape("AA shape", 44, 173, args.cpd, folds, args.seed)
    if not args.quick:
        run_shape("Met shape", 89, 173, args.cpd, folds, args.seed)
        if args.cpd == "sigmoid":
            net = random_network(200, seed=args.seed, cpd="sigmoid")
            x = sample(net, 500, seed=args.seed + 1)
            x = (x - x.mean(axis=0)) / x.std(axis=0)
            stepper = Stepper(make_families(x, "sigmoid"), method="ideal", k=2, score="bic")
            res = stepper.run()
            print(
                f"\n200 variables x 500 instances, sigmoid, ideal K=2: {res.elapsed_s:.1f} s, "
                f"{res.n_iter} moves, {res.n_exact} exact evaluations, converged={res.converged}"
            )


if __name__ == "__main__":
    main()
