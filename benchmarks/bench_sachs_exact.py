"""Sachs et al. 2005: is the greedy search or the score the limit? (issue #15, session 7)

With 11 proteins the BIC-optimal DAG is found exactly (Silander & Myllymäki 2006,
:func:`engine.search.exact.exact_search`) from the same family model the greedy search uses
(``MaskedFamilies`` over the linear CPD: the targets of ``sample_data/sachs2005_targets.csv``
masked, Cooper & Yoo 1999, each family's BIC penalty at its own row count). For each design it
prints the greedy search (ideal K=2, as ``learn``), the exact optimum, the exact optimum with at
most 3 parents (and 2, a sensitivity row), the consensus network's own score and the best DAG that
holds all 17 consensus edges. Designs:

* ``masked``: targets masked, one intercept per family;
* ``intercepts``: also one intercept per condition in every family (``--condition-intercept``);
* ``pma+b2camp share``: per-condition intercepts, PMA and β2cAMP sharing ``cd3cd28``'s (the
  activators' effects allowed to propagate; ``MaskedFamilies(intercept_groups=...)``);
* ``activity`` (``, target masked``): per-condition intercepts, and the targets' effects on their
  children cut in the targeted rows (:class:`ActivityFamilies`), the target's own family kept (or
  masked as well);
* ``cond. variance``: one intercept *and one residual variance* per condition in every family, the
  coefficients shared (a change of the noise mechanism between conditions;
  :class:`ConditionVarianceFamilies`, ML by alternating weighted least squares).

Transforms: the natural log (as in ``bench_interventions.py``) and the nonparanormal transform
(Liu, Lafferty & Wasserman 2009: pooled ranks -> truncated normal scores). ``--sigmoid`` adds the
sigmoid CPD with intercepts (exact with at most 2 and 3 parents; a few minutes).

``--synthetic`` instead prints the exact search's cost and its score against the greedy search on
random linear-Gaussian networks of 15, 18 and 20 variables (500 rows).

    python benchmarks/bench_sachs_exact.py [--sigmoid] [--restarts R] [--synthetic]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import platform
import resource
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import ndtri
from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cpd import make_families  # noqa: E402
from engine.cpd.base import LOG_2PI, VARIANCE_FLOOR, FamilyFit  # noqa: E402
from engine.interventions import MaskedFamilies, centre_within, read_targets, with_design  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402
from engine.metrics import compare_edges  # noqa: E402
from engine.score import BIC  # noqa: E402
from engine.search import Stepper  # noqa: E402
from engine.search.exact import exact_search  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


class ConditionVarianceFamilies:
    """Linear-Gaussian families with one intercept and one residual variance per condition and
    coefficients shared by all conditions, each scored on the rows where its child was not set.

    ``x = b_c + U alpha + e``, ``e ~ N(0, s_c^2)`` in condition ``c``. With the intercepts the
    within-condition centred scatter matrices ``S_c`` are sufficient; the profile likelihood is
    maximized by alternating ``alpha = (sum_c S_c,UU / s_c^2)^-1 sum_c S_c,Ux / s_c^2`` (weighted
    least squares) and ``s_c^2 = RSS_c(alpha) / n_c``, each step raising the likelihood; vectorized
    over the candidates of a request. Dimension: ``k + 2 + 2 (C - 1)`` for ``k`` parents over
    ``C`` conditions. Only what :func:`exact_search` needs (fits and exact gains; no C1/C2)."""

    def __init__(self, values: np.ndarray, design, n_iter: int = 200, tol: float = 1e-12) -> None:
        values = np.asarray(values, dtype=float)
        self.n_samples, self.n_vars = values.shape
        codes = np.asarray(design.codes)
        conds = np.unique(codes)
        xc = centre_within(values, codes)
        self.scatter = np.stack([xc[codes == c].T @ xc[codes == c] for c in conds])  # (C, N, N)
        self.counts = np.array([np.count_nonzero(codes == c) for c in conds], dtype=float)
        mask = np.asarray(design.mask, dtype=bool)
        #: keep[x, c]: condition c is among x's rows (no condition sets a variable in part of its rows)
        self.keep = np.stack([~mask[codes == c].any(axis=0) for c in conds], axis=1)
        self.family_rows = (self.keep * self.counts).sum(axis=1).astype(int)
        self.n_iter, self.tol = n_iter, tol

    @staticmethod
    def n_params(n_parents: int) -> int:
        return n_parents + 2

    def _logliks(self, x: int, sets: np.ndarray) -> np.ndarray:
        """Log-likelihoods of the families ``x | sets[b]`` (sets: B x k parent indices)."""
        s, n = self.scatter[self.keep[x]], self.counts[self.keep[x]]
        sxx = s[:, x, x]
        floor = VARIANCE_FLOOR * sxx / n
        if sets.shape[1] == 0:
            var = np.maximum(sxx / n, floor)
            return np.full(sets.shape[0], -0.5 * float(np.sum(n * (LOG_2PI + np.log(var) + 1.0))))
        a = s[:, sets[:, :, None], sets[:, None, :]]  # (C, B, k, k)
        g = s[:, sets, x]  # (C, B, k)
        w = np.ones((s.shape[0], sets.shape[0]))
        prev = np.full(sets.shape[0], -np.inf)
        for _ in range(self.n_iter):
            lhs = np.einsum("cb,cbij->bij", w, a)
            beta = np.linalg.solve(lhs, np.einsum("cb,cbi->bi", w, g)[..., None])[..., 0]
            rss = sxx[:, None] - 2.0 * np.einsum("cbi,bi->cb", g, beta) + np.einsum("bi,cbij,bj->cb", beta, a, beta)
            var = np.maximum(rss / n[:, None], floor[:, None])
            ll = -0.5 * np.sum(n[:, None] * (LOG_2PI + np.log(var) + 1.0), axis=0)
            w = 1.0 / var
            if np.all(ll - prev <= self.tol * np.abs(ll)):
                break
            prev = ll
        return ll

    def fit(self, child: int, parents) -> FamilyFit:
        parents = tuple(sorted(int(p) for p in parents))
        ll = float(self._logliks(child, np.array(parents, dtype=np.intp).reshape(1, len(parents)))[0])
        extra = 2 * (int(self.keep[child].sum()) - 1)
        return FamilyFit(child, parents, ll, self.n_params(len(parents)) + extra, n_rows=int(self.family_rows[child]))

    def exact_add_many(self, requests) -> list[np.ndarray]:
        out = []
        for child, parents, cands in requests:
            cands = np.asarray(cands, dtype=np.intp)
            base = np.tile(np.asarray(parents, dtype=np.intp), (cands.size, 1))
            sets = np.sort(np.hstack([base, cands[:, None]]), axis=1)
            out.append(self._logliks(child, sets) - self.fit(child, parents).loglik)
        return out


class ActivityFamilies:
    """Interventions on *activity* (edge-cutting): in the rows where a condition targets X, X's
    children do not see X (X's within-condition centred column is 0 in their families there: a
    kinase inhibitor or activator sets the kinase's activity, not its measured phosphorylation;
    ``sample_data/README.md``); X's own family is kept (``mask_own=False``: its measured level was
    not set) or left out there as well (``True``). One intercept per condition in every family.
    Each child has its own linear model (:func:`engine.cpd.make_families`) on its own data."""

    def __init__(self, values: np.ndarray, design, mask_own: bool = False) -> None:
        values = np.asarray(values, dtype=float)
        self.n_samples, self.n_vars = values.shape
        mask, codes = np.asarray(design.mask, dtype=bool), np.asarray(design.codes)
        self.models, rows, extra = [], [], []
        for y in range(self.n_vars):
            keep = ~mask[:, y] if mask_own else np.ones(self.n_samples, dtype=bool)
            v = centre_within(values[keep], codes[keep])
            cut = mask[keep]
            cut[:, y] = False
            v[cut] = 0.0
            self.models.append(make_families(v, "linear"))
            rows.append(int(keep.sum()))
            extra.append(np.unique(codes[keep]).size - 1)
        self.family_rows, self.extra = np.array(rows), np.array(extra)

    def n_params(self, n_parents: int) -> int:
        return self.models[0].n_params(n_parents)

    def fit(self, child: int, parents) -> FamilyFit:
        f = self.models[child].fit(child, parents)
        return dataclasses.replace(f, n_rows=int(self.family_rows[child]), n_params=f.n_params + int(self.extra[child]))

    def exact_add_many(self, requests) -> list[np.ndarray]:
        return [self.models[c].exact_add(c, p, idx) for c, p, idx in requests]


def nonparanormal(frame: pd.DataFrame) -> pd.DataFrame:
    """Liu, Lafferty & Wasserman 2009 (eq. 6 and section 4): each variable's pooled ranks as
    normal scores, ``Phi^-1`` of the empirical CDF truncated to ``[d, 1 - d]`` with
    ``d = 1 / (4 M^(1/4) sqrt(pi log M))``."""
    values = frame.iloc[:, 1:].to_numpy(dtype=float)
    m = values.shape[0]
    d = 1.0 / (4.0 * m**0.25 * math.sqrt(math.pi * math.log(m)))
    out = frame.copy()
    out.iloc[:, 1:] = ndtri(np.clip(rankdata(values, axis=0) / m, d, 1.0 - d))
    return out


def masked(ds, settings, **options) -> MaskedFamilies:
    """The search's family model on ``ds`` under its design (targets masked; ``options``: intercepts)."""
    return MaskedFamilies(
        lambda v: make_families(v, settings.cpd, **settings.model_options), ds.values, ds.interventions, **options
    )


