"""Hidden regulators inside general (not two-layer) networks (#12; JMLR 2007 sections 5-6, thesis ch. 4).

1. Planted-regulator recovery, three generators, 30 observed variables, M = 500:
   * ``rn``: ``random_network(30, expected_parents=1.0, signal=0.4, seed)`` sampled, columns scaled
     to unit variance, then a factor h ~ N(0, 1) added to 6 random columns with random signs and
     loads U(1.0, 1.5) (``--load`` fixes one load instead);
   * ``dag``: a plain random DAG (edge probability 0.1 in a random order, weights +-U(0.5, 1.0),
     unit noise), columns scaled to unit variance, the same factor added;
   * ``dag-root``: the same DAG, noise and factor, but h is a root parent of the 6 during
     ancestral sampling (load times the column's sd before its h term), so it reaches their
     descendants like any parent's effect; columns then scaled to unit variance.
   ``HiddenSearch(ds).auto(max_hidden=2)``; per seed: added?, the children of H1 against the true
   children of H in the observed-data model (:func:`plant`: for a factor added after sampling these
   are the 6 planted columns *and* the children of planted columns, whose structural equations
   in the observed values have an h term -b * load; for ``dag-root`` the 6) and against the 6
   planted, |corr(H1 profile, h)|, estimated and realized score change, and the realized
   change recomputed independently (scipy multivariate normal of the observed columns under the
   final parameters, minus the BIC penalty counted by hand, against the baseline network's score).
2. No false regulators: the same generators with nothing planted; how often auto adds one.
3. Proposal time (both sources) on random networks of 500 and 2000 variables, after a search.

Run:  python benchmarks/bench_regulators.py [--seeds 10] [--load L] [--skip-timing] [--only GEN]
The hold-out (``planted_general.HOLD_OUT``, ``h29g``, written in the twenty-ninth session and
not yet run; seeds 2900-2909: indices 0-9 of its seed counter, see ``planted_h29g.py``), once, by
the lead, on the final code (``--null`` adds its null networks, ``--only h29g-null`` runs only them;
``GEN-null`` does the same for any generator; ``--ceiling`` the oracle; ``h28g``, the twenty-eighth
session's, runs with ``--only h28g``):
      OMP_NUM_THREADS=1 python benchmarks/bench_regulators.py --skip-timing --only h29g --hold-out --null
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import multivariate_normal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from planted_general import HOLD_OUT, SPECS, generate_all, true_edges  # noqa: E402
from planted_mixed import MIN_REQUIRED  # noqa: E402

from engine.cpd.linear import LinearGaussianFamilies  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch, StructuralEM, propose_from_search  # noqa: E402
from engine.hidden.trial import climb  # noqa: E402
from engine.search import Stepper  # noqa: E402
from engine.synth import random_network, sample  # noqa: E402

N, KIDS, M = 30, 6, 500


def scaled_weights(w: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """Structural weights of the unit-variance columns: x_v / sd_v = sum_u w[u, v] sd_u / sd_v (x_u / sd_u) + ..."""
    return w * sd[:, None] / sd[None, :]


def gen_rn(seed: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Columns scaled to unit variance, and their structural weight matrix b[parent, child]."""
    net = random_network(N, expected_parents=1.0, signal=0.4, seed=seed)
    x = sample(net, m, seed=1000 + seed)
    w = np.zeros((N, N))
    for j in range(N):
        w[net.parents[j], j] = net.weights[j]
    sd = x.std(axis=0)
    return x / sd, scaled_weights(w, sd)


