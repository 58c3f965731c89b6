"""Linear-Gaussian search benchmark: greedy vs Ideal Parent (K=2, K=5).

Prints, for synthetic networks with N in {50, 100, 200} variables and M = 500 instances: search
seconds (``stats.seconds``: time inside ``Stepper.step``), exact evaluations, moves, final BIC and
the speedup over greedy; then the issue's targets: greedy and ideal K=2 on a sample of the arth150
network (107 x 1000) against the generating network's BIC, and ideal K=2 on N=1000, M=500 with its
peak memory.

Run:  python benchmarks/bench_linear.py [--quick] [--skip-large]
"""

from __future__ import annotations

import argparse
import platform
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cpd.linear import LinearGaussianFamilies  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.search import Stepper  # noqa: E402
from engine.synth import load_network, random_network, sample, sample_dataset  # noqa: E402

METHODS = [("greedy", 2), ("ideal", 2), ("ideal", 5)]


def run(values, method: str, k: int, initial=()):
    # the paper's BIC, named: the default ("auto") picks EBIC when there are fewer than 2 rows per variable
    stepper = Stepper(LinearGaussianFamilies(values), method=method, k=k, initial=initial, score="bic")
    t0 = time.perf_counter()
    res = stepper.run()
    wall = time.perf_counter() - t0
    return res, wall


def machine() -> str:
    import numpy as np

    try:
        from threadpoolctl import threadpool_info

        blas = ", ".join(f"{i['internal_api']} {i.get('version')}" for i in threadpool_info())
    except ImportError:  # threadpoolctl is optional
        blas = "unknown BLAS"
    cpu = platform.processor() or platform.machine()
    return f"{platform.python_version()}, numpy {np.__version__} ({blas}), {cpu}, {__import__('os').cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only N=50")
    ap.add_argument("--skip-large", action="store_true", help="skip the N=1000 run")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"machine: {machine()}")
    print("units: BIC in nats; seconds = time inside Stepper.step (stats.seconds)\n")
    print(
        f"{'N':>5} {'M':>5} {'method':>8} {'K':>3} {'seconds':>8} {'exact':>9} {'moves':>6} "
        f"{'edges':>6} {'BIC':>13} {'speedup':>8} {'dBIC%':>7}"
    )
    for n in [50] if args.quick else [50, 100, 200]:
        net = random_network(n, seed=args.seed)
        ds = sample_dataset(net, 500, seed=args.seed + 1)
        base = None
        for method, k in METHODS:
            res, _ = run(ds.values, method, k)
            if base is None:
                base = res
            speed = base.elapsed_s / res.elapsed_s if res.elapsed_s > 0 else float("nan")
            rel = 100.0 * (res.score - base.score) / abs(base.score)
            print(
                f"{n:>5} {500:>5} {method:>8} {k if method == 'ideal' else '-':>3} {res.elapsed_s:>8.3f} "
                f"{res.n_exact:>9} {res.n_iter:>6} {len(res.edges):>6} {res.score:>13.1f} {speed:>8.2f} {rel:>7.3f}"
            )

    print("\narth150 (107 genes, 150 arcs), 1000 instances sampled with seed 2005, standardized:")
    net = load_network(ROOT / "sample_data" / "arth150_network.json")
    ds = from_array(sample(net, 1000, seed=2005), net.names)
    # the generating structure refitted on this sample (no search moves)
    gen = Stepper(LinearGaussianFamilies(ds.values), initial=net.edge_index(), score="bic")
    print(f"  generating network BIC on the sample: {gen.score:.1f}")
    greedy, _ = run(ds.values, "greedy", 2)
    for method, k in METHODS:
        res, _ = run(ds.values, method, k)
        rel = 100.0 * (res.score - greedy.score) / abs(greedy.score)
        print(
            f"  {method:>6} K={k}: {res.elapsed_s:.3f} s, BIC {res.score:.1f} "
            f"({'>=' if res.score >= gen.score else '<'} generating), {rel:+.3f}% vs greedy, "
            f"{res.n_exact} exact evaluations, {res.n_iter} moves"
        )

    if not args.skip_large:
        net = random_network(1000, seed=args.seed)
        ds = sample_dataset(net, 500, seed=args.seed + 1)
        res, wall = run(ds.values, "ideal", 2)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"\nN=1000, M=500, ideal K=2: {res.elapsed_s:.1f} s search ({wall:.1f} s wall), "
            f"{res.n_iter} moves, {res.n_exact} exact evaluations, peak RSS {peak:.0f} MB, "
            f"converged={res.converged}"
        )


if __name__ == "__main__":
    main()
