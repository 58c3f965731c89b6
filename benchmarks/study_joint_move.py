"""The joint re-assignment move (engine/hidden/joint.py) on single seeds of the general generators (#22 item 1).

Per seed of ``--gen`` (seeds counted from the generator's first, as ``bench_regulators.py --first``):

* ``auto``: ``HiddenSearch(ds).auto(max_hidden=2)`` with the move off (``joint.JOINT = False``,
  main's code) and, with ``--both``, on; the kept H's children against the planted ones, its
  observed BIC, CPU seconds;
* ``oracle``: structural EM from the true structure with the true h, then ``climb`` (the missing
  optimum, when it scores higher than what auto kept);
* ``move``: the move applied to auto's final model (move off), then ``climb_once``: each
  candidate's score after one re-assignment, and the model the move and a climb reach.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_joint_move.py --gen hub --seeds 2,3 [--both]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from planted_general import generate_all, true_edges  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch, StructuralEM, joint  # noqa: E402
from engine.hidden.climb import climb, climb_once  # noqa: E402
from engine.hidden.model_copy import copy_model  # noqa: E402


def kids_of(em: StructuralEM, col: int) -> set[int]:
    return {c for p, c in em.edges if p == col and c < em.n_obs}


def describe(em: StructuralEM, kid_sets, hs_true) -> str:
    """For each planted root: the hidden variable tracking it best, its children P, R, |corr|."""
    out = []
    for kids, h in zip(kid_sets, hs_true, strict=True):
        if em.n_vars == em.n_obs:
            out.append("none")
            continue
        cols = list(range(em.n_obs, em.n_vars))
        corr = [abs(np.corrcoef(em.mean[:, c], h)[0, 1]) for c in cols]
        col = cols[int(np.argmax(corr))]
        ch = kids_of(em, col)
        p = len(ch & kids) / len(ch) if ch else 0.0
        hit = len(ch & kids)
        out.append(f"{hit}/{len(kids)} (+{len(ch - kids)}) P {p:.2f} R {hit / len(kids):.2f} |corr| {max(corr):.3f}")
    return "; ".join(out)


def run_auto(ds, on: bool):
    joint.JOINT = on
    c0 = time.process_time()
    hs = HiddenSearch(ds)
    found = hs.auto(max_hidden=2)
    return hs, found, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="hub")
    ap.add_argument("--seeds", default="2,3")
    ap.add_argument("--both", action="store_true", help="also auto with the move on")
    ap.add_argument("--no-oracle", action="store_true")
    args = ap.parse_args()
    for seed in [int(s) for s in args.seeds.split(",")]:
        x, kid_sets, hs_true = generate_all(args.gen, seed)
        names = [f"X{i + 1}" for i in range(x.shape[1])]
        ds = from_array(x, names, standardize=False)
        hs, found, cpu = run_auto(ds, False)
        em = hs.em
        show = lambda m, k=kid_sets, t=hs_true: f"{m.observed_bic():.2f} ({describe(m, k, t)})"  # noqa: E731
        print(f"{args.gen} seed {seed}: auto (move off) kept {len(found)}, {show(em)}, {cpu:.1f} s CPU", flush=True)
        if not args.no_oracle:
            edges = [(names[p], names[c]) for p, c in true_edges(args.gen, seed)]
            hidden = {
                f"H{j + 1}": (h, [names[k] for k in sorted(kids)])
                for j, (kids, h) in enumerate(zip(kid_sets, hs_true, strict=True))
            }
            orc = StructuralEM(ds, hidden=hidden, initial_edges=edges)
            orc.run()
            orc_c = climb(orc)
            print(f"  oracle {show(orc)}, climbed {show(orc_c)}", flush=True)
        if em.n_vars > em.n_obs:
            c0 = time.process_time()
            for col in range(em.n_obs, em.n_vars):
                for y, edges in joint.joint_candidates(em, col):
                    new = copy_model(em)
                    new.edges, new.warmup = edges, joint.JOINT_WARMUP
                    new.run()
                    print(f"  move {em.names[col]} -> {em.names[y]}: {show(new)}", flush=True)
            moved = joint.joint_reassign(em)
            if moved is not em:
                moved = climb_once(moved)
            cpu = time.process_time() - c0
            print(f"  move accepted: {moved is not em}, {show(moved)}, {cpu:.1f} s CPU", flush=True)
        if args.both:
            hs2, found2, cpu2 = run_auto(ds, True)
            print(f"  auto (move on) kept {len(found2)}, {show(hs2.em)}, {cpu2:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
