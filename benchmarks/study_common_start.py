"""Where an accepted H starts (``engine/hidden/common_start.py``): z*, the members' common profile,
the stand-in parent's edges removed, or both, measured on seen generators (#22, session 19).

``--gen walk`` is the newcomer walk's lab table (docs/decisions/activity-flag-two-readings.md;
:func:`walk`, the recipe of that page, numpy, seed 19): 800 genes x 24 conditions, 30 listed TFs,
40 genes on an unmeasured activity h that correlates +0.68 with the listed TF YG0007W through the
heat conditions. Other generators: ``module``/``null`` (``bench_regulators_genome.py``), ``relay``
(``bench_regulators_genome_relay.py``), ``h17m``/``h17m-null`` (``bench_regulators_genome_h17.py``).
Never the held-out h29g/h29m (h19g/h19m, then h20g/h20m, h21g/h21m, h22g/h22m, h23g/h23m, h24g/h24m,
h25g/h25m, h26g/h26m, h27g/h27m, h28g/h28m were held out when it was written and changed).

Per seed and start: every kept H (``--hidden auto --max-hidden 3``, ``genome_auto.fit_auto``) with
|r| of its profile with the planted regulator (R*, or h), its children (in the module), realized gain,
its listed parents and the activity flag; CPU s of the run.

    OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_common_start.py --gen walk --modes residual,both
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from genome_auto import fit_auto, kept_of, seed_range  # noqa: E402

from engine.hidden import common_start  # noqa: E402


def walk(seed: int = 19, null: bool = False) -> dict:
    """The newcomer walk's table as conditions x genes (``make_lab.py`` of the walk, same draws):
    ``values``, ``names``, ``labels``, ``regulators`` (the 30 listed TFs), ``removed`` (h),
    ``module`` (the 40 genes on h). ``null``: the module genes get noise instead of h."""
    rng = np.random.default_rng(seed)
    conds = [
        f"{g}_{t}_{tm}_rep{r}"
        for g in ("WT", "dfur")
        for t in ("control", "heat", "cold")
        for tm in ("30min", "2h")
        for r in (1, 2)
    ]
    m, n = len(conds), 800
    genes = [f"YG{i:04d}W" for i in range(n)]
    tfs = list(range(30))
    x = np.zeros((n, m))
    heat = np.array(["heat" in c for c in conds], float)
    cold = np.array(["cold" in c for c in conds], float)
    for t in tfs:
        x[t] = rng.normal(0, 1, m) + rng.normal(0, 1) * heat + rng.normal(0, 1) * cold
    h = rng.normal(0, 1, m) + 1.5 * heat * np.array(["WT" in c for c in conds])
    h = (h - h.mean()) / h.std()
    module = list(range(100, 140))
    for g in range(30, n):
        par = rng.choice(tfs, size=rng.integers(0, 3), replace=False)
        x[g] = sum(rng.normal(0, 0.8) * x[p] for p in par) + rng.normal(0, 0.6 if len(par) else 1, m)
    for g in module:
        w = rng.uniform(0.8, 1.3) * rng.choice([-1, 1], p=[0.2, 0.8])
        x[g] = (0.0 if null else w) * h + rng.normal(0, 0.35, m)
    x = rng.uniform(5, 12, n)[:, None] + x
    odd = conds.index("dfur_cold_2h_rep2")
    oddg = rng.choice(np.arange(140, n), 100, replace=False)
    x[oddg, odd] += rng.choice([-1, 1], 100) * rng.uniform(5, 8, 100)
    x = np.round(x, 3)
    for _ in range(12):
        x[rng.integers(0, n), rng.integers(0, m)] = np.nan
    return {
        "values": x.T.copy(),
        "names": genes,
        "labels": conds,
        "regulators": [genes[t] for t in tfs],
        "removed": None if null else h,
        "module": {genes[g] for g in module},
    }


def generate(gen: str, seed: int) -> dict:
    """The table of ``gen`` at ``seed``, ``removed`` the planted regulator's profile (or None)."""
    null = gen.endswith("null")
    if gen.startswith("walk"):
        return walk(seed, null)
    if gen in ("module", "null"):
        import bench_regulators_genome as b

        return b.generate(seed, gen)
    if gen.startswith("relay"):
        import bench_regulators_genome_relay as b
    else:
        import bench_regulators_genome_h17 as b
    g = b.generate(seed, null)
    return {**g, "removed": None if null else g["star"]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", default="walk", help="walk, walk-null, module, null, relay, relay-null, h17m, h17m-null")
    ap.add_argument("--seeds", default="19")
    ap.add_argument("--modes", default="residual,both", help=f"comma-separated of {common_start.MODES}")
    args = ap.parse_args(argv)
    if "h29" in args.gen:
        raise SystemExit("h29g/h29m are held out")
    print(f"# {args.gen} seeds {args.seeds} load {os.getloadavg()[0]:.1f}", flush=True)
    for seed in seed_range(args.seeds):
        g = generate(args.gen, seed)
        for mode in args.modes.split(","):
            common_start.MODE = mode
            est, _, cpu = fit_auto(g, f"{args.gen}-{seed}", seed)
            kept = kept_of(est.hidden_search_, g)
            rows = [
                f"{k.name} r={k.r[0] if k.r else 0.0:.2f} kids {len(k.children)}"
                f" (module {len(k.children & g['module'])})"
                f" {k.gain:+.1f} <- {','.join(p for p in k.parents if not p.startswith('H')) or '-'}"
                f"{' ACT ' + k.activity if k.activity else ''}"
                for k in kept
            ]
            print(f"{args.gen} {seed} {mode:8s} {cpu:6.1f} s CPU | {'; '.join(rows) or 'nothing kept'}", flush=True)


if __name__ == "__main__":
    main()
