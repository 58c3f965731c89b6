"""A third hold-out for #22 at genome scale (the null target and module recovery), written at the
start of the fourth #22 session before anything was tuned, with seeds nobody looks at until that
session's final code: reported separately in benchmarks/RESULTS.md.

Unlike the other genome generators on purpose: a three-level TF cascade (listed TFs correlated
through their own regulators, so pooled TF activity is everywhere), saturating responses and
noise whose sd differs by gene.

* ``cascade`` (seeds 700-709): 2000 genes x 32 conditions, 100 listed TFs in three levels: 10 roots,
  30 with 1-2 root parents, 60 with 1-3 parents among the first 40 (loads +-U(0.4, 0.9), unit-variance
  noise). R, a second-level TF with one listed root parent (load 0.5), is removed from the table and
  the list; its module is 30 genes, each tanh(1.5 x load x R) (loads U(0.6, 1.1), 70 % positive) plus
  at most one other listed TF at +-U(0.2, 0.5). Every other gene is tanh of a weighted sum of 1-3
  listed TFs (weights +-U(0.3, 0.9)). Noise normal with sd log-uniform in [0.4, 1.2] per gene.
* ``cascade-null`` (the same seeds): R listed; no gene has an unlisted parent, so any kept H is false.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_cascade.py \\
          --gen cascade|cascade-null [--seeds 700-709]
"""

from __future__ import annotations

import numpy as np
from genome_auto import holdout_main

N_GENES, M, N_TF, N_MODULE = 2000, 32, 101, 30


def _tf_table(rng: np.random.Generator) -> np.ndarray:
    """(M, N_TF) standardized TF profiles: 10 roots, 31 on the roots (TF 10 is R), 60 below."""
    tf = np.empty((M, N_TF))
    for j in range(N_TF):
        tf[:, j] = rng.normal(size=M)
        if j == 10:  # R: one root parent at load 0.5
            tf[:, j] += 0.5 * tf[:, int(rng.integers(10))]
        elif 10 < j < 41:
            for p in rng.choice(10, size=int(rng.integers(1, 3)), replace=False):
                tf[:, j] += rng.uniform(0.4, 0.9) * rng.choice([-1, 1]) * tf[:, p]
        elif j >= 41:
            for p in rng.choice(41, size=int(rng.integers(1, 4)), replace=False):
                tf[:, j] += rng.uniform(0.4, 0.9) * rng.choice([-1, 1]) * tf[:, p]
        tf[:, j] = (tf[:, j] - tf[:, j].mean()) / tf[:, j].std()
    return tf


def generate(seed: int, null: bool = False) -> dict:
    """One table: ``values`` (M x genes), ``names``, ``labels``, ``regulators``, ``removed``
    (R's values or None), ``module`` (gene names)."""
    rng = np.random.default_rng(seed)
    tf = _tf_table(rng)
    star = 10
    listed = np.array([j for j in range(N_TF) if j != star])
    n_other = N_GENES - (N_TF - 1)
    module = set(rng.choice(n_other, size=N_MODULE, replace=False).tolist())
    sd = np.exp(rng.uniform(np.log(0.4), np.log(1.2), size=n_other))
    expr = np.empty((M, n_other))
    for g in range(n_other):
        if g in module:
            sign = 1.0 if rng.random() < 0.7 else -1.0
            drive = sign * rng.uniform(0.6, 1.1) * tf[:, star]
            for p in rng.choice(listed, size=int(rng.integers(0, 2)), replace=False):
                drive += rng.uniform(0.2, 0.5) * rng.choice([-1, 1]) * tf[:, p]
            expr[:, g] = np.tanh(1.5 * drive)
        else:
            drive = np.zeros(M)
            for p in rng.choice(listed, size=int(rng.integers(1, 4)), replace=False):
                drive += rng.uniform(0.3, 0.9) * rng.choice([-1, 1]) * tf[:, p]
            expr[:, g] = np.tanh(drive)
        expr[:, g] += sd[g] * rng.normal(size=M)
    keep = np.arange(N_TF) if null else listed
    tf_names = [f"TF{j:03d}" for j in range(N_TF)]
    gene_names = [f"g{g:04d}" for g in range(n_other)]
    return {
        "values": np.column_stack([tf[:, keep], expr]),
        "names": [tf_names[j] for j in keep] + gene_names,
        "labels": [f"s{i + 1:02d}" for i in range(M)],
        "regulators": [tf_names[j] for j in keep],
        "removed": None if null else tf[:, star],
        "module": {gene_names[g] for g in module},
    }


def main(argv: list[str] | None = None) -> None:
    holdout_main("cascade", generate, "700-709", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
