"""The activity flag (``engine/hidden/activity.py``) on every kept hidden variable of the seen genome
generators (issue #22 item 5, session 16): is a flagged H a measured regulator's activity, and is a
correct H ever flagged?

``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``), then
per kept H: its children and realized gain, its largest |r| with what the generator planted
(removed regulators, on/off drivers, unlisted factors; batch indicators on ``batch``), and the
regulator report's ``activity`` (the observed parent sharing most of H's children, how many, the
cosine of the two coefficient vectors over them, ``ACTIVITY`` when flagged) and
``activity.nonlinear_match``, measured here only (the parent whose cubic best explains H's
profile, R^2 of the cubic and of the line, the corrected p of the curvature, ``CURVE`` when
flagged). On ``relay``/``relay-null`` also |r| of H's profile with that regulator's measurement
noise (the generator knows it).

Generators: ``module``, ``null``, ``count`` (``bench_regulators_genome.py``), ``pulse``, ``pulse-null``
(``_pulse``), ``two``, ``two-null`` (``_holdout``), ``batch``, ``batch-null`` (``_batch``), ``relay``,
``relay-null`` (``_relay``), and ``relay-null-tfnoise`` (``-hetero``): relay-null with the listed TFs
measured exactly (and each gene's noise fixed at its mean level), where only R*'s curves are left.

On a real table (``--table T.csv --regulators R.txt [--regulons S.csv]``: the files
``bench_regulators_real.py`` writes, conditions x genes) the same read, with the children's best
known regulon (one-sided hypergeometric p) in place of the planted profiles.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_activity_flag.py --gen null --seeds 0-9
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_activity_flag.py --table T.csv --regulators R.txt
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import bench_regulators_genome as genome
import bench_regulators_genome_batch as batch
import bench_regulators_genome_holdout as holdout
import bench_regulators_genome_pulse as pulse
import bench_regulators_genome_relay as relay
import numpy as np
import pandas as pd
from genome_auto import fit_auto, seed_range

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.enrichment import hypergeometric_p  # noqa: E402
from engine.hidden.activity import nonlinear_match  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402

GENS = {
    "module": lambda s: genome.generate(s, "module"),
    "null": lambda s: genome.generate(s, "null"),
    "count": lambda s: genome.generate(s, "count"),
    "pulse": lambda s: pulse.generate(s, False),
    "pulse-null": lambda s: pulse.generate(s, True),
    "two": lambda s: holdout.generate(s, False),
    "two-null": lambda s: holdout.generate(s, True),
    "batch": lambda s: batch.generate(s, False),
    "batch-null": lambda s: batch.generate(s, True),
    "relay": lambda s: relay.generate(s, False),
    "relay-null": lambda s: relay.generate(s, True),
    # the diagnosis' switches (study_relay_null.py): listed TFs measured exactly, and also without
    # level-dependent noise, so that only the curves of R*'s module are left
    "relay-null-tfnoise": lambda s: relay.generate(s, True, off=frozenset({"tfnoise"})),
    "relay-null-tfnoise-hetero": lambda s: relay.generate(s, True, off=frozenset({"tfnoise", "hetero"})),
}
TRACK = 0.9


def planted(g: dict) -> tuple[np.ndarray, list[str]]:
    """(M, k) profiles the generator planted and their names (R*, D, F for factors, B for batches)."""
    cols, names = [], []
    for key, tag in (("star", "R*"), ("removed", "R"), ("driver", "D"), ("drivers", "D"), ("factors", "F")):
        v = g.get(key)
        if v is None or (key == "removed" and "star" in g):
            continue
        v = np.asarray(v, dtype=float).reshape(len(g["labels"]), -1)
        cols.append(v)
        names += [f"{tag}{i + 1}" if v.shape[1] > 1 else tag for i in range(v.shape[1])]
    if "batch" in g:
        b = np.asarray(g["batch"])
        for level in np.unique(b):
            cols.append((b == level).astype(float)[:, None])
            names.append(f"B{level}")
    return (np.column_stack(cols) if cols else np.zeros((len(g["labels"]), 0))), names


def _abs_r(a: np.ndarray, b: np.ndarray) -> float:
    return 0.0 if np.std(b) == 0 else abs(float(np.corrcoef(a, b)[0, 1]))


def run(gen: str, seed: int) -> list[str]:
    g = GENS[gen](seed)
    est, wall, cpu = fit_auto({**g, "removed": None}, f"{gen}-{seed}", seed)
    hs = est.hidden_search_
    prof_true, true_names = planted(g)
    reports = {r.name: r for r in hs.report()}
    rows = [f"{gen} {seed}: kept {len(hs.hidden)} ({cpu:.0f} s CPU)"]
    for h in hs.hidden:
        prof = hs.hidden_profile(h.name)
        rep = reports[h.name]
        rs = [_abs_r(prof, c) for c in prof_true.T]
        j = int(np.argmax(rs)) if rs else -1
        truth = f"{true_names[j]} {rs[j]:.2f}" if rs else "-"
        act = rep.extra.get("activity")
        text = _activity_text(rep, len(h.children), _curve(hs, h.name))
        if act:
            if "noise" in g and act["regulator"] in g["names"]:
                x = g["names"].index(act["regulator"])
                text += f" r(noise) {_abs_r(prof, g['noise'][:, x]):.2f}"
        tracks = " TRACKS" if rs and rs[j] >= TRACK else ""
        rows.append(
            f"  {h.name} {len(h.children)} kids {h.realized_gain:+.1f} <- {','.join(rep.parents) or '-'} "
            f"(R2 {rep.parents_r2:.2f}) | best planted {truth}{tracks} | {text}"
        )
    return rows


def _curve(hs, name: str) -> dict | None:
    """``activity.nonlinear_match`` of H ``name`` against the network's observed parents (not in the
    report: measured here only)."""
    par, n_obs = hs.em.params(), hs.n_observed
    regs = np.flatnonzero((par.coef[:n_obs] != 0).any(axis=1))
    cur = nonlinear_match(hs.em.mean[:, hs.names.index(name)], hs.em.mean, hs.names, regs)
    return None if cur is None else cur.to_dict()


def _activity_text(rep, n_children: int, cur: dict | None = None) -> str:
    act = rep.extra.get("activity")
    if not act:
        return "activity -"
    flag = " ACTIVITY" if act["flagged"] else ""
    text = f"activity {act['regulator']} {act['shared']}/{n_children} cos {act['cosine']:+.2f}{flag}"
    if cur:
        text += f" | curve {cur['regulator']} R2 {cur['r2']:.2f} (line {cur['linear_r2']:.2f}, p {cur['p']:.0e})"
        text += " CURVE" if cur["flagged"] else ""
    return text


def run_table(table: str, regulators: str, regulons: str | None) -> list[str]:
    """The read of :func:`run` on a real table, regulons in place of planted profiles."""
    ds = load_table(table)
    regs = [x.strip() for x in Path(regulators).read_text().splitlines() if x.strip()]
    sets: dict[str, set[str]] = {}
    if regulons:
        for row in pd.read_csv(regulons).itertuples(index=False):
            sets.setdefault(str(row[0]), set()).add(str(row[1]))
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=regs, random_state=0)
    c0 = time.process_time()
    est.fit(ds)
    hs = est.hidden_search_
    reports = {r.name: r for r in hs.report()}
    universe = set(ds.names)
    rows = [f"{Path(table).name}: kept {len(hs.hidden)} ({time.process_time() - c0:.0f} s CPU)"]
    for h in hs.hidden:
        rep, kids = reports[h.name], set(h.children)
        best = "-"
        if sets:
            ps = {
                name: (hypergeometric_p(len(kids & s), len(s & universe), len(kids), len(universe)), len(kids & s), s)
                for name, s in sets.items()
                if kids & s
            }
            name = min(ps, key=lambda k: ps[k][0]) if ps else None
            best = f"{name} {ps[name][1]}/{len(ps[name][2] & universe)} p {ps[name][0]:.0e}" if name else "-"
        rows.append(
            f"  {h.name} {len(kids)} kids {h.realized_gain:+.1f} <- {','.join(rep.parents) or '-'} "
            f"(R2 {rep.parents_r2:.2f}) | best regulon {best} | {_activity_text(rep, len(kids), _curve(hs, h.name))}"
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", choices=sorted(GENS))
    ap.add_argument("--seeds")
    ap.add_argument("--table")
    ap.add_argument("--regulators")
    ap.add_argument("--regulons")
    args = ap.parse_args(argv)
    if args.table:
        print(f"# {args.table} load {os.getloadavg()[0]:.1f}", flush=True)
        print("\n".join(run_table(args.table, args.regulators, args.regulons)), flush=True)
        return
    print(f"# {args.gen} {args.seeds} load {os.getloadavg()[0]:.1f}", flush=True)
    for seed in seed_range(args.seeds):
        print("\n".join(run(args.gen, seed)), flush=True)


if __name__ == "__main__":
    main()
