"""How close the proposals ``auto`` tries come to the planted regulator (#22 item 1, ``dense``).

Per seed of a generator of :mod:`planted_general`: the network without H that ``auto`` starts
from (structural EM, then ``climb``), the candidates ``auto`` would try on it, in its order
(``HiddenSearch._auto_candidates``), and for each its source, members, |corr(z*, h)| and
precision / recall of its members against the planted children. Reference profiles on the same
network: z* of the planted child set scored as a candidate (edges inside it removed, their other
learned parents kept), the same with the outside parents that carry h (|corr(x_u, h)| > 0.2, an
oracle diagnostic) dropped too, and z* of the planted set on the *true* structure (its true
parents). Also: how many of the planted children's learned outside parents are descendants of
the planted children in the true DAG (reversed edges), and the best set, by P * R, among *all*
semi-cliques the proposal step scores (pruned and grown), not only those it picks.

``--trials``: the planted child set itself as the proposal, tried by ``auto``'s own trial
(``try_proposal``: every start, the child screens, the bar of the networks without H found on the
way), once with its z* and once with the true h as the profile: does an exact proposal pay?

``--pool-trials``: every distinct pruned semi-clique of the learned skeleton through the same trial.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_dense_proposals.py [--gen dense] [--seeds 0-9]
[--trials] [--pool-trials]
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
from engine.hidden import HiddenSearch  # noqa: E402
from engine.hidden.candidates import (  # noqa: E402
    _skeleton,
    candidate_proposal,
    family_coefficients,
    grow,
    prune,
    score_candidate,
)
from engine.hidden.semiclique import find_semicliques  # noqa: E402
from engine.hidden.trial import climb, try_proposal  # noqa: E402


def corr(a: np.ndarray, b: np.ndarray) -> float:
    """|Pearson correlation| of ``a`` and ``b`` (the sign of a hidden profile is arbitrary)."""
    return abs(float(np.corrcoef(a, b)[0, 1]))


def learned(x: np.ndarray) -> HiddenSearch:
    """A HiddenSearch on ``x`` at the network auto starts from (searched, then climbed)."""
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    hs = HiddenSearch(from_array(x, names, standardize=False))
    base = hs._structural_em(initial_edges=[])
    base.run()
    hs.em = climb(base)
    return hs


def residual(xc: np.ndarray, v: int, parents) -> np.ndarray:
    """x_v's least-squares residual on ``parents`` (centred data)."""
    if not parents:
        return xc[:, v].copy()
    a = xc[:, list(parents)]
    return xc[:, v] - a @ np.linalg.lstsq(a, xc[:, v], rcond=None)[0]


def first_pc(y: np.ndarray) -> np.ndarray:
    """First principal component (scores) of the standardized columns of ``y``."""
    y = (y - y.mean(axis=0)) / y.std(axis=0)
    return np.linalg.svd(y, full_matrices=False)[0][:, 0]


def mean_offdiag(y: np.ndarray) -> float:
    """Mean |corr| between the distinct columns of ``y``."""
    c = np.abs(np.corrcoef(y.T))
    k = c.shape[0]
    return float((c.sum() - k) / (k * (k - 1)))


def descendants(edges, roots) -> set[int]:
    """Proper descendants of ``roots`` along ``edges`` (parent, child)."""
    kids: dict[int, list[int]] = {}
    for p, c in edges:
        kids.setdefault(p, []).append(c)
    out: set[int] = set()
    stack = list(roots)
    while stack:
        for c in kids.get(stack.pop(), []):
            if c not in out:
                out.add(c)
                stack.append(c)
    return out


def best_pool_set(hs: HiddenSearch, xc: np.ndarray, kids: set[int], h: np.ndarray) -> str:
    """The set closest to the planted children (by P * R) among every semi-clique the proposal
    step scores, pruned and grown (candidates.propose_from_search picks a few of them)."""
    stepper = hs._current_stepper()
    model, scorer, n = stepper.model, stepper.scorer, hs.n_observed
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    adj = _skeleton(parents)
    best = (-1.0, "")
    for s in find_semicliques(adj):
        cs = prune(score_candidate(model, parents, s, scorer, xc), model, parents, scorer, xc, 3)
        for c in (cs, grow(cs, model, parents, scorer, xc, adj, np.ones(n, dtype=bool), 3, None)):
            m = {int(v) for v in c.members}
            p, r = len(m & kids) / len(m), len(m & kids) / len(kids)
            text = f"P {p:.2f} R {r:.2f} size {len(m)} |corr| {corr(c.profile, h):.3f}"
            best = max(best, (p * r, text), key=lambda t: t[0])
    return best[1]


