"""Sachs et al. 2005 with Sachs' own discrete model: does it reach #15's target? (session 7)

Sachs, Perez, Pe'er, Lauffenburger & Nolan (Science 2005, supplement) discretized each protein into
3 levels (Hartemink 2001's information-preserving agglomeration), scored multinomial families with
the BDe score and handled the interventions by leaving each intervened variable's family out of the
rows where it was set (Cooper & Yoo 1999). This script asks whether that model, on our bundled
data (``sachs2005_all_conditions_log.csv``) and our fixed targets (``sachs2005_targets.csv``),
reaches the target of issue #15 (>= 10 of the 17 consensus edges in the skeleton, <= 4 false,
>= 8 correctly directed), as the exact optimum of the score (no search heuristic).

* Discretization (pooled over all conditions): ``tertiles`` (3 equal-frequency levels), and
  ``hartemink``: 15 equal-frequency levels, then adjacent levels merged greedily, one variable at
  a time in turn, each merge the one keeping the total pairwise mutual information of that
  variable with all the others highest, down to 3 levels (Hartemink 2001, ch. 3, the
  agglomerative phase; his later threshold-refinement phase is not implemented).
* Scores (multinomial, every family scored on the rows where its child is not a target of the
  row's condition, or on every row for the "pooled" rows): BDeu (Heckerman, Geiger & Chickering
  1995, eq. 28 with ``alpha_ijk = ess / (r q)``) at equivalent sample size 1 and 10, and BIC
  (``loglik - log(N_x) / 2 * q (r - 1)``, ``N_x`` the family's rows).
* Every family of each child with up to 3 parents (the consensus maximum) is counted at once per
  child and parent count: one ``np.bincount`` over ``set index * r q + config * r + child level``.
* The optimum: :func:`engine.search.exact.exact_search` (Silander & Myllymäki 2006) fed with the
  table through :class:`TableFamilies` (a family model whose log-likelihood is the family score,
  with no parameters, and a zero-penalty score); checked against a brute force over all 543 DAGs
  of 4 variables with a random table (``--check``, also run first by default).
* For comparison, the edges of the continuous optimum of session 7 (linear CPD, targets masked,
  one intercept per condition; ``bench_sachs_exact.py``), recomputed here.

    python benchmarks/bench_sachs_discrete.py [--levels 15] [--no-continuous]
"""

from __future__ import annotations

import argparse
import itertools
import platform
import resource
import sys
import time
import warnings
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import gammaln

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cpd.base import FamilyFit  # noqa: E402
from engine.interventions import read_targets, with_design  # noqa: E402
from engine.metrics import compare_edges  # noqa: E402
from engine.search.exact import exact_search  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
MAX_PARENTS = 3


# --- discretization ---------------------------------------------------------------------------


def quantile_levels(values: np.ndarray, n_levels: int) -> np.ndarray:
    """Equal-frequency levels of each column (pooled rows; ties share a level): ``floor(L * F)`` of
    the mid-rank empirical CDF ``F``."""
    ranks = pd.DataFrame(values).rank(method="average").to_numpy()
    return np.minimum((ranks - 0.5) / values.shape[0] * n_levels, n_levels - 1).astype(np.intp)


