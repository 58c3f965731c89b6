"""Batch factors given as covariates against batch factors left to ``--hidden auto`` (``--covariates``).

A small generator of its own (:func:`covariate_study`; not the genome batch hold-out): M samples in
2-3 equal batches, each batch shifting a random share of the genes by N(0, 1.5^2) per gene, and a
planted module g0..g5 driven by one unmeasured regulator (loading 1.2). For each seed, ``learn
--hidden auto --score bic`` (BIC in both arms, as ``auto`` now also chooses: its shape rule does not
count the covariates, docs/decisions/score-auto.md) without and with the batch as a covariate; printed:
the hidden variables kept, how many track the batch (children: at least 60 % of the shifted genes,
and mostly shifted genes), whether one recovers the module (at least 4 of g0..g5 among its children,
mostly module genes), the largest share of a hidden profile's variance the batch explains (R^2 of
the posterior mean on the batch labels), and the CPU seconds. tests/engine/test_covariates.py runs
seed 4 as its smoke case.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_covariates.py --seeds 1-10 [--batches 2] [--m 60] [--n 30]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's engine, not another one installed

MODULE = {f"g{j}" for j in range(6)}


def covariate_study(seed: int = 4, m: int = 60, n: int = 30, n_batch: int = 2, shifted: float = 0.4):
    """Samples x genes (index ``sample``), the sample annotations (``sample``, ``batch``, ``rin``: a
    numeric column of noise) and the names of the batch-shifted genes."""
    rng = np.random.default_rng(seed)
    batch = np.repeat(np.arange(n_batch), m // n_batch)
    x = rng.normal(size=(m, n))
    x[:, :6] += 1.2 * rng.normal(size=m)[:, None]
    hit = rng.choice(np.arange(6, n), int(shifted * n), replace=False)
    x[:, hit] += rng.normal(scale=1.5, size=(n_batch, n))[batch][:, hit]
    samples = [f"s{i}" for i in range(m)]
    frame = pd.DataFrame(x, columns=[f"g{j}" for j in range(n)], index=pd.Index(samples, name="sample"))
    cov = pd.DataFrame({"sample": samples, "batch": [f"b{b}" for b in batch], "rin": rng.uniform(6, 9, m).round(2)})
    return frame, cov, {f"g{j}" for j in hit}


def hidden_children(result: dict) -> dict[str, set[str]]:
    """Each hidden variable's children in a learn result."""
    hidden = {h["name"] for h in result.get("hidden", [])}
    return {h: {e["child"] for e in result["edges"] if e["parent"] == h} for h in hidden}


def batch_r2(result: dict, batch: np.ndarray) -> float:
    """The largest R^2 of a hidden variable's posterior-mean profile on the batch (one-way ANOVA), 0 without H."""
    best = 0.0
    for h in result.get("hidden", []):
        prof = np.asarray(h["profile"], dtype=float)
        fitted = pd.Series(prof).groupby(batch).transform("mean").to_numpy()
        best = max(best, 1 - np.sum((prof - fitted) ** 2) / np.sum((prof - prof.mean()) ** 2))
    return best


def tracks(kids: set[str], genes: set[str], share: float) -> bool:
    """Whether children ``kids`` cover ``share`` of ``genes`` and are mostly among them."""
    common = len(kids & genes)
    return common >= share * len(genes) and common >= len(kids) / 2


def run(seed: int, args, folder: Path) -> list[str]:
    from engine.cli import main

    frame, cov, shifted = covariate_study(seed, args.m, args.n, args.batches, args.shifted)
    data, table = folder / "d.csv", folder / "cov.csv"
    frame.to_csv(data)
    cov[["sample", "batch"]].to_csv(table, index=False)
    rows = []
    for arm, extra in (("plain", []), ("given", ["--covariates", str(table)])):
        out = folder / f"{arm}.json"
        t = time.process_time()
        with contextlib.redirect_stderr(io.StringIO()):
            rc = main(["learn", str(data), "--hidden", "auto", "--score", "bic", "--out", str(out), "--quiet", *extra])
        cpu = time.process_time() - t
        if rc != 0:
            rows.append(f"{seed:>4} {arm:<6} exit {rc}")
            continue
        result = json.loads(out.read_text())
        kids = hidden_children(result)
        r2 = batch_r2(result, cov["batch"].to_numpy())
        batchy = sum(tracks(k, shifted, 0.6) for k in kids.values())
        module = any(len(k & MODULE) >= 4 and len(k & MODULE) >= len(k) / 2 for k in kids.values())
        rows.append(
            f"{seed:>4} {arm:<6} {len(kids):>2} H  batch-tracking {batchy}  module {'yes' if module else 'no '}"
            f"  max R2(H ~ batch) {r2:.2f}"
            f"  {cpu:6.1f} s CPU"
        )
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-10", help="e.g. 1-10 or 3,5,7")
    parser.add_argument("--batches", type=int, default=2)
    parser.add_argument("--m", type=int, default=60)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--shifted", type=float, default=0.4)
    args = parser.parse_args(argv)
    if "-" in args.seeds:
        lo, hi = map(int, args.seeds.split("-"))
        seeds = list(range(lo, hi + 1))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    print(f"M={args.m} N={args.n} batches={args.batches} shifted={args.shifted}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            for row in run(seed, args, Path(tmp)):
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
