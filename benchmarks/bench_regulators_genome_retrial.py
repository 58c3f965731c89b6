"""Half-sample support of the hidden regulators ``auto`` keeps at genome scale, by re-running only
the kept proposal's trial on half-samples (``genome_retrial.py``; #22, the null target; findings in
docs/decisions/genome-null-hidden-regulators.md, third round).

For each seed, ``--hidden auto --max-hidden 3`` with the generator's regulator list on the whole
table; whenever a trial would be kept, :func:`half_sample_support` re-runs that trial on ``--b``
half-samples of the conditions (before auto moves on). Printed per kept H: its truth (|r| with a
removed regulator), realized gain, children, and per half-sample the gain there, |r| of the
held-out prediction with the whole-table H, |r| on the half, children Jaccard; and the check's CPU.
``--mode reproposal``: instead, the proposals auto would try on each half (chosen there), the one
whose z* best tracks H and the top three tried there (rank, |r| of z*, gain, |r| of H after EM).
``--mode warm``: auto itself re-run on each half, its network warm-started from the whole table's
(cut to the half's parent cap); per kept H the best |r| of a half's kept H with it there.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_regulators_genome_retrial.py \
          --gen null --seeds 3,6,9 [--b 6]
      (``--gen`` null|module|count from bench_regulators_genome.py, two|two-null from the
      hold-out, hubs|hubs-null from the second hold-out; ``--table T.csv --regulators R.txt``: a
      real table, e.g. the E. coli tables of bench_regulators_real.py)
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
import genome_retrial as rt  # noqa: E402
from bench_regulators_genome_stability import table  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import trial as tr  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def reproposal(search, trial, m: int, b: int, seed: int) -> list:
    """Per half-sample: the proposals auto would try there (:func:`rt.reproposed`); the one whose
    z* best tracks the whole-table H and the top three are tried there (blanket stage); returned
    per tried proposal: (rank, |r| of z*, gain on the half, |r| of the half's H after EM)."""
    prof = trial.em.mean[:, trial.em.names.index(trial.name)]
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(b):
        rows = np.sort(rng.choice(m, size=m // 2, replace=False))
        cands = rt.reproposed(search, trial, rows)
        pick = sorted(range(len(cands)), key=lambda i: -cands[i][0])[:1] + list(range(min(3, len(cands))))
        res = []
        for i in dict.fromkeys(pick):
            gain, em, _ = rt._on_rows(search, cands[i][1], trial.name, rows)
            col = em.names.index(trial.name)
            res.append((i + 1, round(cands[i][0], 2), round(gain, 1), round(rt._abs_r(em.mean[:, col], prof[rows]), 2)))
        out.append(res)
    return out


def warm(est, ds, b: int, seed: int) -> list[tuple[list[float], float]]:
    """Per kept H of the whole-table run, per half-sample: auto re-run on the half (proposals,
    trials, keep rule), its network without hidden variables warm-started from the whole table's
    (cut to the half's parent cap); the best |r| of a kept H's profile there with the whole-table
    H's on those conditions. Returns, per H, (the |r| of each half, CPU s of all halves)."""
    hs = est.hidden_search_
    m = ds.n_samples
    obs = [(p, c) for p, c in hs.edges() if p in hs.names[: hs.n_observed] and c in hs.names[: hs.n_observed]]
    profiles = [hs.hidden_profile(h.name) for h in hs.hidden]
    rng = np.random.default_rng(seed)
    cor = np.zeros((len(profiles), b))
    c0 = time.process_time()
    for i in range(b):
        rows = np.sort(rng.choice(m, size=m // 2, replace=False))
        sub = type(hs)(
            ds.subset(rows),
            hs.settings,
            initial_edges=rt._capped(hs, obs, len(rows)),
            em_options=hs.em_options,
            seed=seed,
        )
        sub.auto(len(profiles))
        for k, prof in enumerate(profiles):
            cor[k, i] = max((rt._abs_r(prof[rows], sub.hidden_profile(h.name)) for h in sub.hidden), default=0.0)
    sec = time.process_time() - c0
    return [(np.round(cor[k], 2).tolist(), sec) for k in range(len(profiles))]


def study(gen: str, seed: int, b: int, mode: str = "trial", real: tuple[str, str] | None = None) -> None:
    if real is None:
        g = table(gen, seed)
        ds = from_array(g["values"], g["names"], instance_labels=g["labels"], source=f"{gen}-{seed}")
    else:  # a real table (CSV, conditions as rows) and its regulator list (one name a line)
        ds = load_table(real[0])
        g = {"regulators": Path(real[1]).read_text().split(), "removed": None}
        gen = Path(real[0]).name
    m = ds.n_samples
    removed = g.get("removed")
    removed = None if removed is None else np.reshape(removed, (m, -1))
    found = []
    inner = tr.try_proposal

    def hooked(search, prop, best, callback=None):
        trial = inner(search, prop, best, callback)
        if trial.score > max(best, trial.alternative_score):
            c0 = time.process_time()
            if mode == "reproposal":
                rep = reproposal(search, trial, m, b, seed)
            else:
                rep = rt.half_sample_support(search, prop, trial, n_draws=b, random_state=seed)
            found.append((trial, rep, time.process_time() - c0))
        return trial

    if mode != "warm":
        tr.try_proposal = hooked
    try:
        est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=g["regulators"], random_state=seed)
        c0 = time.process_time()
        est.fit(ds)
        cpu = time.process_time() - c0
    finally:
        tr.try_proposal = inner
    if mode == "warm":
        for h, (rs, sec) in zip(est.hidden_search_.hidden, warm(est, ds, b, seed), strict=True):
            prof = est.hidden_search_.hidden_profile(h.name)
            r = float("nan") if removed is None else max(abs(np.corrcoef(prof, c)[0, 1]) for c in removed.T)
            n_ok = sum(x >= rt.MATCH_R for x in rs)
            print(
                f"  {h.name}: {len(h.children)} children, |r| removed {r:.2f}, gain {h.realized_gain:+.1f}: "
                f"profile |r| >= 0.9 on {n_ok}/{b} warm halves {rs} ({sec:.1f} s CPU all halves)",
                flush=True,
            )
        return
    check = sum(f[2] for f in found)
    print(f"{gen} {seed}: {len(found)} kept, {cpu:.1f} s CPU of which the check {check:.1f} s", flush=True)
    for trial, rep, sec in found:
        col = trial.em.names.index(trial.name)
        prof = trial.em.mean[:, col]
        kids = [c for p, c in trial.em.edges if p == col]
        r = float("nan") if removed is None else max(abs(np.corrcoef(prof, c)[0, 1]) for c in removed.T)
        if mode == "reproposal":
            print(f"  {trial.name}: {len(kids)} children, |r| removed {r:.2f} ({sec:.1f} s):", flush=True)
            for res in rep:
                print(f"    (rank, |r| z*, gain, |r| H) {res}", flush=True)
            continue
        print(
            f"  {trial.name}: {len(kids)} children, |r| removed {r:.2f}, score {trial.score:.1f}: "
            f"reproduced {rep.k}/{rep.draws} ({sec:.1f} s) gains {np.round(rep.gains, 1).tolist()} "
            f"r_held {np.round(rep.r_held, 2).tolist()} r_in {np.round(rep.r_in, 2).tolist()} "
            f"jac {np.round(rep.jaccard, 2).tolist()}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", default="null")
    ap.add_argument("--seeds", default="3,6,9")
    ap.add_argument("--b", type=int, default=6)
    ap.add_argument("--mode", choices=["trial", "reproposal", "warm"], default="trial")
    ap.add_argument("--table", help="a real table (CSV) instead of a generator, with --regulators")
    ap.add_argument("--regulators", help="the table's regulator list (one name a line)")
    args = ap.parse_args(argv)
    print(
        f"# retrial ({args.mode}) {args.table or args.gen} seeds {args.seeds}, B {args.b}, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    if args.table:
        study("real", 0, args.b, args.mode, (args.table, args.regulators))
        return
    for seed in bench._seeds(args.seeds):
        study(args.gen, seed, args.b, args.mode)


if __name__ == "__main__":
    main()