def mutual_information(joint: np.ndarray) -> np.ndarray:
    """MI (nats) of count tables ``joint[..., a, b]``."""
    n = joint.sum(axis=(-2, -1), keepdims=True)
    pa, pb = joint.sum(axis=-1, keepdims=True), joint.sum(axis=-2, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = joint / n * np.log(joint * n / (pa * pb))
    return np.nansum(t, axis=(-2, -1))


def hartemink(values: np.ndarray, start: int = 15, final: int = 3) -> np.ndarray:
    """Hartemink 2001 (ch. 3), agglomerative phase: from ``start`` equal-frequency levels, merge
    adjacent levels of one variable at a time (round robin), each time the merge keeping the sum of
    that variable's mutual information with all the others highest, until each has ``final``."""
    levels = quantile_levels(values, start)
    n_vars = values.shape[1]
    counts = [int(levels[:, j].max()) + 1 for j in range(n_vars)]
    while max(counts) > final:
        for x in range(n_vars):
            if counts[x] <= final:
                continue
            others = [y for y in range(n_vars) if y != x]
            size = max(counts[y] for y in others)
            code = (levels[:, x] * size)[:, None] + levels[:, others]  # (M, N-1)
            joint = np.stack(
                [
                    np.bincount(code[:, i], minlength=counts[x] * size).reshape(counts[x], size)
                    for i in range(len(others))
                ]
            )  # (N-1, Lx, size)
            # merging level a with a+1 of x: the tables with rows a and a+1 summed
            merged = []
            for a in range(counts[x] - 1):
                t = np.delete(joint, a + 1, axis=1)
                t[:, a] += joint[:, a + 1]
                merged.append(mutual_information(t).sum())
            a = int(np.argmax(merged))
            levels[:, x] = np.where(levels[:, x] > a, levels[:, x] - 1, levels[:, x])
            counts[x] -= 1
    return levels


def tertiles(values: np.ndarray) -> np.ndarray:
    return quantile_levels(values, 3)


# --- family scores ----------------------------------------------------------------------------


def family_scores(levels: np.ndarray, keep: np.ndarray, ess_list, max_parents: int = MAX_PARENTS):
    """``{name: table}`` with ``table[x, S]`` the family score of ``x`` with parent set ``S`` (bit
    ``i`` = the ``i``-th variable other than ``x``, the layout of
    :func:`engine.search.exact.local_scores`), ``-inf`` above ``max_parents``; names ``bdeu<ess>``
    and ``bic``. ``keep[:, x]``: the rows ``x``'s family is scored on."""
    m, n = levels.shape
    r = int(levels.max()) + 1
    names = [f"bdeu{e:g}" for e in ess_list] + ["bic"]
    tables = {k: np.full((n, 1 << (n - 1)), -np.inf) for k in names}
    for x in range(n):
        others = [u for u in range(n) if u != x]
        rows = levels[keep[:, x]]
        n_x = rows.shape[0]
        for k in range(max_parents + 1):
            sets = np.array(list(itertools.combinations(range(n - 1), k)), dtype=np.intp).reshape(comb(n - 1, k), k)
            q = r**k
            cfg = np.zeros((sets.shape[0], n_x), dtype=np.int64)
            for j in range(k):  # parent configuration codes, one row per set
                cfg = cfg * r + rows[:, np.asarray(others)[sets[:, j]]].T
            code = (np.arange(sets.shape[0])[:, None] * q + cfg) * r + rows[:, x][None, :]
            nijk = np.bincount(code.ravel(), minlength=sets.shape[0] * q * r).reshape(-1, q, r).astype(float)
            nij = nijk.sum(axis=2)
            bits = (1 << sets).sum(axis=1) if k else np.zeros(1, dtype=np.intp)
            for ess in ess_list:
                a_ij, a_ijk = ess / q, ess / (q * r)
                s = (gammaln(a_ij) - gammaln(a_ij + nij)).sum(axis=1)
                s += (gammaln(a_ijk + nijk) - gammaln(a_ijk)).sum(axis=(1, 2))
                tables[f"bdeu{ess:g}"][x, bits] = s
            with np.errstate(divide="ignore", invalid="ignore"):
                ll = np.nansum(nijk * np.log(nijk / nij[:, :, None]), axis=(1, 2))
            tables["bic"][x, bits] = ll - 0.5 * np.log(n_x) * q * (r - 1)
    return tables


# --- the exact search on a table --------------------------------------------------------------


class TableFamilies:
    """A family model over a precomputed score table (the layout of ``local_scores``): each
    family's "log-likelihood" is its score and it has no parameters, so that with
    :class:`ZeroPenalty` :func:`exact_search` maximizes the table's sum."""

    def __init__(self, table: np.ndarray) -> None:
        self.table = np.asarray(table, dtype=float)
        self.n_vars = self.table.shape[0]
        self.n_samples = 1_000_000

    def _key(self, child: int, parents) -> int:
        return sum(1 << (p if p < child else p - 1) for p in parents)

    @staticmethod
    def n_params(n_parents: int) -> int:
        return 0

    def fit(self, child: int, parents) -> FamilyFit:
        parents = tuple(sorted(int(p) for p in parents))
        return FamilyFit(child, parents, float(self.table[child, self._key(child, parents)]), 0)

    def exact_add_many(self, requests) -> list[np.ndarray]:
        out = []
        for child, parents, cands in requests:
            base = self._key(child, parents)
            bits = np.array([1 << (c if c < child else c - 1) for c in cands], dtype=np.int64)
            with np.errstate(invalid="ignore"):
                out.append(self.table[child, base | bits] - self.table[child, base])
        return out


class ZeroPenalty:
    """Network score = sum of the families' "log-likelihoods" (the table's scores)."""

    def family(self, fit: FamilyFit) -> float:
        return fit.loglik

    def parent_cap(self) -> int:
        return 10**6


def table_optimum(table: np.ndarray, max_parents: int = MAX_PARENTS):
    return exact_search(TableFamilies(table), ZeroPenalty(), max_parents=max_parents)


def table_optimum_required(table: np.ndarray, required, max_parents: int = MAX_PARENTS):
    return exact_search(TableFamilies(table), ZeroPenalty(), max_parents=max_parents, required=required)


def brute_force_check(seeds=(0, 1, 2)) -> None:
    """The DP optimum of a random 4-variable table (with ``-inf`` above 2 parents) equals the best
    of all 543 DAGs of 4 variables."""
    n = 4
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    for seed in seeds:
        table = np.random.default_rng(seed).normal(size=(n, 1 << (n - 1)))
        table[:, 7] = -np.inf  # three parents not allowed
        best, count = -np.inf, 0
        for pick in itertools.product((0, 1, 2), repeat=len(pairs)):  # each pair: none, ->, <-
            edges = [(a, b) if v == 1 else (b, a) for (a, b), v in zip(pairs, pick, strict=True) if v]
            order = _topological(edges, n)
            if order is None:
                continue
            count += 1
            fam = TableFamilies(table)
            total = sum(fam.fit(x, [p for p, c in edges if c == x]).loglik for x in range(n))
            best = max(best, total)
        got = table_optimum(table, max_parents=3).score
        assert count == 543 and abs(got - best) < 1e-9, (seed, got, best, count)
    print(f"check: DP optimum = brute force over the 543 DAGs of 4 variables ({len(seeds)} random tables)")


def _topological(edges, n):
    indeg = [sum(1 for _, c in edges if c == x) for x in range(n)]
    order, ready = [], [x for x in range(n) if indeg[x] == 0]
    while ready:
        x = ready.pop()
        order.append(x)
        for p, c in edges:
            if p == x:
                indeg[c] -= 1
                if indeg[c] == 0:
                    ready.append(c)
    return order if len(order) == n else None


# --- driver -----------------------------------------------------------------------------------


def line(tag: str, edges, names, true, score: float = float("nan")) -> None:
    cmp = compare_edges([(names[p], names[c]) for p, c in edges], true)
    print(
        f"{tag:52s} {len(edges):5d} {len(cmp.correct) + len(cmp.reversed):4d} {len(cmp.correct):3d} "
        f"{len(cmp.reversed):3d} {len(cmp.extra):5d} {cmp.shd:3d} {score:12.3f}",
        flush=True,
    )


def bootstrap_network(levels, keep, ess, n_boot: int, threshold: float, seed: int = 0):
    """Model averaging in the spirit of Sachs et al. (Friedman, Goldszmidt & Wyner 1999): the exact
    optimum on ``n_boot`` row resamples (levels fixed), the directed edges found in at least
    ``threshold`` of them."""
    rng = np.random.default_rng(seed)
    freq = np.zeros((levels.shape[1],) * 2)
    name = "bic" if ess is None else f"bdeu{ess:g}"
    for _ in range(n_boot):
        rows = rng.integers(0, levels.shape[0], size=levels.shape[0])
        table = family_scores(levels[rows], keep[rows], () if ess is None else (ess,))[name]
        for p, c in table_optimum(table).edges():
            freq[p, c] += 1
    freq /= n_boot
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(freq >= threshold), strict=True)]


