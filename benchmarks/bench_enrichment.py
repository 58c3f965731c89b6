"""Gene-set enrichment at genome scale (issue #23, item 4): how long ``--gene-sets`` adds.

A universe of 2,500 variables (genes) out of a 20,000-gene namespace, an MSigDB-sized collection
(10,000 sets of 15-300 genes, most of them outside the data), a network of 5,100 edges (about
2,100 observed regulators) and one hidden regulator with 60 children: seconds to match the sets
to the data and to test every regulator's children (hypergeometric p vectorized over sets, BH q
per regulator). Also checks that the vectorized p agrees with ``scipy.stats.hypergeom.sf`` on
the pairs tested, and times scipy's ``sf`` on them for comparison (it sums each tail in a
Python loop).

Run:  python benchmarks/bench_enrichment.py [--sets 10000] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from scipy import sparse, stats  # noqa: E402

from engine.enrichment import hypergeometric_p, network_enrichment  # noqa: E402
from engine.io.gene_sets import GeneSets, match_gene_sets  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    genome = [f"G{i}" for i in range(20_000)]
    universe = genome[:2_500]
    sizes = rng.integers(15, 300, args.sets)
    sets = GeneSets(
        [f"S{i}" for i in range(args.sets)],
        [tuple(rng.choice(genome, size=s, replace=False)) for s in sizes],
        [""] * args.sets,
        "synthetic",
        "GMT",
    )
    t0 = time.perf_counter()
    matched = match_gene_sets(sets, universe)
    t_match = time.perf_counter() - t0
    edges = [(universe[p], universe[c]) for p, c in rng.integers(0, 2_500, size=(5_100, 2)) if p != c]
    edges += [("H1", g) for g in rng.choice(universe, 60, replace=False)]
    t0 = time.perf_counter()
    _, rows = network_enrichment(matched, edges, hidden=["H1"])
    t_test = time.perf_counter() - t0
    n_regs = len({p for p, _ in edges if p != "H1"})

    # the pairs tested (overlap >= 1): vectorized p against scipy's sf
    queries = {}
    for p, c in edges:
        queries.setdefault(p, set()).add(universe.index(c))
    names = list(queries)
    cols = np.repeat(np.arange(len(names)), [len(queries[q]) for q in names])
    ind = sparse.csr_matrix(
        (np.ones(cols.size), (np.concatenate([sorted(queries[q]) for q in names]), cols)),
        shape=(len(universe), len(names)),
    )
    hits = sparse.coo_matrix(matched.membership @ ind)
    k, n = hits.data.astype(int), matched.sizes[hits.row]
    big_n = np.array([len(queries[q]) for q in names])[hits.col]
    t0 = time.perf_counter()
    ours = hypergeometric_p(k, n, big_n, len(universe))
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = stats.hypergeom.sf(k - 1, len(universe), n, big_n)
    t_scipy = time.perf_counter() - t0
    worst = float(np.max(np.abs(ours - theirs) / np.maximum(theirs, 1e-300)))

    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"{args.sets:,} sets, {matched.n_tested:,} with genes among the {len(universe):,} variables")
    print(f"match to the data: {t_match:.2f} s")
    print(f"enrichment of {n_regs:,} regulators + 1 hidden (60 children): {t_test:.2f} s, {len(rows):,} rows kept")
    print(f"{k.size:,} (regulator, set) pairs: vectorized p {t_ours:.2f} s, scipy sf {t_scipy:.2f} s")
    print(f"largest relative difference from scipy: {worst:.1e}")


if __name__ == "__main__":
    main()