def dag_weights(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The plain random DAG: a random order, edge probability 0.1, weights +-U(0.5, 1.0)."""
    order = rng.permutation(N)
    w = np.zeros((N, N))
    for a in range(N):
        for b in range(a + 1, N):
            if rng.random() < 0.1:
                w[order[a], order[b]] = rng.uniform(0.5, 1.0) * rng.choice([-1.0, 1.0])
    return order, w


def gen_dag(seed: int, m: int, root: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Ancestral sampling with unit noise; with ``root = (h, c)`` the factor is a root parent of
    the planted columns (c[v] != 0): x_v += c_v sd(x_v before this term) h, so its effect reaches their
    descendants like any parent's (the ``dag-root`` generator)."""
    rng = np.random.default_rng(5000 + seed)
    order, w = dag_weights(rng)
    x = np.zeros((m, N))
    for v in order:
        x[:, v] = x @ w[:, v] + rng.normal(size=m)
        if root is not None and root[1][v] != 0.0:
            x[:, v] += root[1][v] * x[:, v].std() * root[0]
    sd = x.std(axis=0)
    return x / sd, scaled_weights(w, sd)


def factor(seed: int, m: int, load: float | None) -> tuple[np.ndarray, np.ndarray]:
    """The factor h and its signed loads c (zero outside the 6 planted columns)."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    kids = rng.choice(N, size=KIDS, replace=False)
    loads = np.full(KIDS, load) if load is not None else rng.uniform(1.0, 1.5, size=KIDS)
    c = np.zeros(N)
    c[kids] = rng.choice([-1.0, 1.0], size=KIDS) * loads
    return h, c


def plant(x: np.ndarray, b: np.ndarray, h: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, set[int]]:
    """Add the factor to the sampled columns (post hoc) and return the true children of H.

    With x_u = x'_u - c_u h (x' observed), each structural equation x_v = sum_u b[u, v] x_u + e_v
    becomes x'_v = sum_u b[u, v] x'_u + (c_v - sum_u b[u, v] c_u) h + e_v: in the observed-data
    model H is a parent of every column whose h coefficient is non-zero, the planted columns and
    the children of planted columns (unless the terms cancel)."""
    coef = c - b.T @ c
    return x + h[:, None] * c[None, :], {int(v) for v in np.flatnonzero(np.abs(coef) > 1e-9)}


def independent_score(hs: HiddenSearch) -> float:
    """Observed-data BIC recomputed without marginal_loglik: scipy's multivariate normal of the
    observed columns under the final parameters (each row's observed cells under their marginal when
    cells are missing), minus (log M / 2) * sum(k + 2) (and EBIC's
    gamma log C(N - 1, k) per family when that is the score)."""
    par = hs.em.params()
    n = len(hs.names)
    a = np.linalg.inv(np.eye(n) - par.coef.T)
    mu, cov = a @ par.intercept, (a * par.variance) @ a.T
    o = hs.n_observed
    # in units of each column's model sd (exact: log N(x; mu, C) = log N(x / d; mu / d, C / dd') - sum log d),
    # so columns in their own units (``h16g``: sds over five orders of magnitude) stay within scipy's PD check
    d = np.sqrt(np.diag(cov)[:o])
    z, zc = hs.em.mean[:, :o] / d, cov[:o, :o] / np.outer(d, d)
    seen = ~np.asarray(hs.dataset.missing, dtype=bool)
    ll = 0.0
    # missing cells (``h24g``) integrated out: each row's observed cells under their marginal, per pattern
    patterns, which = np.unique(seen, axis=0, return_inverse=True)
    for k, cols in enumerate(patterns):
        rows = np.asarray(which).ravel() == k
        part = multivariate_normal(mu[:o][cols] / d[cols], zc[np.ix_(cols, cols)]).logpdf(z[np.ix_(rows, cols)])
        ll += np.sum(part) - rows.sum() * np.log(d[cols]).sum()
    k = (par.coef != 0).sum(axis=0)
    penalty = 0.5 * math.log(hs.dataset.n_samples) * np.sum(k + 2)
    if hs.em.score_choice.name == "ebic":  # + gamma log C(p, k), p = N - 1 candidate parents
        p, gamma = n - 1, hs.settings.ebic_gamma
        penalty += gamma * sum(math.lgamma(p + 1) - math.lgamma(j + 1) - math.lgamma(p - j + 1) for j in k)
    return float(ll - penalty)


def run_one(x: np.ndarray, kids: set[int] | None, truth: set[int] | None, h: np.ndarray | None) -> dict:
    names = [f"X{i + 1}" for i in range(N)]
    ds = from_array(x, names, standardize=False)
    t0, c0 = time.perf_counter(), time.process_time()
    hs = HiddenSearch(ds)
    found = hs.auto(max_hidden=2)
    out = {"added": len(found), "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0}
    if found:
        h1 = found[0]
        ch = {names.index(c) for c in h1.children}
        nan = float("nan")
        out["prec"] = len(ch & truth) / len(ch) if (truth and ch) else nan  # against the true children
        out["rec"] = len(ch & truth) / len(truth) if truth else nan
        out["prec_k"] = len(ch & kids) / len(ch) if (kids and ch) else nan  # against the 6 planted
        out["rec_k"] = len(ch & kids) / len(kids) if kids else nan
        out["corr"] = abs(np.corrcoef(hs.hidden_profile("H1"), h)[0, 1]) if h is not None else nan
        out["est"] = h1.estimated_gain
        out["real"] = sum(v.realized_gain for v in found)
        out["check"] = independent_score(hs) - hs.observed_bic()
    return out


def recovery(gen, label: str, seeds: int, load: float | None, planted: bool, root: bool = False) -> None:
    """``root``: the factor is sampled as a root parent of the planted columns (``gen`` takes it);
    otherwise it is added to the sampled columns (``plant``)."""
    rows = []
    for seed in range(seeds):
        if not planted:
            x, _ = gen(seed, M)
            kids = truth = h = None
        else:
            h, c = factor(seed, M, load)
            kids = {int(v) for v in np.flatnonzero(c)}
            if root:
                x, _ = gen(seed, M, root=(h, c))
                truth = kids
            else:
                x, b = gen(seed, M)
                x, truth = plant(x, b, h, c)
        r = run_one(x, kids, truth, h)
        rows.append(r)
        if planted:
            extra = (
                f"|T| {len(truth):2d} P {r['prec']:.2f} R {r['rec']:.2f} R6 {r['rec_k']:.2f} P6 {r['prec_k']:.2f} "
                f"|corr| {r['corr']:.3f} est {r['est']:+8.1f} real {r['real']:+7.1f} check {r['check']:+.1e}"
                if r["added"]
                else f"|T| {len(truth):2d} none"
            )
        else:
            extra = f"real {r['real']:+7.1f} check {r['check']:+.1e}" if r["added"] else "none"
        print(
            f"  {label:8s} seed {seed:2d} added {r['added']}  {extra}  {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU)",
            flush=True,
        )
    added = sum(r["added"] > 0 for r in rows)
    if planted:
        ok = [r for r in rows if r["added"]]

        def strict(p: str, q: str) -> int:
            return sum(r[p] >= 0.8 and r[q] >= 0.8 and r["corr"] >= 0.9 for r in ok)

        print(
            f"  {label}: added on {added}/{seeds}; |corr| >= 0.9 and P, R >= 0.8 against the true children on "
            f"{strict('prec', 'rec')}/{seeds}; P (true) and R (6 planted) on {strict('prec', 'rec_k')}/{seeds}; "
            f"P, R against the 6 planted on {strict('prec_k', 'rec_k')}/{seeds}"
        )
        if ok:
            keys = ("prec", "rec", "rec_k", "prec_k", "corr")
            means = [np.mean([r[k] for r in ok]) for k in keys]
            print(
                f"  {label}: where added, mean P {means[0]:.2f}, R {means[1]:.2f}, R6 {means[2]:.2f}, "
                f"P6 {means[3]:.2f}, |corr| {means[4]:.3f}"
            )
    else:
        print(f"  {label}: false regulators on {added}/{seeds}")
    print(f"  {label}: auto median {np.median([r['cpu'] for r in rows]):.1f} s CPU per network")
    if any(r["added"] for r in rows):
        worst = max(abs(r["check"]) for r in rows if r["added"])
        pos = all(r["real"] > 0 for r in rows if r["added"])
        print(f"  {label}: every kept variable realized > 0: {pos}; worst |reported - recomputed| {worst:.1e}")


def general(name: str, seeds: int, null: bool, first: int = 0) -> dict:
    """#22: ``HiddenSearch(ds).auto(max_hidden=2)`` on one generator of
    :mod:`planted_general`. Per seed and planted root, the kept H that tracks its h best is
    matched: the root is recovered when that H's children reach precision and recall >= 0.8
    against its planted children and |corr(H, h)| >= 0.9; a seed is recovered when every root with
    at least ``planted_mixed.MIN_REQUIRED`` (4) children is (every root of the other generators has).
    Every kept H's realized change is checked against the scipy recomputation. Seeds ``first`` ..
    ``first + seeds - 1`` (counted from the generator's own first seed)."""
    rows = []
    for seed in range(first, first + seeds):
        x, kid_sets, hs_true = generate_all(name, seed, null=null)
        names = [f"X{i + 1}" for i in range(x.shape[1])]
        ds = from_array(x, names, standardize=False)
        t0, c0 = time.perf_counter(), time.process_time()
        hs = HiddenSearch(ds)
        found = hs.auto(max_hidden=2)
        r = {"added": len(found), "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0}
        r["real"] = [v.realized_gain for v in found]
        r["check"] = independent_score(hs) - hs.observed_bic() if found else 0.0
        r["roots"] = []
        texts = []
        for kids, h in zip(kid_sets, hs_true, strict=True):
            ok, text = False, "none"
            if found:
                corr = [abs(np.corrcoef(hs.hidden_profile(v.name), h)[0, 1]) for v in found]
                best = found[int(np.argmax(corr))]
                ch = {names.index(c) for c in best.children if c in names}  # observed ones (H1 -> H2 on h18g)
                p = len(ch & kids) / len(ch) if ch else 0.0
                rc = len(ch & kids) / len(kids)
                ok = p >= 0.8 and rc >= 0.8 and max(corr) >= 0.9
                text = f"P {p:.2f} R {rc:.2f} |corr| {max(corr):.3f}"
            r["roots"].append(ok)
            texts.append(f"|T| {len(kids):2d} {text}{'' if len(kids) >= MIN_REQUIRED else ' (not required)'}")
        need = [ok for ok, kids in zip(r["roots"], kid_sets, strict=True) if len(kids) >= MIN_REQUIRED]
        r["ok"] = bool(need) and all(need)
        if null and found:
            texts.append("children " + ", ".join(found[0].children))
        gains = " ".join(f"{g:+.1f}" for g in r["real"])
        print(
            f"  {name:8s} seed {seed:2d} M {x.shape[0]:3d} N {x.shape[1]:2d} added {r['added']} {'; '.join(texts)} "
            f"real {gains} check {r['check']:+.1e}  {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU)",
            flush=True,
        )
        rows.append(r)
    added = sum(r["added"] > 0 for r in rows)
    if null:
        print(f"  {name} null: false regulators on {added}/{seeds}")
    else:
        n_roots = sum(len(r["roots"]) for r in rows)
        roots = f"; planted roots recovered {sum(sum(r['roots']) for r in rows)}/{n_roots}"
        print(f"  {name}: recovered {sum(r['ok'] for r in rows)}/{seeds}, added on {added}/{seeds}{roots}")
    kept = [g for r in rows for g in r["real"]]
    if kept:
        worst = max(abs(r["check"]) for r in rows)
        print(f"  {name}: every kept H realized > 0: {all(g > 0 for g in kept)}; worst |reported - scipy| {worst:.1e}")
    print(f"  {name}: auto median {np.median([r['cpu'] for r in rows]):.1f} s CPU per network")
    return {"recovered": sum(r["ok"] for r in rows), "added": added}


def ceiling(name: str, seeds: int, first: int = 0) -> None:
    """What the observed-data score can see at all: structural EM started from the *true*
    structure with the planted H's (the true h as profile) against the best network without them
    among the plain search, structural EM from the true structure without H, and the network
    without H re-searched from where the first led. H pays on a seed only if the first is larger."""
    n_pay = n_pay_c = 0
    for seed in range(first, first + seeds):
        x, kid_sets, hs_true = generate_all(name, seed)
        names = [f"X{i + 1}" for i in range(x.shape[1])]
        ds = from_array(x, names, standardize=False)
        edges = [(names[p], names[c]) for p, c in true_edges(name, seed)]
        hidden = {
            f"H{j + 1}": (h, [names[k] for k in sorted(kids)])
            for j, (kids, h) in enumerate(zip(kid_sets, hs_true, strict=True))
        }
        with_h = StructuralEM(ds, hidden=hidden, initial_edges=edges)
        with_h.run()
        runs = [StructuralEM(ds), StructuralEM(ds, initial_edges=edges)]
        runs.append(
            StructuralEM(
                ds,
                initial_edges=[(with_h.names[p], with_h.names[c]) for p, c in with_h.edges if max(p, c) < x.shape[1]],
            )
        )
        for r in runs:
            r.run()
        without = max(r.observed_bic() for r in runs)
        pay = with_h.observed_bic() > without
        # the same after random restarts on both sides (engine/hidden/trial.py climb)
        with_c = max(with_h.observed_bic(), climb(with_h).observed_bic())
        without_c = max(climb(r).observed_bic() for r in runs)
        pay_c = with_c > max(without, without_c)
        n_pay += pay
        n_pay_c += pay_c
        print(
            f"  {name:8s} seed {seed:2d} with H {with_h.observed_bic():.1f}, best without {without:.1f}: "
            f"{'pays' if pay else 'does not pay'}; with restarts {with_c:.1f} vs {max(without, without_c):.1f}: "
            f"{'pays' if pay_c else 'does not pay'}",
            flush=True,
        )
    print(
        f"  {name}: H from the true structure pays on {n_pay}/{seeds}, {n_pay_c}/{seeds} with restarts on both sides "
        "(the ceiling of any keep rule on this score)"
    )


def timing() -> None:
    for n in (500, 2000):
        net = random_network(n, expected_parents=1.0, seed=1)
        x = sample(net, 500, seed=2)
        stp = Stepper(LinearGaussianFamilies(x))
        stp.run(max_steps=2 * n)
        t0, c0 = time.perf_counter(), time.process_time()
        props = propose_from_search(stp, x, net.names, min_size=3)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(
            f"  {n} variables, {len(stp.edges())} edges: {len(props)} proposals in {dt:.2f} s ({cpu:.2f} s CPU)",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first", type=int, default=0, help="general generators: the first seed (to split a run)")
    ap.add_argument("--load", type=float, default=None)
    ap.add_argument("--skip-timing", action="store_true")
    gens = ["rn", "dag", "dag-root", "null", "timing", "general", *SPECS, *(f"{g}-null" for g in SPECS)]
    ap.add_argument("--only", choices=gens, default=None)
    ap.add_argument("--hold-out", action="store_true", help=f"also run the hold-out generator ({HOLD_OUT!r})")
    ap.add_argument("--null", action="store_true", help="with --only GEN: its null networks too")
    ap.add_argument("--null-only", action="store_true", help="with --only GEN: only its null networks")
    ap.add_argument("--ceiling", action="store_true", help="with --only GEN: only H from the true structure (oracle)")
    args = ap.parse_args()
    if args.only and args.only.endswith("-null") and args.only[: -len("-null")] in SPECS:
        args.only, args.null_only = args.only[: -len("-null")], True
    print(f"python {platform.python_version()}, {os.cpu_count()} cores; M = {M}, {N} variables, {KIDS} children")
    t0 = time.perf_counter()
    if args.only in (None, "rn"):
        print("planted regulator, random_network + factor")
        recovery(gen_rn, "rn", args.seeds, args.load, True)
    if args.only in (None, "dag"):
        print("planted regulator, plain random DAG + factor")
        recovery(gen_dag, "dag", args.seeds, args.load, True)
    if args.only in (None, "dag-root"):
        print("planted regulator, plain random DAG with the factor sampled as a root parent of the 6")
        recovery(gen_dag, "dag-root", args.seeds, args.load, True, root=True)
    if args.only in (None, "null"):
        print("nothing planted")
        recovery(gen_rn, "rn", args.seeds, None, False)
        recovery(gen_dag, "dag", args.seeds, None, False)
    tuned = [g for g in SPECS if g != HOLD_OUT]
    for g in tuned + ([HOLD_OUT] if args.hold_out or args.only == HOLD_OUT else []):
        if args.only in (None, "general", g):
            if not args.null_only:
                print(f"#22 general network, generator {g!r}{' (hold-out)' if g == HOLD_OUT else ''}: planted")
            if args.ceiling:
                ceiling(g, args.seeds, args.first)
                continue
            if not args.null_only:
                general(g, args.seeds, null=False, first=args.first)
            if args.only in (None, "general") or args.null or args.null_only:
                print(f"#22 general network, generator {g!r}: null")
                general(g, args.seeds, null=True, first=args.first)
    if not args.skip_timing and args.only in (None, "timing"):
        print("proposal time (both sources)")
        timing()
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