def best_ego_set(hs: HiddenSearch, xc: np.ndarray, kids: set[int], h: np.ndarray) -> str:
    """The set closest to the planted children (by P * R) among the learned neighbourhoods
    ``{v} + parents + children`` of every variable v, each pruned by its one-factor loadings
    (H as the parent of a proxy variable and the neighbours it explains)."""
    stepper = hs._current_stepper()
    model, scorer, n = stepper.model, stepper.scorer, hs.n_observed
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    best = (-1.0, "")
    for v in range(n):
        near = {v, *parents[v], *(c for c in range(n) if v in parents[c])}
        if len(near) < 3:
            continue
        cs = prune(score_candidate(model, parents, np.array(sorted(near)), scorer, xc), model, parents, scorer, xc, 3)
        m = {int(u) for u in cs.members}
        p, r = len(m & kids) / len(m), len(m & kids) / len(kids)
        best = max(
            best, (p * r, f"P {p:.2f} R {r:.2f} size {len(m)} |corr| {corr(cs.profile, h):.3f}"), key=lambda t: t[0]
        )
    return best[1]


def oracle_trials(hs: HiddenSearch, x: np.ndarray, kids: set[int], h: np.ndarray) -> None:
    """The planted set as the proposal through auto's trial, with its z* and with h as profile."""
    stepper = hs._current_stepper()
    n = hs.n_observed
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    xc = x - x.mean(axis=0)
    cs = score_candidate(stepper.model, parents, np.array(sorted(kids)), stepper.scorer, xc)
    base = candidate_proposal(cs, xc, x, hs.names, 0.9, source="planted set")
    best = hs.em.observed_bic()
    for label, z in (("z*", base.profile), ("h", (h - h.mean()) / h.std())):
        t0 = time.process_time()
        base.profile = z
        tr = try_proposal(hs, base, best)
        col = tr.em.names.index(tr.name)
        got = {c for p, c in tr.em.edges if p == col and c < n}
        pays = tr.score > max(best, tr.alternative_score)
        hc = corr(tr.em.mean[:, col], h)
        p, r = len(got & kids) / max(len(got), 1), len(got & kids) / len(kids)
        rec = pays and hc >= 0.9 and p >= 0.8 and r >= 0.8
        print(
            f"   planted set, profile {label:2s}: with H {tr.score:.1f} ({tr.start} start), bar "
            f"{max(best, tr.alternative_score):.1f}: {'pays' if pays else 'does not pay'}"
            f"{', recovered' if rec else ''}; H |corr| {hc:.3f} P {p:.2f} R {r:.2f} "
            f"({time.process_time() - t0:.0f} s CPU)",
            flush=True,
        )


def pool_trials(hs: HiddenSearch, x: np.ndarray, kids: set[int], h: np.ndarray) -> None:
    """Every distinct pruned semi-clique of the learned skeleton as a proposal through auto's trial
    (auto tries at most a few of them): does any set the semi-clique step finds pay?"""
    stepper = hs._current_stepper()
    model, scorer, n = stepper.model, stepper.scorer, hs.n_observed
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    xc = x - x.mean(axis=0)
    best, seen, n_pay, n_rec = hs.em.observed_bic(), set(), 0, 0
    for s in find_semicliques(_skeleton(parents)):
        cs = prune(score_candidate(model, parents, s, scorer, xc), model, parents, scorer, xc, 3)
        key = tuple(int(v) for v in cs.members)
        if key in seen:
            continue
        seen.add(key)
        tr = try_proposal(hs, candidate_proposal(cs, xc, x, hs.names, 0.9, source="semi-clique"), best)
        col = tr.em.names.index(tr.name)
        got = {c for p, c in tr.em.edges if p == col and c < n}
        pays = tr.score > max(best, tr.alternative_score)
        hc = corr(tr.em.mean[:, col], h)
        p, r = len(got & kids) / max(len(got), 1), len(got & kids) / len(kids)
        n_pay += pays
        n_rec += pays and hc >= 0.9 and p >= 0.8 and r >= 0.8
        m = set(key)
        print(
            f"   semi-clique P {len(m & kids) / len(m):.2f} R {len(m & kids) / len(kids):.2f} size {len(m):2d} "
            f"|corr| {corr(cs.profile, h):.3f}: {'pays' if pays else 'does not pay'} "
            f"({tr.score:.1f} against {max(best, tr.alternative_score):.1f}); H |corr| {hc:.3f} P {p:.2f} R {r:.2f}",
            flush=True,
        )
    print(f"   {len(seen)} pruned semi-cliques tried: {n_pay} pay, {n_rec} recover h")


