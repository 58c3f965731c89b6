"""What the false hidden variables on genome null tables track (issue #22 item 5, session 16).

``--hidden auto --max-hidden 3`` (``genome_auto.fit_auto``) on a ``relay-null`` table of
``bench_regulators_genome_relay.py`` with one ingredient of the generator switched off at a time
(``--off curves|hetero|groups|missing|tfnoise``, several allowed; none = the generator as it is),
then each kept H's profile read against what the generator knows and the engine does not:

* ``grpR2``: share of the profile's variance the replicate-group labels explain (one-way ANOVA
  R^2; ``chance`` = (G - 1) / (M - 1), its expectation for a profile unrelated to the groups);
* ``act``/``sq``/``thr``: largest |r| with a listed TF's true activity, its square, its sign;
* ``noise``: largest |r| with a listed TF's *measurement noise* (its measured level minus its clean
  level), the TF, and how many genes that TF drives; ``noiseR2``: R^2 of the profile on the
  measurement noise of the five listed TFs with most targets (``hubs``), against the same
  regression for a permuted profile (``perm``);
* ``shares``: the listed TF X that is a parent of most of H's children in the learned network,
  whether X is H's child or parent, |r| of the profile with X's measurement noise, and the
  correlation over those children of H's coefficient with X's (errors in X: proportional);
* ``level``: the median mean log2 level of H's children against every gene's median.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_relay_null.py --seeds 1500 [--off tfnoise]
      [--save DIR]  (``--save`` writes each run's kept profiles and children as .npz)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
from bench_regulators_genome_relay import generate
from genome_auto import fit_auto, seed_range

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HUB = 5  # the listed TFs with most targets, for noiseR2


def group_r2(profile: np.ndarray, labels: list[str]) -> float:
    """One-way ANOVA R^2 of ``profile`` on the replicate group of each label (``WT_heat_r1`` ->
    ``WT_heat``)."""
    groups = np.unique(["_".join(lab.split("_")[:-1]) for lab in labels], return_inverse=True)[1]
    y = profile - profile.mean()
    fitted = (np.bincount(groups, y) / np.bincount(groups))[groups]
    return float(fitted @ fitted / (y @ y))


def r2_on(profile: np.ndarray, x: np.ndarray) -> float:
    """R^2 of ``profile`` on the columns of ``x`` with an intercept (least squares)."""
    a = np.column_stack([np.ones(len(profile)), x])
    y = profile - profile.mean()
    res = y - a @ np.linalg.lstsq(a, y, rcond=None)[0]
    return float(1.0 - res @ res / (y @ y))


def _best(profile: np.ndarray, cols: np.ndarray) -> tuple[float, int]:
    r = np.abs([np.corrcoef(profile, c)[0, 1] for c in cols.T])
    r = np.nan_to_num(r)
    return float(r.max()), int(r.argmax())


def read(g: dict, hs, rng: np.random.Generator) -> list[str]:
    """One line per kept H of the fitted ``HiddenSearch`` ``hs`` on table ``g``."""
    names = g["names"]
    n_tf = len(g["n_targets"])  # the returned listed TFs come first
    act = g["activity"][:, :n_tf] if g["null"] else g["activity"][:, 1 : n_tf + 1]
    noise = g["noise"][:, :n_tf]
    hubs = np.argsort(-g["n_targets"])[:HUB]
    par = hs.em.params()
    n_obs = hs.n_observed
    levels = np.nanmean(g["values"], axis=0)
    m = len(g["labels"])
    chance = (len({"_".join(lab.split("_")[:-1]) for lab in g["labels"]}) - 1) / (m - 1)
    rows = []
    for h in hs.hidden:
        prof = hs.hidden_profile(h.name)
        r_act, _ = _best(prof, act)
        r_sq, _ = _best(prof, act**2)
        r_thr, _ = _best(prof, np.sign(act))
        r_noise, j = _best(prof, noise)
        perm = rng.permutation(prof)
        kids = [names.index(c) for c in h.children if c in names]
        parents = [p for p, c in hs.edges() if c == h.name]
        hi = hs.names.index(h.name)
        on = np.flatnonzero(par.coef[hi, :n_obs])
        shared = (par.coef[:n_tf][:, on] != 0).sum(axis=1)
        x = int(shared.argmax())
        both = on[par.coef[x, on] != 0]
        r_load = np.corrcoef(par.coef[hi, both], par.coef[x, both])[0, 1] if both.size > 2 else np.nan
        tie = "child" if par.coef[hi, x] else "parent" if par.coef[x, hi] else "-"
        rows.append(
            f"  {h.name} {len(h.children)} kids {h.realized_gain:+.1f} <- {','.join(parents) or '-'} | "
            f"grpR2 {group_r2(prof, g['labels']):.2f} (chance {chance:.2f}) act {r_act:.2f} sq {r_sq:.2f} "
            f"thr {r_thr:.2f} | noise {r_noise:.2f} ({names[j]}, {g['n_targets'][j]} targets) "
            f"noiseR2 {r2_on(prof, noise[:, hubs]):.2f} (perm {r2_on(perm, noise[:, hubs]):.2f}, {len(hubs)} hubs) "
            f"| shares {shared[x]} kids with {names[x]} ({g['n_targets'][x]} targets, H-{names[x]} {tie}, "
            f"r(noise) {abs(np.corrcoef(prof, noise[:, x])[0, 1]):.2f}, r(loadings) {r_load:+.2f}) "
            f"| level {np.median(levels[kids]):.1f} (all {np.median(levels):.1f})"
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1500")
    ap.add_argument("--off", nargs="*", default=[], choices=["curves", "hetero", "groups", "missing", "tfnoise"])
    ap.add_argument("--planted", action="store_true", help="the relay table, not relay-null")
    ap.add_argument("--save")
    args = ap.parse_args(argv)
    off = frozenset(args.off)
    print(f"# relay{'' if args.planted else '-null'} off={sorted(off) or '-'} load {os.getloadavg()[0]:.1f}")
    for seed in seed_range(args.seeds):
        g = generate(seed, not args.planted, off=off)
        est, wall, cpu = fit_auto({**g, "removed": None}, f"relay-null-{seed}", seed)
        hs = est.hidden_search_
        print(f"seed {seed} kept {len(hs.hidden)} {wall:.0f} s wall {cpu:.0f} s CPU", flush=True)
        for row in read(g, hs, np.random.default_rng(seed)):
            print(row, flush=True)
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            np.savez(
                Path(args.save) / f"{seed}_{'-'.join(sorted(off)) or 'base'}.npz",
                **{h.name: hs.hidden_profile(h.name) for h in hs.hidden},
                **{f"{h.name}_children": np.array(sorted(h.children)) for h in hs.hidden},
            )


if __name__ == "__main__":
    main()
