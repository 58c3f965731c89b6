"""Why ``h20m``'s removed regulator R* (STAT1) is missed on some seeds (#22, session 21).

One ``--hidden auto --max-hidden 3`` run (``genome_auto.fit_auto``'s settings) on
``bench_regulators_genome_h20.generate(seed)``, instrumented: every proposal round
(:meth:`HiddenSearch._auto_candidates`) prints the proposals ``propose`` made (size, source,
section 5's estimate, the complete-data estimate, common variance, ``explained_by`` and, for a
tracking member, how many of the other members are its children (:mod:`engine.hidden.member_cover`),
|r| of z* with R*, module genes and R*'s listed TF targets among the members) and each one's place
in auto's trying order (``-`` when set aside); every :func:`engine.hidden.trial.try_proposal` call
prints its score against the network before and the best network without H, and |r| of E[H] with
R*. For an ``explained_by`` regulator T of the set that tracks R* best, the share of T's variance
z* explains (``R2(T|z*)``) and whether T is one of R*'s planted listed TF targets (R*'s child).

``--first-round`` stops at auto's start: the network without H, how it holds the module (also the median
pairwise |r| of the module genes' residuals against 200 other genes') and 40 proposals on it.

``--try-best`` also tries, in the first round, the proposal whose z* tracks R* best (picked with the
truth), exactly as auto would (``try_proposal`` on a copy), to see whether it pays where auto did not
reach it.

``--bench`` runs ``bench_regulators_genome_h20.run_seed`` instead (the hold-out's own line per seed and its
summary) with ``--pays-without on|off`` setting :data:`engine.hidden.few_instances.PAYS_WITHOUT` (the rule
built from these findings), and prints every kept H flagged by one or two instances with its gain without
them (the seeds where none is flagged run exactly as with the rule off).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_h20m_misses.py --seeds 2055 [--try-best]
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_h20m_misses.py --first-round --seeds 2052-2058
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_h20m_misses.py --bench --pays-without on --seeds 2090-2099
      OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_h20m_misses.py --bench --pays-without on \
          --run bench_regulators_genome.py --gen outlier --seeds 0-1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_regulators_genome_h20 as h20  # noqa: E402
from genome_auto import fit_auto, seed_range  # noqa: E402

import engine.hidden.few_instances as few  # noqa: E402
import engine.hidden.trial as trial_module  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.hidden.leverage import profile_leverage  # noqa: E402
from engine.hidden.member_cover import member_cover  # noqa: E402
from engine.hidden.search import HiddenSearch  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def _r(a, b) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


def describe(p, g: dict, hs: HiddenSearch) -> str:
    text = (
        f"{len(p.names):4d} genes {p.source[:22]:22s} est {p.estimated_gain:+9.1f} compl {p.complete_gain:+9.1f} "
        f"cv {p.common_variance:6.1f} r*={_r(p.profile, g['star']):.2f} "
        f"module {len(set(p.names) & g['module'])}/{len(g['module'])} tfs {len(set(p.names) & g['module_tfs'])}"
    )
    if p.explained_by is not None:
        cov = member_cover(p, hs.em.edges, hs.names)
        j = hs.names.index(p.explained_by)
        r2 = _r(p.profile, hs.em.mean[:, j]) ** 2
        child = "R*'s TF target" if p.explained_by in g["module_tfs"] else "not R*'s target"
        inside = f"member, covers {cov.n_children}/{cov.n_others}" if cov is not None else "outside"
        r_t = _r(hs.em.mean[:, j], g["star"])
        text += f" | explained_by {p.explained_by} ({inside}; R2(T|z*) {r2:.2f}, r(T,R*) {r_t:.2f}, {child})"
    if p.high_leverage:
        text += f" | FLAG {','.join(p.high_leverage)}"
    return text


def module_residuals(hs: HiddenSearch, g: dict) -> str:
    """How the learned network without H holds R*'s module: the module genes' parents (listed TFs),
    how many take one of R*'s listed TF targets, their ideal profiles' (residuals') |r| with R*, and the
    first principal component of those residuals (|r| with R*, leverage) against the raw values'."""
    par, x = hs.em.params(), hs.em.mean
    idx = [hs.names.index(n) for n in sorted(g["module"])]
    res = (x - par.intercept - x @ par.coef)[:, idx]
    parents = [[hs.names[p] for p in np.flatnonzero(par.coef[:, j])] for j in idx]
    isg = sum(bool(set(ps) & g["module_tfs"]) for ps in parents)
    r_res = np.median([_r(res[:, k], g["star"]) for k in range(len(idx))])

    def pc1(v):
        v = (v - v.mean(axis=0)) / np.maximum(v.std(axis=0), 1e-12)
        return np.linalg.svd(v, full_matrices=False)[0][:, 0]

    def pairs(v):  # median |r| over the pairs of columns of v
        c = np.corrcoef(v.T)
        return float(np.median(np.abs(c[np.triu_indices(len(c), 1)])))

    rest = np.setdiff1d(np.arange(hs.n_observed), idx + list(hs.em.regulators or []))
    other = np.random.default_rng(0).choice(rest, size=min(200, rest.size), replace=False)
    resid_all = x - par.intercept - x @ par.coef
    p_res, p_raw = pc1(res), pc1(x[:, idx])
    return (f"module genes: median {np.median([len(p) for p in parents]):.0f} parents, {isg}/{len(idx)} with one "
            f"of R*'s TF targets; residuals |r| with R* median {r_res:.2f}, their PC1 |r| {_r(p_res, g['star']):.2f} "
            f"(leverage {profile_leverage(p_res).leverage:.2f}); raw PC1 |r| {_r(p_raw, g['star']):.2f}; pairwise "
            f"|r| median: residuals {pairs(res):.2f} (200 other genes' {pairs(resid_all[:, other]):.2f}), "
            f"raw {pairs(x[:, idx]):.2f}")  # fmt: skip


def first_round(seed: int, n: int = 40) -> None:
    """The network without H (auto's start) and ``n`` proposals on it: :func:`module_residuals`, the
    module genes' most frequent parents, and every proposal holding 3+ module genes or tracking R* at
    |r| >= 0.5 (rank, size, source, estimate, leverage flag, explained_by)."""
    g = h20.generate(seed)
    ds = from_array(g["values"], g["names"], instance_labels=g["labels"])
    est = IdealParentSearch(hidden="auto", max_hidden=0, regulators=g["regulators"], random_state=seed)
    c0 = time.process_time()
    est.fit(ds)
    hs = est.hidden_search_
    par = hs.em.params()
    idx = [hs.names.index(m) for m in sorted(g["module"])]
    common = Counter(hs.names[p] for j in idx for p in np.flatnonzero(par.coef[:, j])).most_common(6)
    print(f"seed {seed} (M {len(g['labels'])}, {len(set(g['donor'].tolist()))} donors): {module_residuals(hs, g)}; "
          f"their parents {common}; R*'s TF targets {sorted(g['module_tfs'])}", flush=True)  # fmt: skip
    for i, p in enumerate(hs.propose(n_proposals=n)):
        if len(set(p.names) & g["module"]) >= 3 or _r(p.profile, g["star"]) >= 0.5:
            print(f"  rank {i + 1}: {describe(p, g, hs)}", flush=True)
    print(f"  {time.process_time() - c0:.0f} s CPU", flush=True)


def probe(seed: int, try_best: bool) -> None:
    g = h20.generate(seed)
    rounds: list[int] = []
    cand, propose = HiddenSearch._auto_candidates, HiddenSearch.propose
    tries = trial_module.try_proposal

    def proposed(self, *args, **kwargs):
        self.probe_props = propose(self, *args, **kwargs)
        return self.probe_props

    def candidates(self, skipped):
        order = cand(self, skipped)
        props = self.probe_props
        rounds.append(len(self.hidden))
        print(f"  round {len(rounds)}: {len(self.hidden)} kept, {len(skipped)} set aside; "
              f"{len(props)} proposals, {len(order)} in the trying order", flush=True)  # fmt: skip
        keys = [q.key for q in order]
        if len(rounds) == 1:
            print(f"    {module_residuals(self, g)}", flush=True)
        for p in sorted(props, key=lambda q: -_r(q.profile, g["star"])):
            place = keys.index(p.key) + 1 if p.key in keys else "-"
            tried = " (tried before)" if p.key in skipped else ""
            print(f"    #{place!s:2s} {describe(p, g, self)}{tried}", flush=True)
        if try_best and len(rounds) == 1 and props:
            best = max(props, key=lambda q: _r(q.profile, g["star"]))
            c0 = time.process_time()
            t = tries(self.copy(), best, self.observed_bic())
            prof = t.em.mean[:, t.em.names.index(t.name)]
            kids = [t.em.names[c] for p, c in t.em.edges if t.em.names[p] == t.name]
            before = self.observed_bic()
            print(f"    TRY-BEST ({len(best.names)} genes): score {t.score:.1f} vs before {before:.1f} "
                  f"and without H {t.alternative_score:.1f}: {t.score - max(before, t.alternative_score):+.1f}; "
                  f"|r(H,R*)| {_r(prof, g['star']):.2f}, {len(kids)} kids, module {len(set(kids) & g['module'])}, "
                  f"tfs {len(set(kids) & g['module_tfs'])}, {time.process_time() - c0:.0f} s CPU",
                  flush=True)  # fmt: skip
        return order

    def traced(search, proposal, best, callback=None):
        t = tries(search, proposal, best, callback)
        prof = t.em.mean[:, t.em.names.index(t.name)]
        kids = [t.em.names[c] for p, c in t.em.edges if t.em.names[p] == t.name]
        lev = profile_leverage(prof, g["labels"])
        gain = t.score - max(best, t.alternative_score)
        print(f"    TRIED {len(proposal.names)} genes ({proposal.source}): {gain:+.1f} "
              f"vs the best without it; |r(H,R*)| {_r(prof, g['star']):.2f}, {len(kids)} kids, "
              f"module {len(set(kids) & g['module'])}, tfs {len(set(kids) & g['module_tfs'])}; "
              f"leverage {lev.leverage:.2f}{' FLAG ' + ','.join(lev.instances) if lev.flagged else ''}",
              flush=True)  # fmt: skip
        return t

    HiddenSearch._auto_candidates, HiddenSearch.propose, trial_module.try_proposal = candidates, proposed, traced
    try:
        est, wall, cpu = fit_auto({**g, "removed": g["star"][:, None]}, f"h20m-{seed}", seed)
    finally:
        HiddenSearch._auto_candidates, HiddenSearch.propose, trial_module.try_proposal = cand, propose, tries
    hs = est.hidden_search_
    kept = [f"{h.name} {len(h.children)} kids r*={_r(hs.hidden_profile(h.name), g['star']):.2f} "
            f"module {len(set(h.children) & g['module'])}" for h in hs.hidden]  # fmt: skip
    stop = hs.considered.stop
    print(f"seed {seed}: M {len(g['labels'])} cols {len(g['names'])} module {len(g['module'])} "
          f"tfs {sorted(g['module_tfs'])}; kept {kept or 'nothing'}; stop {getattr(stop, 'reason', stop)}; "
          f"{cpu:.0f} s CPU", flush=True)  # fmt: skip
    for line in est.hidden_log_:
        print(f"  log: {line[:220]}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="2055")
    ap.add_argument("--try-best", action="store_true")
    ap.add_argument("--first-round", action="store_true", help="the network without H and 40 proposals only")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--null", action="store_true", help="--bench: h20m-null")
    ap.add_argument("--pays-without", choices=["on", "off"], default=None)
    ap.add_argument("--run", nargs=argparse.REMAINDER, help="SCRIPT ARGS...: another benchmark's main, rule set")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    if args.pays_without is not None:
        few.PAYS_WITHOUT = args.pays_without == "on"
    print(f"# study_h20m_misses seeds {args.seeds}{' --bench' if args.bench else ''}{' null' if args.null else ''} "
          f"PAYS_WITHOUT {few.PAYS_WITHOUT}, load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    if not args.bench:
        for seed in seed_range(args.seeds):
            (first_round if args.first_round else lambda s: probe(s, args.try_best))(seed)
        return
    reading = few.few_instances

    def said(model, before, name, **kw):
        out = reading(model, before, name, **kw)
        if out.flagged:
            prof = model.mean[:, model.names.index(name)]
            print(f"  flagged kept {name}: rows {out.flagged} leverage {out.leverage:.2f} gain without "
                  f"{out.gain_without:+.1f} -> {'dropped' if out.rests else 'kept'}"
                  f"{f'; |r(H,R*)| {_r(prof, star[0]):.2f}' if len(star[0]) == len(prof) else ''}",
                  flush=True)  # fmt: skip
        return out

    few.few_instances, star, tallies = said, [np.zeros(1)], []
    if args.run:  # another generator's benchmark (no R*: |r(H,R*)| is not meaningful there)
        __import__(Path(args.run[0]).stem).main(args.run[1:])
        return
    for seed in seed_range(args.seeds):
        g = h20.generate(seed, args.null)
        star[0] = g["star"]
        line, t = h20.run_seed(g, f"h20m{'-null' if args.null else ''}-{seed}", seed)
        tallies.append(t)
        print(line, flush=True)
    print(h20.summary("h20m-null" if args.null else "h20m", tallies), flush=True)


if __name__ == "__main__":
    main()
