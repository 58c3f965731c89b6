"""Do the Hs `--hidden auto` keeps predict held-out instances? (#22, session 22, branch `oos`)

``engine/hidden/out_of_sample.py`` (rule :data:`OUT_OF_SAMPLE`, off by default): a kept H is given back
when the network with it, refitted on the other folds with its structure fixed, does not predict the
held-out instances better than the network before it. This script runs a generator's own per-seed
scorer (its line: kept Hs, what they track, FALSE marks) with the rule in one of three modes:

* ``--mode off``: main's behaviour (the rule off; nothing measured);
* ``--mode measure``: the rule's reading of every kept H is said (``H held out ...`` lines printed
  after the seed's line) but nothing is given back (``MARGIN = -inf``): ``auto`` keeps what ``off``
  keeps, so one run gives the baseline and what the rule would say of each kept H;
* ``--mode on``: the rule as it would ship (``MARGIN`` as in the module).

Generators: the genome hold-outs' scorers ``h18m`` ... ``h22m`` (and their ``-null``), ``relay``,
``h16m``, ``h17m`` and ``module`` (``bench_regulators_genome.run_seed``).

Per seed: the scorer's line, ``auto``'s ``added`` lines (children counted), each out-of-sample reading
(fixed structure, then made again) and, per H the rule read, what it tracks (``read H.. (kept | GIVEN
BACK)``: |r| with the scorer's planted profiles, R* first, and the R^2 of the design the generator marks
false), then the seed's CPU and the readings' share of it.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_out_of_sample.py \
          --gen h20m-null --seeds 2090-2099 --mode on [--n-cols 600]
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import time

import numpy as np
from genome_auto import seed_range

import engine.hidden.out_of_sample as oos

TALLY = {"h16m": "h16", "h17m": "h17", "h18m": "h18", "h19m": "h19", "h20m": "h20", "h21m": "h21", "h22m": "h22",
         "relay": "relay"}  # fmt: skip


SPENT = [0.0]  # CPU seconds inside the out-of-sample readings
READ: list[tuple[str, np.ndarray, int, bool]] = []  # per reading: H, its posterior mean, children, kept


def _timed(reading):
    """``out_of_sample`` timed; with the search given (``REFIND``), the fixed-structure reading is said too."""

    def run(model, before, name, labels=None, search=None):
        c0 = time.process_time()
        try:
            if search is not None:
                search.considered.say(reading(model, before, name, labels).text(name))
            out = reading(model, before, name, labels, search)
            h = model.names.index(name)
            kids = sum(1 for p, _ in model.edges if p == h)
            READ.append((name, np.array(model.mean[:, h], dtype=float), kids, out.keeps))
            return out
        finally:
            SPENT[0] += time.process_time() - c0

    return run


def seeds_of(text: str) -> list[int]:
    """``"2050,2056-2058"`` as [2050, 2056, 2057, 2058] (``genome_auto.seed_range`` per comma-separated part)."""
    return [s for part in text.split(",") for s in seed_range(part)]


def _set_mode(mode: str) -> None:
    oos.out_of_sample = _timed(oos.out_of_sample)
    oos.OUT_OF_SAMPLE = mode != "off"
    if mode == "measure":
        oos.MARGIN, oos.MIN_FOUND = -math.inf, -math.inf


def _tracks(mod, g: dict, prof: np.ndarray) -> str:
    """What a read H tracks: |r| with each of the scorer's planted profiles (R* first), and the R^2 of the
    design the generator marks as false (h20m's donors and cell types, h21m's phase on each series' clock)."""
    removed = np.asarray(g["removed"], dtype=float).reshape(prof.size, -1)
    rs = [abs(float(np.corrcoef(prof, c)[0, 1])) if np.std(c) > 0 else 0.0 for c in removed.T]
    out = f"r*={rs[0]:.2f} r(others)=" + ",".join(f"{r:.2f}" for r in rs[1:])
    if hasattr(mod, "phase_design"):
        out += f" phaseR2={mod.phase_r2(prof, mod.phase_design(g)):.2f}"
    for key in ("donor", "cell_type"):
        if key in g and hasattr(mod, "design_r2"):
            out += f" {key}R2={mod.design_r2(prof, np.asarray(g[key])):.2f}"
    return out


def _tally_seed(gen: str, seed: int, n_cols: int | None = None) -> tuple[str, list[str]]:
    """A tally-style generator's seed line, ``auto``'s progress lines about held-out instances, and per
    out-of-sample reading what its H tracks (:func:`_tracks`)."""
    base = gen.removesuffix("-null")
    mod = importlib.import_module(f"bench_regulators_genome_{TALLY[base]}")
    captured = {}
    fit = mod.fit_auto

    def fit_and_keep(g, source, s):
        est, wall, cpu = fit(g, source, s)
        captured["log"], captured["g"] = est.hidden_log_, g
        return est, wall, cpu

    mod.fit_auto = fit_and_keep
    try:
        width = {} if n_cols is None else {"n_cols": n_cols}  # h16m/h17m's default width is not None
        line, _ = mod.run_seed(mod.generate(seed, gen.endswith("-null"), **width), f"{gen}-{seed}", seed)
    finally:
        mod.fit_auto = fit
    tracks = [f"read {n} ({k} kids, {'kept' if ok else 'GIVEN BACK'}): {_tracks(mod, captured['g'], p)}"
              for n, p, k, ok in READ] if "g" in captured else []  # fmt: skip
    return line, captured.get("log", []) + tracks


def _module_seed(gen: str, seed: int) -> tuple[str, list[str]]:
    import bench_regulators_genome as brg

    out = brg.run_seed(seed, gen, propose=False)
    rows = [
        f"{h['name']} {h['children']} kids r={h['r_removed']:.2f} prec {h['precision']:.2f} rec {h['recall']:.2f} "
        f"{h['realized']:+.1f}"
        for h in out["hidden"]
    ]
    ok = any(h["r_removed"] >= 0.9 for h in out["hidden"])
    line = f"seed {seed} {out['cpu']:6.1f} s CPU {'OK' if ok else '--'} | {'; '.join(rows) or 'nothing kept'}"
    removed = np.asarray(brg.generate(seed, gen)["removed"], dtype=float)  # the same draw again (cheap)
    tracks = [f"read {n} ({k} kids, {'kept' if keeps else 'GIVEN BACK'}): r*={brg._abs_corr(p, removed):.2f}"
              for n, p, k, keeps in READ]  # fmt: skip
    return line, out["log"] + tracks


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--mode", choices=["off", "measure", "on"], default="measure")
    ap.add_argument("--n-cols", type=int, default=None, help="a narrower table (the generators' smoke width)")
    args = ap.parse_args(argv)
    _set_mode(args.mode)
    print(f"# {args.gen} seeds {args.seeds} mode {args.mode} margin {oos.MARGIN} folds {oos.FOLDS} "
          f"cols {args.n_cols or 'full'} load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    for seed in seeds_of(args.seeds):
        c0, SPENT[0] = time.process_time(), 0.0
        READ.clear()
        if args.gen in ("module", "null", "outlier", "count"):
            line, log = _module_seed(args.gen, seed)
        else:
            line, log = _tally_seed(args.gen, seed, args.n_cols)
        print(line, flush=True)
        for said in log:
            if said.startswith("added H"):  # the children named by count only
                head, _, tail = said.partition(" -> ")
                kids, _, rest = tail.partition(" (")
                said = f"{head} -> {len(kids.split(', '))} children ({rest}"
            if said.startswith(("added H", "read H")) or " held out (" in said or "does not predict" in said:
                print("    " + said, flush=True)
        print(f"    total {time.process_time() - c0:.1f} s CPU, readings {SPENT[0]:.2f} s", flush=True)


if __name__ == "__main__":
    main()