def line(tag: str, edges, names, true, score: float, seconds: float) -> None:
    cmp = compare_edges([(names[p], names[c]) for p, c in edges], true)
    print(
        f"{tag:62s} {len(edges):5d} {len(cmp.correct) + len(cmp.reversed):4d} {len(cmp.correct):3d} "
        f"{len(cmp.reversed):3d} {len(cmp.extra):5d} {cmp.shd:3d} {score:12.3f} {seconds:6.1f}",
        flush=True,
    )


def run_design(tag, model, settings, names, true, *, greedy=True, restarts=0, consensus=None) -> None:
    """Greedy (if the model can rank), exact, exact with at most 3 and 2 parents; optionally the
    consensus network and the best DAG holding it."""
    scorer = BIC(model.n_samples)
    if greedy:
        t0 = time.perf_counter()
        stepper = Stepper(model, settings)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stepper.run()
        line(f"{tag}: greedy", stepper.edges(), names, true, stepper.score, time.perf_counter() - t0)
        scorer = stepper.scorer
        if restarts:
            est = IdealParentSearch(score="bic", cpd=settings.cpd, n_restarts=restarts, random_state=0)
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = est.climb(Stepper(model, settings))
            line(f"{tag}: greedy + {restarts} restarts", res.edges, names, true, res.score, time.perf_counter() - t0)
    for cap in (None, 3, 2):  # 2: a sensitivity row only (the consensus network has a 3-parent family)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            best = exact_search(model, scorer, max_parents=cap)
        what = "exact" if cap is None else f"exact, <= {cap} parents"
        line(f"{tag}: {what}", best.edges(), names, true, best.score, time.perf_counter() - t0)
        if greedy and cap is None:  # the engine's own score of the optimal DAG
            check = Stepper(model, settings, initial=best.edges()).score
            assert abs(check - best.score) <= 1e-8 * abs(best.score), (check, best.score)
    if consensus is not None:
        idx = [(names.index(p), names.index(c)) for p, c in consensus]
        fams = [tuple(sorted(p for p, c in idx if c == x)) for x in range(len(names))]
        own = sum(scorer.family(model.fit(x, fams[x])) for x in range(len(names)))
        line(f"{tag}: the consensus network itself", idx, names, true, own, 0.0)
        t0 = time.perf_counter()
        best = exact_search(model, scorer, required=idx)
        line(
            f"{tag}: exact, all 17 consensus edges required",
            best.edges(),
            names,
            true,
            best.score,
            time.perf_counter() - t0,
        )


