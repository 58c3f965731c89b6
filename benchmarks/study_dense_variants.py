"""Proposal sources tried against the planted regulator of ``dense`` (#22 item 1), none adopted.

On the network ``auto`` starts from (:func:`study_dense_proposals.learned`), per seed:

* **raw principal components**: |corr(h, PC k)| of the standardized data, k = 1..4;
* **residual factor**: the first principal component of every family's standardized residual
  (ideal profile) on the learned network;
* **de-absorbed profiles**: z* of a set recomputed with, besides the edges inside the set, the
  members' outside parents that carry the set's own signal dropped (iterated to a fixed point):
  ``corr`` drops an outside parent u when |corr(x_u, z*)| >= 0.3, ``adjacent`` when u is adjacent
  to another member in the learned skeleton (a reversed edge from a descendant usually is); for
  the planted set and for the candidates ``auto`` tries (the best |corr(z*, h)| over them);
* **widened sets**: from each candidate's z*, every variable whose residual on its learned
  parents that do not carry z* passes the score's one-parent test on z* joins; z* is recomputed
  from the members' residuals; repeated (the best |corr| over the candidates, its P and R);
* ``--trials``: sets near the planted one through ``auto``'s own trial (``try_proposal``): the
  planted set plus the 3 or 6 non-children most correlated with h (an oracle superset), and the 8
  or 12 variables with the largest loadings on the raw component most correlated with h.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_dense_variants.py [--seeds 0-9] [--trials]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from planted_general import generate_all  # noqa: E402
from study_dense_proposals import corr, first_pc, learned, residual  # noqa: E402

from engine.hidden.candidates import candidate_proposal, score_candidate  # noqa: E402
from engine.hidden.trial import try_proposal  # noqa: E402


def deabsorbed(xc, parents, members, z, rule: str, rounds: int = 4) -> np.ndarray:
    """z* of ``members`` with their outside parents that carry z* dropped (see the docstring)."""
    mem = set(int(v) for v in members)
    for _ in range(rounds):
        zs = (z - z.mean()) / z.std()
        rz = np.abs(xc.T @ zs / len(zs)) / xc.std(axis=0)
        cols = []
        for v in sorted(mem):
            if rule == "corr":
                out = [p for p in parents[v] if p not in mem and rz[p] < 0.3]
            else:
                others = mem - {v}
                out = [
                    p
                    for p in parents[v]
                    if p not in mem and not any(k in parents[p] or p in parents[k] for k in others)
                ]
            cols.append(residual(xc, v, out))
        new = first_pc(np.column_stack(cols))
        if np.corrcoef(new, z)[0, 1] ** 2 > 1 - 1e-9:
            return new
        z = new
    return z


def widened(xc, parents, z, rounds: int = 5) -> tuple[np.ndarray, list[int]]:
    """The set whose residuals on their z*-free learned parents pass the one-parent test on z*."""
    m, n = xc.shape
    pen = math.log(m) / 2
    r2_min = 1 - math.exp(-2 * pen / m)
    mem: list[int] = []
    for _ in range(rounds):
        z = (z - z.mean()) / z.std()
        carry = set(np.flatnonzero((xc.T @ z / m) ** 2 / xc.var(axis=0) > r2_min))
        new = []
        for v in range(n):
            e = residual(xc, v, [p for p in parents[v] if p not in carry])
            if -0.5 * m * math.log(max(1 - float(e @ z) ** 2 / (float(e @ e) * float(z @ z)), 1e-12)) > pen:
                new.append(v)
        if len(new) < 2 or new == mem:
            break
        mem = new
        z = first_pc(
            np.column_stack([residual(xc, v, [p for p in parents[v] if p not in carry | set(mem)]) for v in mem])
        )
    return z, mem


def pr(members, kids) -> str:
    """``P .. R .. size ..``: precision and recall of ``members`` against the planted children ``kids``."""
    m = set(int(v) for v in members)
    return f"P {len(m & kids) / max(len(m), 1):.2f} R {len(m & kids) / len(kids):.2f} size {len(m)}"


def study(seed: int, trials: bool) -> None:
    """Print each proposal source's best |corr| with the planted h on ``dense`` seed ``seed``
    (``trials``: also the oracle and pool sets through ``auto``'s trial); see the module docstring."""
    x, kid_sets, hs_true = generate_all("dense", seed)
    kids, h = kid_sets[0], hs_true[0]
    t0 = time.process_time()
    hs = learned(x)
    stepper = hs._current_stepper()
    model, scorer, n = stepper.model, stepper.scorer, hs.n_observed
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    xc = x - x.mean(axis=0)
    u, _, vt = np.linalg.svd(xc / x.std(axis=0), full_matrices=False)
    pcs = [corr(u[:, k], h) for k in range(4)]
    res = first_pc(np.column_stack([residual(xc, v, parents[v]) for v in range(n)]))
    planted = score_candidate(model, parents, np.array(sorted(kids)), scorer, xc)
    props = hs._auto_candidates(set())
    print(
        f"seed {seed}: raw PCs 1-4 |corr| {' '.join(f'{c:.2f}' for c in pcs)}; residual factor {corr(res, h):.3f}; "
        f"planted set z* {corr(planted.profile, h):.3f}, de-absorbed corr "
        f"{corr(deabsorbed(xc, parents, sorted(kids), planted.profile, 'corr'), h):.3f}, adjacent "
        f"{corr(deabsorbed(xc, parents, sorted(kids), planted.profile, 'adjacent'), h):.3f}"
    )
    for rule in ("corr", "adjacent"):
        got = [corr(deabsorbed(xc, parents, p.members, p.profile, rule), h) for p in props]
        best_z = max(corr(p.profile, h) for p in props)
        print(f"   candidates' z* best {best_z:.3f} -> de-absorbed ({rule}) {max(got):.3f}")
    wide = [widened(xc, parents, p.profile) for p in props]
    z, mem = max(wide, key=lambda t: corr(t[0], h))
    print(f"   widened from the candidates: best |corr| {corr(z, h):.3f}, {pr(mem, kids)}")
    if trials:
        best = hs.em.observed_bic()
        others = sorted(set(range(n)) - kids, key=lambda v: -corr(x[:, v], h))
        k = int(np.argmax(pcs))
        top = np.argsort(-np.abs(vt[k]))
        sets = {"planted + 3": sorted(kids | set(others[:3])), "planted + 6": sorted(kids | set(others[:6]))}
        sets |= {f"raw PC{k + 1} top {s}": sorted(int(v) for v in top[:s]) for s in (8, 12)}
        for label, members in sets.items():
            prop = candidate_proposal(
                score_candidate(model, parents, np.array(members), scorer, xc), xc, x, hs.names, 0.9
            )
            if label.startswith("raw"):
                prop = replace(prop, profile=(u[:, k] - u[:, k].mean()) / u[:, k].std())
            tr = try_proposal(hs, prop, best)
            col = tr.em.names.index(tr.name)
            got = [c for p, c in tr.em.edges if p == col and c < n]
            pays = tr.score > max(best, tr.alternative_score)
            print(
                f"   {label:15s} ({pr(members, kids)}, |corr| {corr(prop.profile, h):.3f}): "
                f"{'pays' if pays else 'does not pay'} ({tr.score:.1f} against {max(best, tr.alternative_score):.1f}); "
                f"H |corr| {corr(tr.em.mean[:, col], h):.3f} {pr(got, kids)}",
                flush=True,
            )
    print(f"   ({time.process_time() - t0:.1f} s CPU)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0-9", help="a range a-b or a comma list")
    ap.add_argument("--trials", action="store_true", help="also sets near the planted one through auto's trial")
    args = ap.parse_args()
    if "-" in args.seeds:
        a, b = (int(s) for s in args.seeds.split("-"))
        seeds = list(range(a, b + 1))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    for seed in seeds:
        study(seed, args.trials)


if __name__ == "__main__":
    main()
