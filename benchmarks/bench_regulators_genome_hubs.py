"""A second hold-out for the genome-scale null target (#22), written before the keep-rule study of
the genome-null branch looked at anything, with seeds nobody looks at until the final code:
reported separately in benchmarks/RESULTS.md.

Unlike ``bench_regulators_genome.py`` and ``bench_regulators_genome_holdout.py`` on purpose: the
hub structure that makes the false hidden variables there (pooled activity of hub TFs) is made
explicit and stronger, with a different shape, noise and module.

* ``hubs`` (seeds 500-509): 1800 genes x 40 conditions, 80 listed TFs in two tiers: 8 master TFs
  (roots, each also 0.5 x one of 3 unlisted condition programs) and 72 TFs with 1-2 master parents
  (loads +-U(0.4, 0.9)). Six of the TFs are hubs with 60-140 targets each at weak loads
  +-U(0.25, 0.6); every other gene has 0-3 TF parents drawn uniformly (loads +-U(0.3, 0.9)).
  Noise Student t with 4 degrees of freedom, scaled to sd 1. One master-tier TF, R, is removed from
  the table and the list; its module is 35 genes (loads +-U(0.6, 1.1), 75 % positive, at most one
  weak listed parent, noise sd 0.8); 20 % of the other genes also follow one of the 3 programs
  (+-U(0.3, 0.7)).
* ``hubs-null`` (the same seeds): R listed, no programs on the genes: every gene's parents are
  listed TFs, so any kept H is false.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_hubs.py \
          --gen hubs|hubs-null [--seeds 500-509]
"""

from __future__ import annotations

import numpy as np
from genome_auto import holdout_main

N_GENES, M, N_TF, N_MASTER, N_HUB, N_PROG = 1800, 40, 81, 8, 6, 3


def _t(rng: np.random.Generator, shape, sd: float) -> np.ndarray:
    """Student t (4 degrees of freedom) scaled to standard deviation ``sd``."""
    return rng.standard_t(4, size=shape) * sd / np.sqrt(2.0)


def generate(seed: int, null: bool = False) -> dict:
    """One table: ``values`` (M x genes), ``names``, ``labels``, ``regulators``, ``removed``
    (R's values or None), ``module`` (gene names)."""
    rng = np.random.default_rng(seed)
    prog = rng.normal(size=(M, N_PROG))
    tf = np.empty((M, N_TF))
    for j in range(N_TF):
        if j < N_MASTER:
            tf[:, j] = 0.5 * prog[:, j % N_PROG] + rng.normal(size=M)
        else:
            tf[:, j] = rng.normal(size=M)
            for p in rng.choice(N_MASTER, size=int(rng.integers(1, 3)), replace=False):
                tf[:, j] += rng.uniform(0.4, 0.9) * rng.choice([-1, 1]) * tf[:, p]
        tf[:, j] = (tf[:, j] - tf[:, j].mean()) / tf[:, j].std()
    star = 0  # R, a master-tier TF
    listed = np.arange(1, N_TF)
    hubs = rng.choice(listed, size=N_HUB, replace=False)
    n_other = N_GENES - (N_TF - 1)
    genes = rng.permutation(n_other)
    module = genes[:35]
    in_mod = set(module.tolist())
    expr = np.zeros((M, n_other))
    for h in hubs:
        for g in rng.choice(genes[35:], size=int(rng.integers(60, 141)), replace=False):
            expr[:, g] += rng.uniform(0.25, 0.6) * rng.choice([-1, 1]) * tf[:, h]
    for g in range(n_other):
        if g in in_mod:
            sign = 1.0 if rng.random() < 0.75 else -1.0
            expr[:, g] = sign * rng.uniform(0.6, 1.1) * tf[:, star]
            for p in rng.choice(listed, size=int(rng.integers(0, 2)), replace=False):
                expr[:, g] += rng.uniform(0.2, 0.4) * rng.choice([-1, 1]) * tf[:, p]
            expr[:, g] += _t(rng, M, 0.8)
            continue
        for p in rng.choice(listed, size=int(rng.integers(0, 4)), replace=False):
            expr[:, g] += rng.uniform(0.3, 0.9) * rng.choice([-1, 1]) * tf[:, p]
        if not null and rng.random() < 0.2:
            expr[:, g] += rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * prog[:, rng.integers(N_PROG)]
        expr[:, g] += _t(rng, M, 1.0)
    keep = np.arange(N_TF) if null else listed
    tf_names = [f"TF{j:03d}" for j in range(N_TF)]
    gene_names = [f"g{g:04d}" for g in range(n_other)]
    return {
        "values": np.column_stack([tf[:, keep], expr]),
        "names": [tf_names[j] for j in keep] + gene_names,
        "labels": [f"c{i + 1:02d}" for i in range(M)],
        "regulators": [tf_names[j] for j in keep],
        "removed": None if null else tf[:, star],
        "module": {gene_names[g] for g in module},
    }


def main(argv: list[str] | None = None) -> None:
    holdout_main("hubs", generate, "500-509", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