def edge_costs(models: dict, settings, names, true) -> None:
    """For each consensus edge and each design, how much the optimum's score drops when that edge is
    required (0: the optimum holds it) and the edge's own log-likelihood gain in that optimum (its
    family with and without it): what the score says about each consensus edge."""
    cols = {}
    for tag, model in models.items():
        scorer = Stepper(model, settings).scorer
        free = exact_search(model, scorer).score
        col = []
        for p, c in true:
            pi, ci = names.index(p), names.index(c)
            best = exact_search(model, scorer, required=[(pi, ci)])
            ps = best.parents[ci]
            gain = model.fit(ci, ps).loglik - model.fit(ci, tuple(q for q in ps if q != pi)).loglik
            col.append((free - best.score, gain))
        cols[tag] = col
    print("\nper consensus edge: cost (score drop with the edge required) and its loglik gain there, log data")
    print(f"{'edge':14s}" + "".join(f" {tag + ': cost':>18s} {'gain':>8s}" for tag in cols))
    for i, (p, c) in enumerate(true):
        print(f"{p + '->' + c:14s}" + "".join(f" {col[i][0]:18.1f} {col[i][1]:8.1f}" for col in cols.values()))


def synthetic() -> None:
    """Cost of the exact search and the greedy search's gap to it on random networks."""
    from engine.synth import random_network, sample

    print(
        f"{'variables':>9s} {'max parents':>11s} {'families':>9s} {'CPU s':>6s} {'exact BIC':>11s} {'greedy BIC':>11s}"
    )
    for n, cap in ((15, None), (18, 4), (20, 3)):
        values = sample(random_network(n, seed=1), 500, seed=1)
        model = make_families(values, "linear")
        stepper = Stepper(model, IdealParentSearch(score="bic").search_settings())
        stepper.run()
        t0 = time.process_time()
        best = exact_search(model, stepper.scorer, max_parents=cap)
        print(
            f"{n:9d} {str(cap):>11s} {best.n_families:9d} {time.process_time() - t0:6.1f} {best.score:11.3f} "
            f"{stepper.score:11.3f}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sigmoid", action="store_true", help="the sigmoid CPD with intercepts too (minutes)")
    ap.add_argument("--restarts", type=int, default=10, help="random restarts of the greedy search (masked)")
    ap.add_argument("--synthetic", action="store_true", help="the exact search's cost on random networks")
    args = ap.parse_args(argv)
    if args.synthetic:
        synthetic()
        return
    raw = pd.read_csv(SAMPLES / "sachs2005_all_conditions.csv")
    targets = read_targets(SAMPLES / "sachs2005_targets.csv")
    true = list(pd.read_csv(SAMPLES / "sachs2005_consensus_edges.csv").itertuples(index=False, name=None))
    logged = raw.copy()
    logged.iloc[:, 1:] = np.log(raw.iloc[:, 1:].to_numpy(dtype=float))
    print(f"machine: {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print(
        f"{'setting':62s} {'edges':>5s} {'skel':>4s} {'dir':>3s} {'rev':>3s} {'false':>5s} {'SHD':>3s} "
        f"{'score':>12s} {'sec':>6s}"
    )
    cpu0 = time.process_time()
    for tname, frame in (("log", logged), ("nonparanormal", nonparanormal(raw))):
        ds = with_design(frame, "condition", targets)
        names, design = list(ds.names), ds.interventions
        cn = list(design.condition_names)
        col = design.codes + 1
        for cond in ("pma", "b2camp"):
            col = np.where(design.codes == cn.index(cond), cn.index("cd3cd28") + 1, col)
        shared = np.tile(col[:, None], (1, ds.n_vars))
        settings = IdealParentSearch(score="bic").search_settings()
        cpds = [("linear", settings)]
        if args.sigmoid and tname == "log":
            cpds.append(("sigmoid", settings.replace(cpd="sigmoid")))
        for cpd, s in cpds:
            if cpd == "sigmoid":  # exact with <= 2 and <= 3 parents only: one fit per family
                model = masked(ds, s, condition_intercept=True)
                t0 = time.perf_counter()
                stepper = Stepper(model, s)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    stepper.run()
                line(
                    f"{tname}, sigmoid, intercepts: greedy",
                    stepper.edges(),
                    names,
                    true,
                    stepper.score,
                    time.perf_counter() - t0,
                )
                for cap in (2, 3):
                    t0 = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        best = exact_search(model, stepper.scorer, max_parents=cap)
                    line(
                        f"{tname}, sigmoid, intercepts: exact, <= {cap} parents",
                        best.edges(),
                        names,
                        true,
                        best.score,
                        time.perf_counter() - t0,
                    )
                continue
            run_design(f"{tname}, masked", masked(ds, s), s, names, true, restarts=args.restarts, consensus=true)
            run_design(
                f"{tname}, intercepts",
                masked(ds, s, condition_intercept=True),
                s,
                names,
                true,
                consensus=true,
            )
            run_design(
                f"{tname}, pma+b2camp share", masked(ds, s, intercept_groups=shared), s, names, true, consensus=true
            )
            run_design(
                f"{tname}, cond. variance",
                ConditionVarianceFamilies(ds.values, design),
                s,
                names,
                true,
                greedy=False,
                consensus=true,
            )
            for own in (False, True):
                run_design(
                    f"{tname}, activity{', target masked' if own else ''}",
                    ActivityFamilies(ds.values, design, mask_own=own),
                    s,
                    names,
                    true,
                    greedy=False,
                )
        if tname == "log":
            models = {"intercepts": masked(ds, settings, condition_intercept=True), "masked": masked(ds, settings)}
            edge_costs(models, settings, names, true)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nCPU {time.process_time() - cpu0:.1f} s, peak RSS {peak:.0f} MB")
    print("skel/dir/rev/false/SHD against the 17 consensus edges, as in bench_interventions.py; score: BIC")
    print("(nats) of the design. Target (#15): skel >= 10 with false <= 4, and dir >= 8.")


if __name__ == "__main__":
    main()