def continuous_optimum(frame: pd.DataFrame, targets) -> list[tuple[str, str]]:
    """Session 7's best continuous design: linear CPD, targets masked, one intercept per condition."""
    from engine.cpd import make_families
    from engine.interventions import MaskedFamilies
    from engine.score import BIC

    ds = with_design(frame, "condition", targets)
    model = MaskedFamilies(lambda v: make_families(v, "linear"), ds.values, ds.interventions, condition_intercept=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = exact_search(model, BIC(model.n_samples))
    return [(ds.names[p], ds.names[c]) for p, c in best.edges()]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", type=int, default=15, help="Hartemink's starting equal-frequency levels")
    ap.add_argument("--no-continuous", action="store_true", help="skip the continuous optimum's edges")
    ap.add_argument("--check", action="store_true", help="only the brute-force check of the DP")
    ap.add_argument("--bootstrap", type=int, default=100, help="resamples for the model-averaged rows (0: none)")
    ap.add_argument("--threshold", type=float, default=0.85, help="edge frequency kept by model averaging")
    args = ap.parse_args(argv)
    brute_force_check()
    if args.check:
        return
    frame = pd.read_csv(SAMPLES / "sachs2005_all_conditions_log.csv")
    targets = read_targets(SAMPLES / "sachs2005_targets.csv")
    true = list(pd.read_csv(SAMPLES / "sachs2005_consensus_edges.csv").itertuples(index=False, name=None))
    ds = with_design(frame, "condition", targets)
    names, values = list(ds.names), np.asarray(ds.values, dtype=float)
    keep_masked = ~np.asarray(ds.interventions.mask, dtype=bool)
    keep_all = np.ones_like(keep_masked)
    print(f"machine: {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    rows = dict(zip(names, keep_masked.sum(axis=0).tolist(), strict=True))
    print(f"rows {values.shape[0]}, family rows when masked: {rows}")
    cpu0, wall0 = time.process_time(), time.perf_counter()
    optima = {}
    print(
        f"{'setting':52s} {'edges':>5s} {'skel':>4s} {'dir':>3s} {'rev':>3s} {'false':>5s} {'SHD':>3s} {'score':>12s}"
    )
    req = [(names.index(p), names.index(c)) for p, c in true]
    consensus = [tuple(sorted(p for p, c in req if c == x)) for x in range(len(names))]
    for dname, disc in (("tertiles", tertiles), (f"hartemink {args.levels}->3", lambda v: hartemink(v, args.levels))):
        levels = disc(values)
        sizes = {names[j]: np.bincount(levels[:, j]).tolist() for j in range(len(names))}
        print(f"# {dname}: rows per level {sizes}")
        for kname, keep in (("masked", keep_masked), ("pooled", keep_all)):
            tables = family_scores(levels, keep, (1, 10))
            for sname, table in tables.items():
                best = table_optimum(table)
                tag = f"{dname}, {kname}, {sname.replace('bdeu', 'BDeu ess ')}"
                line(tag, best.edges(), names, true, best.score)
                optima[tag] = [(names[p], names[c]) for p, c in best.edges()]
                if kname == "masked":
                    own = sum(TableFamilies(table).fit(x, consensus[x]).loglik for x in range(len(names)))
                    line("    the consensus network itself", req, names, true, own)
                    held = table_optimum_required(table, req)
                    line("    exact, all 17 consensus edges required", held.edges(), names, true, held.score)
        if args.bootstrap:
            for ess in (1, 10, None):
                edges = bootstrap_network(levels, keep_masked, ess, args.bootstrap, args.threshold)
                sname = "bic" if ess is None else f"BDeu ess {ess}"
                tag = f"{dname}, masked, {sname}, bootstrap {args.bootstrap} >= {args.threshold:g}"
                line(tag, edges, names, true)
                optima[tag] = [(names[p], names[c]) for p, c in edges]
    print(f"CPU {time.process_time() - cpu0:.1f} s, wall {time.perf_counter() - wall0:.1f} s")
    tset = set(true)
    for tag, edges in optima.items():
        if "masked" in tag:
            ok = sorted(e for e in edges if e in tset)
            rev = sorted(e for e in edges if (e[1], e[0]) in tset)
            bad = sorted(e for e in edges if e not in tset and (e[1], e[0]) not in tset)
            print(f"\n{tag}\n  correct: {ok}\n  reversed: {rev}\n  false: {bad}")
    if not args.no_continuous:
        cont = continuous_optimum(frame, targets)
        print(f"\ncontinuous optimum (linear, masked, intercepts): {sorted(cont)}")
        line(
            "continuous (linear, masked, intercepts)", [(names.index(p), names.index(c)) for p, c in cont], names, true
        )
        for tag, edges in optima.items():
            if "masked" in tag:
                only_d, only_c = sorted(set(edges) - set(cont)), sorted(set(cont) - set(edges))
                print(f"{tag}: only discrete {only_d}; only continuous {only_c}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\ntotal CPU {time.process_time() - cpu0:.1f} s, peak RSS {peak:.0f} MB")
    print("skel/dir/rev/false/SHD against the 17 consensus edges. Target (#15): skel >= 10, false <= 4, dir >= 8.")


if __name__ == "__main__":
    main()
