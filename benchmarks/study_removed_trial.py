"""Does the removed regulator's proposal pay when it is tried? (#22, "a known regulator taken out of
the data is not given back", full tables.)

On the converged network ``bench_propose_real.py prep`` stored (FNR removed from *E. coli*
3,922 x 278, or SigD from *B. subtilis* 4,217 x 266), this builds the :class:`HiddenSearch` that
``--hidden auto`` builds (regulator list, seed 0), runs ``auto``'s start (the network without hidden
variables, searched to convergence from the stored edges) and its first proposal round
(``HiddenSearch.propose`` as :meth:`HiddenSearch._auto_candidates` calls it, and the order ``auto`` tries
them in, or why it does not: explained by a listed regulator, flagged). Every proposal is printed
with its source, size, estimate (``estimated_gain``), the removed inside edges' loss
(``removed_loss``), the paper's complete-data estimate, common variance, |r| of z* with the removed
regulator's own mRNA (``removed.csv``) and how many of its members are the removed regulator's
known targets and module genes.

Then the chosen proposals (``--try``: ``module``, the one holding the most module genes, i.e. the
removed regulator's proposal picked with the truth; ``r``, the one whose z* tracks its mRNA best;
``first``, the one ``auto`` tries first; or indices into the printed list) are tried exactly as ``auto`` tries them
(:func:`engine.hidden.trial.try_proposal`: structural EM over H's Markov blanket, then everywhere,
against the observed-data score of the network before, and the network without H re-searched from
where it led). Printed per trial: its observed-data score against both, so whether it pays (the
realized gain ``auto``'s keep rule uses), CPU seconds, H's children, |r| of E[H] with the removed
regulator's mRNA, and its known targets and module genes among the children with the one-sided
hypergeometric p (universe: the table's genes).

The first round's proposals are stored in DIR/study_first_round.pkl; ``--reuse`` reads them instead.
``--rounds K`` then runs ``auto`` itself (``--max-hidden 3``, the first round's proposals reused) and
prints the order of each of its first K rounds (the place of the set holding most module genes),
stopping before the K-th round's try (:func:`rounds`); ``--rank`` sets ``trying_order.GENOME_RANK``.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_removed_trial.py --workdir DIR [--try module first 3]
          [--reuse] [--rounds K] [--rank common_variance|free_gain]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import hypergeom

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine.hidden.trying_order as order_module  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402
from engine.hidden.member_cover import member_cover  # noqa: E402
from engine.hidden.trial import try_proposal  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def _hyper(hit: int, universe: int, group: int, drawn: int) -> float:
    """One-sided hypergeometric p of ``hit`` or more of a ``group`` among ``drawn`` of ``universe``."""
    return float(hypergeom.sf(hit - 1, universe, group, drawn)) if drawn else 1.0


def build(work: Path) -> tuple[HiddenSearch, dict, np.ndarray]:
    """The search ``--hidden auto`` builds on the prepared table, started at the stored network and
    searched to convergence (auto's start); the removed regulator's record and its mRNA."""
    ds = load_table(work / "table.csv")
    regs = [r for r in (work / "table_regulators.txt").read_text().splitlines() if r.strip()]
    est = IdealParentSearch(regulators=regs, random_state=0, hidden="auto", max_hidden=3)
    opts = {"regulators": est.regulator_names(ds), "parent_only": est.parent_only_names(ds)}
    edges = [(ds.names[p], ds.names[c]) for p, c in json.loads((work / "edges.json").read_text())]
    hs = HiddenSearch(ds, est.search_settings(), seed=0, em_options=opts, initial_edges=edges)
    c0 = time.process_time()
    hs.em.run()  # auto's start: the network without hidden variables, searched to convergence
    print(f"start: {len(hs.em.edges)} edges (stored {len(edges)}), score {hs.observed_bic():.1f}, "
          f"{time.process_time() - c0:.1f} s CPU", flush=True)  # fmt: skip
    start = [(hs.names[p], hs.names[c]) for p, c in hs.em.edges]  # auto's start, for the member rule offline
    (work / "study_start_edges.json").write_text(json.dumps(start))
    rem = json.loads((work / "removed.json").read_text())
    own = pd.read_csv(work / "removed.csv", index_col=0).iloc[:, 0]
    return hs, rem, own.reindex(list(ds.instance_labels)).to_numpy(float)


def describe(p, rem: dict, own: np.ndarray) -> dict:
    r = abs(float(np.corrcoef(p.profile, own)[0, 1]))
    return {
        "source": p.source,
        "size": len(p.names),
        "estimate": p.estimated_gain,
        "removed_loss": p.removed_loss,
        "complete": p.complete_gain,
        "cv": p.common_variance,
        "r": r,
        "regulon": len(set(p.names) & set(rem["regulon"])),
        "module": len(set(p.names) & set(rem["module"])),
        "member_r": float(np.mean(np.abs(p.member_corr))),
    }


def rounds(hs: HiddenSearch, props: list, k: int, rem: dict, own: np.ndarray) -> None:
    """``hs.auto(3)`` with the first round's ``props``; each round's order is printed (every candidate's
    source, size, estimate, common variance, module genes), and the K-th round ends ``auto``."""
    first, candidates, calls = [list(props)], hs._auto_candidates, []
    hs.propose = lambda **kw: first.pop() if first else HiddenSearch.propose(hs, **kw)

    def printed(skipped):
        order = candidates(skipped)
        calls.append(len(order))
        print(f"round {len(calls)} ({len(hs.hidden)} hidden kept, {len(skipped)} set aside): {len(order)} candidates",
              flush=True)  # fmt: skip
        for j, p in enumerate(order):
            d = describe(p, rem, own)
            print(f"    #{j + 1} {d['source']:24s} {d['size']:4d} genes, estimate {d['estimate']:+10.1f}, "
                  f"cv {d['cv']:6.1f}, |r| {d['r']:.2f}, "
                  f"module {d['module']}/{len(rem['module'])}", flush=True)  # fmt: skip
        return [] if len(calls) >= k else order

    hs._auto_candidates = printed
    c0 = time.process_time()
    hs.auto(3, progress=lambda msg: print(f"  auto: {msg[:300]}", flush=True))
    print(f"rounds: {time.process_time() - c0:.1f} s CPU, load {os.getloadavg()[0]:.1f}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--try", dest="tries", nargs="*", default=["module"])
    ap.add_argument("--reuse", action="store_true", help="the first round's proposals stored by an earlier run")
    ap.add_argument("--rounds", type=int, default=0, help="run auto and print its first K rounds' orders")
    ap.add_argument("--rank", choices=list(order_module.RANKS), default=None, help="trying_order.GENOME_RANK")
    args = ap.parse_args(argv)
    order_module.GENOME_RANK = args.rank
    work = Path(args.workdir)
    c_all = time.process_time()
    hs, rem, own = build(work)
    best = hs.observed_bic()
    n_genes = hs.n_observed
    c0 = time.process_time()
    cache = work / "study_first_round.pkl"
    if args.reuse and cache.exists():  # the proposals of an earlier run of this script on the same network
        props = pickle.loads(cache.read_bytes())
    else:
        props = hs.propose(n_proposals=10)  # what auto's first round proposes (_auto_candidates' call)
        cache.write_bytes(pickle.dumps(props))
    cpu = time.process_time() - c0
    hs.propose = lambda **kw: list(props)  # noqa: ARG005 (the same list, in auto's order below)
    tried = hs._auto_candidates(set())
    print(f"first round: {len(props)} proposals, {len(tried)} of them tried by auto, {cpu:.1f} s CPU; removed "
          f"{rem['removed']}: {len(rem['regulon'])} targets, module {len(rem['module'])}", flush=True)  # fmt: skip
    rows = [describe(p, rem, own) for p in props]
    n_par = np.bincount([c for _, c in hs.em.edges], minlength=len(hs.names))  # parents per variable
    for i, (p, d) in enumerate(zip(props, rows, strict=True)):
        place = next((k for k, q in enumerate(tried) if q is p), None)
        by = hs.names.index(p.explained_by) if p.explained_by in hs.names else None
        r_by = abs(float(np.corrcoef(p.profile, hs.em.mean[:, by])[0, 1])) if by is not None else float("nan")
        cover = member_cover(p, hs.em.edges, hs.names)
        inner = f" (a member; its children {cover.n_children}/{cover.n_others} of the others)" if cover else ""
        why = f"explained by {p.explained_by}{inner}, |r| {r_by:.2f}" if by is not None else ""
        if place is None:
            why = f"not tried: {why or 'a profile cluster or semi-clique whose estimates do not qualify'}"
        why = ", flagged" if p.flagged else (f", {why}" if why else "")
        print(
            f"  [{i}] {'auto #' + str(place + 1) if place is not None else 'not tried':10s} {d['source']:24s} "
            f"{d['size']:4d} genes, estimate {d['estimate']:+10.1f}, removed loss {d['removed_loss']:9.1f}, "
            f"estimate + loss {d['estimate'] + d['removed_loss']:+10.1f}, complete {d['complete']:+10.1f}, "
            f"cv {d['cv']:6.1f}, mean |r(member, z*)| {d['member_r']:.2f}, |r| {d['r']:.2f}, "
            f"members' mean parents {n_par[p.members].mean():.1f}, "
            f"targets {d['regulon']}, module {d['module']}/{len(rem['module'])}"
            f"{why}",
            flush=True,
        )
    picks = []
    for t in args.tries:
        if t == "module":
            picks.append(max(range(len(rows)), key=lambda i: (rows[i]["module"], rows[i]["r"])))
        elif t == "r":
            picks.append(max(range(len(rows)), key=lambda i: rows[i]["r"]))
        elif t == "first":
            picks.append(next(i for i, p in enumerate(props) if p is tried[0]))
        else:
            picks.append(int(t))
    if args.rounds:
        rounds(hs, props, args.rounds, rem, own)
    for i in dict.fromkeys(picks):
        p = props[i]
        c0 = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trial = try_proposal(hs, p, best)
        cpu = time.process_time() - c0
        em = trial.em
        col = em.names.index(trial.name)
        kids = [em.names[c] for q, c in em.edges if q == col and c < em.n_obs]
        r = abs(float(np.corrcoef(em.mean[:, col], own)[0, 1]))
        n_reg, n_mod = len(set(kids) & set(rem["regulon"])), len(set(kids) & set(rem["module"]))
        reg_in = len(set(rem["regulon"]) & set(hs.names[:n_genes]))
        beat = max(best, trial.alternative_score)
        verdict = "PAYS (kept)" if trial.score > beat else "does not pay"
        print(
            f"trial [{i}] {p.source} ({len(p.names)} genes): {verdict}: {trial.score:.1f} vs before {best:.1f} "
            f"({trial.score - best:+.1f}), vs best without H {trial.alternative_score:.1f} "
            f"({trial.score - beat:+.1f} realized); start {trial.start}, starts {trial.starts}; {cpu:.1f} s CPU\n"
            f"  H: {len(kids)} children, |r| with {rem['removed']}'s mRNA {r:.2f}; targets {n_reg}/{reg_in} "
            f"(p {_hyper(n_reg, n_genes, reg_in, len(kids)):.1e}), module {n_mod}/{len(rem['module'])} "
            f"(p {_hyper(n_mod, n_genes, len(rem['module']), len(kids)):.1e}); "
            f"parents {[em.names[q] for q, c in em.edges if c == col]}",
            flush=True,
        )
    print(f"total {time.process_time() - c_all:.1f} s CPU, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
