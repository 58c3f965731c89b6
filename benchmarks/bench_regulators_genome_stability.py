"""Is a kept hidden regulator reproduced on subsamples of the conditions? (#22, the null target at
genome scale; findings in docs/decisions/genome-null-hidden-regulators.md.)

For each seed, ``--hidden auto --max-hidden 3`` with the generator's regulator list on the whole
table; then the same run (proposals, trials, keep rule: everything auto does) on ``--b`` subsamples
of the conditions drawn without replacement (``--frac`` of them; stability selection, Meinshausen
& Buehlmann 2010, draws half, which at M = 27 leaves 13 conditions). A kept H is reproduced on a
subsample when one of the Hs kept there has a children set with Jaccard >= 0.5 with its own (the
matching ``engine/bootstrap`` uses); also printed, the best |r| between its profile and a
subsample H's on the subsample's conditions (a regulator found with fewer children). Printed per
kept H: its truth (|r| with a removed regulator), realized gain, children, and the share of
subsamples that reproduce it (by Jaccard; by profile |r| >= 0.9) with the values.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_stability.py \
          --gen null --seeds 3,6,9 [--b 6] [--frac 0.75]
      (``--gen`` null|module|count from bench_regulators_genome.py, two|two-null from the hold-out)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_regulators_genome as bench  # noqa: E402
import bench_regulators_genome_holdout as holdout  # noqa: E402
import bench_regulators_genome_hubs as hubs  # noqa: E402

from engine.bootstrap import jaccard  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def table(gen: str, seed: int) -> dict:
    """The generated table of ``gen`` (the genome generators and the two first hold-outs)."""
    if gen in ("two", "two-null"):
        return holdout.generate(seed, null=gen == "two-null")
    if gen in ("hubs", "hubs-null"):
        return hubs.generate(seed, null=gen == "hubs-null")
    return bench.generate(seed, gen)


def kept(g: dict, rows: np.ndarray, seed: int) -> list[tuple[frozenset, np.ndarray, float]]:
    """(children, profile, realized gain) of every H auto keeps on the conditions ``rows``."""
    labels = [g["labels"][i] for i in rows]
    ds = from_array(g["values"][rows], g["names"], instance_labels=labels)
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=g["regulators"], random_state=seed)
    hs = est.fit(ds).hidden_search_
    return [(frozenset(h.children), hs.hidden_profile(h.name), h.realized_gain) for h in hs.hidden]


def study(gen: str, seed: int, b: int, frac: float) -> None:
    g = table(gen, seed)
    m = len(g["labels"])
    t0 = time.process_time()
    full = kept(g, np.arange(m), seed)
    removed = g.get("removed")
    removed = None if removed is None else np.reshape(removed, (m, -1))
    print(f"{gen} {seed}: {len(full)} kept on all {m} conditions ({time.process_time() - t0:.0f} s CPU)", flush=True)
    if not full:
        return
    rng = np.random.default_rng(10_000 + seed)
    jac, cor = np.zeros((len(full), b)), np.zeros((len(full), b))
    for i in range(b):
        rows = np.sort(rng.choice(m, size=int(round(frac * m)), replace=False))
        sub = kept(g, rows, seed)
        for k, (kids, prof, _) in enumerate(full):
            jac[k, i] = max((jaccard(kids, s[0]) for s in sub), default=0.0)
            cor[k, i] = max((abs(np.corrcoef(prof[rows], s[1])[0, 1]) for s in sub), default=0.0)
        print(
            f"  subsample {i}: {len(sub)} kept ({[len(s[0]) for s in sub]} children), best Jaccards "
            f"{np.round(jac[:, i], 2).tolist()}, best |r| of profiles there {np.round(cor[:, i], 2).tolist()}",
            flush=True,
        )
    for k, (kids, prof, gain) in enumerate(full):
        r = float("nan") if removed is None else max(abs(np.corrcoef(prof, c)[0, 1]) for c in removed.T)
        share = float(np.mean(jac[k] >= 0.5))
        print(
            f"{gen} {seed} H{k + 1}: {len(kids)} children, realized {gain:+.1f}, |r| removed {r:.2f}: "
            f"reproduced {share:.2f} (Jaccards {np.round(jac[k], 2).tolist()}); profile |r| >= 0.9 on "
            f"{float(np.mean(cor[k] >= 0.9)):.2f} ({np.round(cor[k], 2).tolist()})",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", choices=["null", "module", "count", "two", "two-null"], default="null")
    ap.add_argument("--seeds", default="3,6,9")
    ap.add_argument("--b", type=int, default=6)
    ap.add_argument("--frac", type=float, default=0.75)
    args = ap.parse_args(argv)
    print(f"# stability {args.gen} seeds {args.seeds}, B {args.b}, frac {args.frac}, load {os.getloadavg()[0]:.1f}")
    for seed in bench._seeds(args.seeds):
        study(args.gen, seed, args.b, args.frac)


if __name__ == "__main__":
    main()
