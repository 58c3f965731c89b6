"""One R^2 for "H's listed parents explain its profile" (#22, session 19): the model's share
``parents_r2`` against the least-squares R^2 of H's posterior profile, on the kept hidden variables
of pickled ``--hidden auto`` runs (``study_pooled_activity.py`` / ``study_genome_false.py --dump``).

Per kept H with at least one observed parent: its listed parents, realized gain per child, the
least-squares R^2 of its profile on its observed parents (the number ``pooled``'s second leg was
measured on in session 18), the model's share ``parents_r2 = 1 - sigma_H^2 / Var(H)`` (JMLR 2007
section 6's linear-Gaussian family of H under the fitted network), the best |r| with a planted
profile, and whether each reading names it: ``pooled`` by gain (< 3 nats a child), by R^2 with either
number at ``--threshold`` (default 0.95; session 18's 0.95 on the least-squares R^2 is the "before")
and ``hub_targets``.

Run:  python benchmarks/study_one_r2.py /tmp/pool/d /tmp/gf/d /tmp/oner2/d [--threshold 0.95]
"""

from __future__ import annotations

import argparse
import math
import pickle
from pathlib import Path

import numpy as np

from engine.hidden.hub_targets import hub_targets
from engine.hidden.pooled import MIN_PARENTS, STRONG_PER_CHILD, pooled_activity
from engine.hidden.report import implied_variances


def least_squares_r2(values: np.ndarray, ups: np.ndarray, h: int) -> float:
    """R^2 of column ``h`` of ``values`` on the columns ``ups`` (with an intercept)."""
    x = values[:, ups] - values[:, ups].mean(axis=0)
    prof = values[:, h] - values[:, h].mean()
    beta, *_ = np.linalg.lstsq(x, prof, rcond=None)
    res = prof - x @ beta
    return float(1.0 - res @ res / (prof @ prof)) if prof @ prof > 0 else 0.0


def read(rec: dict, threshold: float) -> list[str]:
    """One line per kept H with an observed parent (see the module docstring)."""
    names, n_obs = rec["names"], rec["n_obs"]
    coef = rec["coef"].toarray()
    variance = np.asarray(rec["variance"], dtype=float)
    full = np.column_stack([rec["values"].astype(float), rec["hidden_mean"]])
    regs = [names.index(r) for r in rec["regulators"] if r in names]
    n = coef.shape[0]
    var = implied_variances(coef, variance, range(n_obs, n))
    planted = np.asarray(rec.get("planted", np.zeros((full.shape[0], 0))), dtype=float)
    rows = []
    for h in rec["hidden"]:
        hi = h["index"]
        ups = np.flatnonzero(coef[:n_obs, hi])
        if ups.size == 0:
            continue
        n_kids = int(np.count_nonzero(coef[hi, :n_obs]))
        per_child = h["gain"] / max(n_kids, 1)
        ls = least_squares_r2(full, ups, hi)
        model = max(0.0, 1.0 - variance[hi] / var[hi])
        pm = pooled_activity(coef, full, names, n_obs, hi, h["gain"], regs, parents_r2=model)
        ht = hub_targets(coef, full, names, n_obs, hi, regs)
        best = ""
        if planted.size:
            r = [abs(np.corrcoef(full[:, hi], planted[:, k])[0, 1]) for k in range(planted.shape[1])]
            k = int(np.nanargmax(r))
            best = f"{rec['planted_names'][k]} {r[k]:.2f}"
        two = ups.size >= MIN_PARENTS
        weak = math.isfinite(per_child) and per_child < STRONG_PER_CHILD
        rows.append(
            f"{rec['gen']:>12} {rec['seed']:>4} {h['name']} {n_kids:3d} kids {per_child:5.1f}/child "
            f"<- {','.join(str(names[u]) for u in ups):<24} {'>=2' if two else '1  '} | LS {ls:.3f} "
            f"model {model:.3f} | planted {best or '-':<8} | gain {'Y' if two and weak else '.'} "
            f"LS>={threshold:g} {'Y' if two and ls >= threshold else '.'} "
            f"model>={threshold:g} {'Y' if two and model >= threshold else '.'} "
            f"hub {'Y' if ht is not None and ht.flagged else '.'} | report {pm is not None and pm.flagged}"
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--threshold", type=float, default=0.95)
    args = ap.parse_args(argv)
    for d in args.dirs:
        for p in sorted(Path(d).glob("*.pkl")):
            with open(p, "rb") as f:
                print("\n".join(read(pickle.load(f), args.threshold)), flush=True)


if __name__ == "__main__":
    main()