def study(gen: str, seed: int, extra=None) -> None:
    """Print, for seed ``seed`` of generator ``gen``, what the proposals ``auto`` makes on its
    learned network recover of the planted regulator (``extra(hs, x, kids, h)``: more lines)."""
    x, kid_sets, hs_true = generate_all(gen, seed)
    kids, h = kid_sets[0], hs_true[0]
    t0 = time.process_time()
    hs = learned(x)
    stepper = hs._current_stepper()
    model, scorer = stepper.model, stepper.scorer
    n = hs.n_observed
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    xc = x - x.mean(axis=0)
    inner = sum(1 for c in kids for p in parents[c] if p in kids)
    true_par = [tuple(p for p, c in true_edges(gen, seed) if c == v) for v in range(n)]
    true_inner = sum(1 for c in kids for p in true_par[c] if p in kids)
    oracle = score_candidate(model, parents, np.array(sorted(kids)), scorer, xc)
    # the planted set's z* with the true parents (inside edges removed)
    coef, _ = family_coefficients(model, true_par)
    y = np.column_stack([xc[:, v] - xc[:, list(true_par[v])] @ coef[list(true_par[v]), v] for v in sorted(kids)])
    y = y / y.std(axis=0)
    pc_true = np.linalg.svd(y, full_matrices=False)[0][:, 0]
    hc = {u for u in range(n) if corr(x[:, u], h) > 0.2}
    y = np.column_stack([residual(xc, v, [p for p in parents[v] if p not in kids | hc]) for v in sorted(kids)])
    outs = [p for v in kids for p in parents[v] if p not in kids]
    desc = descendants(true_edges(gen, seed), kids)
    kidnames = ", ".join(f"X{v + 1}" for v in sorted(kids))
    print(
        f"seed {seed}: {len(kids)} children ({kidnames}); learned edges {len(hs.em.edges)}, "
        f"{inner} inside the set (true {true_inner}); score {hs.em.observed_bic():.1f}; "
        f"z* of the planted set |corr| {corr(oracle.profile, h):.3f} (learned parents), "
        f"{corr(pc_true, h):.3f} (true parents), {corr(first_pc(y), h):.3f} (learned, h-carrying outside "
        f"parents dropped); outside learned parents {len(outs)}, "
        f"descendants of the children {sum(p in desc for p in outs)}"
    )
    learned_res = np.column_stack([residual(xc, v, parents[v]) for v in sorted(kids)])
    true_res = np.column_stack([residual(xc, v, true_par[v]) for v in sorted(kids)])
    print(
        f"   mean |corr| between the children's ideal profiles: {mean_offdiag(learned_res):.3f} on the learned "
        f"network, {mean_offdiag(true_res):.3f} on the true parents; best semi-clique in the whole pool: "
        f"{best_pool_set(hs, xc, kids, h)}; best pruned neighbourhood: {best_ego_set(hs, xc, kids, h)}"
    )
    for i, p in enumerate(hs._auto_candidates(set())):
        ch = set(p.members)
        prec = len(ch & kids) / len(ch)
        rec = len(ch & kids) / len(kids)
        print(
            f"   {i:2d} {p.source:24s} |corr| {corr(p.profile, h):.3f}  P {prec:.2f} R {rec:.2f}  "
            f"size {len(ch):2d} est {p.estimated_gain:+8.1f}  {', '.join(p.names)}"
        )
    if extra is not None:
        extra(hs, x, kids, h)
    print(f"   ({time.process_time() - t0:.1f} s CPU)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="dense")
    ap.add_argument("--seeds", default="0-9", help="a range a-b or a comma list")
    ap.add_argument("--trials", action="store_true", help="also the planted set through auto's trial")
    ap.add_argument("--pool-trials", action="store_true", help="also every pruned semi-clique through the trial")
    args = ap.parse_args()
    if "-" in args.seeds:
        a, b = (int(s) for s in args.seeds.split("-"))
        seeds = range(a, b + 1)
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    extra = [f for f, on in ((oracle_trials, args.trials), (pool_trials, args.pool_trials)) if on]

    def run_extra(*a) -> None:
        for f in extra:
            f(*a)

    for seed in seeds:
        study(args.gen, seed, run_extra if extra else None)


if __name__ == "__main__":
    main()
