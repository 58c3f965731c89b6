"""What do the false hidden variables of the genome nulls track? Pooled hub activity (#22 item 5,
session 17).

``--dump DIR``: ``--hidden auto --max-hidden 3`` with the generator's regulator list
(``genome_auto.fit_auto``) on each seed, and a pickle per seed with what the read needs: the
table, the listed regulators, the planted profiles (``study_activity_flag.planted``), the fitted
coefficients (sparse), the hidden variables' posterior means, and per kept H its children,
parents, ``parents_r2``, realized gain and ``activity``.

``--table T.csv --regulators R.txt --dump DIR``: the same on a real table (the files
``bench_regulators_real.py`` writes). ``--veto``: the keep rule measured (:func:`veto_pooled`: a
kept H the report reads as pooled activity is not kept), never the engine's default.

``--read DIR``: one line per kept H: children, realized gain and gain per child, its listed
parents with ``parents_r2``, |r| with the planted profiles, the one-channel test
(:func:`one_channel`), the report's reading (``engine/hidden/pooled.py``: its R^2, ``parents_r2``
since session 19 (a least-squares R^2 of the profile before), H's standardized weights, ``POOLED``
when flagged, ``POOLED-1`` for the one-parent variant),
the children's shared residual beyond their parents (:func:`own_share`) and, for the
``bench_regulators_genome`` kinds, how many children have each parent as a true parent
(:func:`true_targets`).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_pooled_activity.py --gen null --seeds 0-9 --dump /tmp/pool
      python benchmarks/study_pooled_activity.py --read /tmp/pool
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import time
from pathlib import Path

import bench_regulators_genome as genome
import bench_regulators_genome_cascade as cascade
import bench_regulators_genome_h16 as h16
import bench_regulators_genome_hubs as hubs
import numpy as np
import scipy.sparse as sp
from genome_auto import fit_auto, seed_range
from scipy.stats import chi2
from scipy.stats import f as f_dist
from study_activity_flag import GENS, planted

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.hidden.pooled import STRONG_PER_CHILD, pooled_activity  # noqa: E402
from engine.io import load_table  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402

GENS = {
    **GENS,
    "cascade": lambda s: cascade.generate(s, False),
    "cascade-null": lambda s: cascade.generate(s, True),
    "hubs": lambda s: hubs.generate(s, False),
    "hubs-null": lambda s: hubs.generate(s, True),
    "h16m": lambda s: h16.generate(s, False),
    "h16m-null": lambda s: h16.generate(s, True),
    "module-count": lambda s: genome.generate(s, "count"),
}


def veto_pooled() -> None:
    """Measure (never the default) a keep rule: an H that :mod:`engine.hidden.pooled` reads as its
    parents' pooled activity is not kept, as a profile resting on one or two instances is not
    (``HiddenSearch.auto``): the network and hidden variables before the step come back and auto
    tries the next proposal. Done by wrapping ``auto_step`` where ``search.py`` calls it."""
    import engine.hidden.search as search_mod
    from engine.hidden.trial import auto_step

    def step(search, skipped, best, say, score):
        snapshot = (search.em, list(search.hidden))
        kept, new_best = auto_step(search, skipped, best, say, score)
        if kept:
            rep = {r.name: r for r in search.report()}[search.hidden[-1].name]
            pool = rep.extra.get("pooled") or {}
            if pool.get("flagged"):
                say(f"{rep.name} reads as pooled activity ({pool['gain_per_child']:.1f} nats a child): not kept")
                print(f"#   veto {rep.name}: {len(rep.children)} children, {rep.realized_gain:+.1f}", flush=True)
                search.em, search.hidden = snapshot
                search._refresh_children()
                return False, best
        return kept, new_best

    search_mod.auto_step = step


def dump(gen: str, seed: int, out: Path, table: str | None = None, regulators: str | None = None) -> None:
    """Run and pickle one seed of ``gen`` (or the real ``table`` with its ``regulators`` file)."""
    if table:
        ds = load_table(table)
        regs = [x.strip() for x in Path(regulators).read_text().splitlines() if x.strip()]
        est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=regs, random_state=seed)
        c0 = time.process_time()
        est.fit(ds)
        cpu = time.process_time() - c0
        g = {"regulators": regs, "labels": list(ds.instance_labels or range(ds.values.shape[0]))}
        gen = Path(table).stem
    else:
        g = GENS[gen](seed)
        est, _, cpu = fit_auto({**g, "removed": None}, f"{gen}-{seed}", seed)
    hs = est.hidden_search_
    par = hs.em.params()
    reports = {r.name: r for r in hs.report()}
    prof_true, true_names = planted(g)
    n_obs = hs.n_observed
    hid = []
    for h in hs.hidden:
        rep = reports[h.name]
        hid.append(
            {
                "name": h.name,
                "index": hs.names.index(h.name),
                "children": sorted(h.children),
                "parents": list(rep.parents),
                "parents_r2": rep.parents_r2,
                "gain": h.realized_gain,
                "activity": rep.extra.get("activity"),
                "pooled": rep.extra.get("pooled"),
            }
        )
    rec = {
        "gen": gen,
        "seed": seed,
        "cpu": cpu,
        "names": list(hs.names),
        "n_obs": n_obs,
        "regulators": [r for r in g["regulators"] if r in hs.names],
        "values": np.asarray(hs.em.mean[:, :n_obs], dtype=np.float32),
        "hidden_mean": np.asarray(hs.em.mean[:, n_obs:], dtype=float),
        "coef": sp.csr_matrix(par.coef),
        "variance": np.asarray(par.variance, dtype=float),
        "planted": prof_true,
        "planted_names": true_names,
        "hidden": hid,
    }
    out.mkdir(parents=True, exist_ok=True)
    with open(out / f"{gen}-{seed}.pkl", "wb") as f:
        pickle.dump(rec, f)
    print(f"{gen} {seed}: kept {len(hid)} ({cpu:.0f} s CPU, load {os.getloadavg()[0]:.1f})", flush=True)


def one_channel(coef: np.ndarray, values: np.ndarray, n_obs: int, hidden: int) -> tuple[float, float] | None:
    """The one-channel (rank-one) test of a hidden variable H with k >= 2 observed parents X: do its
    children respond to X only through H? A single latent variable makes every child's regression
    coefficients on X proportional to H's (``a_i = lambda_i w``; the vanishing-tetrad constraint,
    Silva et al. 2006); hub regulators acting on each child with weights of its own do not. Per
    child (its other parents O free): the extra sum of squares of ``T ~ 1 + O + w'X`` over
    ``T ~ 1 + O + X`` (F test, p per child, Fisher's combination over the children), and the share
    of the children's response to X off the channel, each sum of squares corrected for noise:
    ``sum(RSS_R - RSS_U - d s^2) / sum(RSS_0 - RSS_U - k s^2)``. Returns (share, p) or None."""
    m = values.shape[0]
    ups = np.flatnonzero(coef[:n_obs, hidden])
    kids = np.flatnonzero(coef[hidden, :n_obs])
    if ups.size < 2 or kids.size == 0:
        return None
    x = values[:, ups]
    channel = x @ coef[ups, hidden]
    extra, free, logp = 0.0, 0.0, []
    for c in kids:
        o = np.flatnonzero(coef[:, c])
        o = o[(o != hidden) & ~np.isin(o, ups)]
        base = np.column_stack([np.ones(m), values[:, o]])
        fits = {}
        for key, d in (("u", np.column_stack([base, x])), ("r", np.column_stack([base, channel])), ("0", base)):
            beta, _, rank, _ = np.linalg.lstsq(d, values[:, c], rcond=None)
            res = values[:, c] - d @ beta
            fits[key] = (float(res @ res), int(rank))
        (rss_u, rank_u), (rss_r, rank_r), (rss_0, rank_0) = fits["u"], fits["r"], fits["0"]
        df_u, d1 = m - rank_u, rank_u - rank_r
        if df_u < 3 or d1 < 1 or rss_u <= 0:
            continue
        s2 = rss_u / df_u
        extra += rss_r - rss_u - d1 * s2
        free += rss_0 - rss_u - (rank_u - rank_0) * s2
        logp.append(math.log(max(float(f_dist.sf(max(rss_r - rss_u, 0.0) / d1 / s2, d1, df_u)), 1e-300)))
    if not logp:
        return None
    return (float(np.clip(extra / free, 0, 1)) if free > 0 else 0.0), float(chi2.sf(-2 * sum(logp), 2 * len(logp)))


def own_share(coef: np.ndarray, full: np.ndarray, n_obs: int, hi: int) -> tuple[float, float]:
    """H's own variation in its children: each child's residual after ``1 + its other parents + H's
    observed parents`` (H's parents free per child), sign-aligned by H's coefficient; returns the
    mean pairwise correlation of those residuals and the correlation of the two halves' means
    (children alternately by |coefficient|)."""
    kids = np.flatnonzero(coef[hi, :n_obs])
    ups = np.flatnonzero(coef[:n_obs, hi])
    m = full.shape[0]
    res = []
    for c in kids:
        o = np.flatnonzero(coef[:, c])
        o = o[(o != hi) & ~np.isin(o, ups)]
        d = np.column_stack([np.ones(m), full[:, o], full[:, ups]])
        beta, *_ = np.linalg.lstsq(d, full[:, c], rcond=None)
        r = full[:, c] - d @ beta
        res.append(np.sign(coef[hi, c]) * r / (r.std() or 1.0))
    if len(res) < 4:
        return float("nan"), float("nan")
    r = np.array(res).T
    corr = np.corrcoef(r.T)
    iu = np.triu_indices(len(res), 1)
    order = np.argsort(-np.abs(coef[hi, kids]))
    half = float(np.corrcoef(r[:, order[0::2]].mean(axis=1), r[:, order[1::2]].mean(axis=1))[0, 1])
    return float(corr[iu].mean()), half


def true_targets(gen: str, seed: int, children: list[str], parents: list[str]) -> str:
    """For ``bench_regulators_genome``'s kinds: how many of H's children have each of H's parents
    as a true parent (the generator's draws replayed), e.g. ``TF035 18/20``."""
    kind = {"null": "null", "module": "module", "module-count": "count"}.get(gen)
    if kind is None or not parents:
        return ""
    par = genome_parents(seed, kind)
    kids = [c for c in children if c.startswith("g")]
    return " ".join(f"{p} {sum(p in par.get(int(c[1:]), ()) for c in kids)}/{len(children)}" for p in parents)


def genome_parents(seed: int, kind: str, n_genes: int = 2500, m: int = 27, n_tf: int = 116) -> dict:
    """Each non-TF gene's true listed-TF parents in ``bench_regulators_genome._generate(seed, kind)``:
    the same random draws in the same order (checked against the generated values in the study's
    log: the children's free coefficients follow these parents)."""
    rng = np.random.default_rng(seed)
    n_mod = 30 if kind == "count" else 40
    rng.normal(size=(m, 6))
    for j in range(n_tf):
        rng.normal(0, 0.5, 6)
        rng.normal(size=m)
        if j > 5 and rng.random() < 1 / 3:
            rng.uniform(0.5, 1.0)
            rng.choice([-1, 1])
            rng.integers(0, j)
    n_other = n_genes - (n_tf - 1)
    module = set(rng.permutation(n_other)[:n_mod].tolist())
    hub = rng.pareto(1.5, n_tf - 1) + 1.0
    hub /= hub.sum()
    out = {}
    for g in range(n_other):
        k = 0 if rng.random() < 0.08 else rng.integers(1, 4)
        if g in module:
            k = rng.integers(0, 2)
        ps = rng.choice(np.arange(1, n_tf), size=k, replace=False, p=hub)
        out[g] = {f"TF{p:03d}" for p in ps}
        for _ in ps:
            rng.uniform(0.3, 1.0)
            rng.choice([-1, 1])
        if kind != "null" and rng.random() < 0.35:
            rng.uniform(0.3, 0.8)
            rng.choice([-1, 1])
            rng.integers(6)
    return out


def read_one(rec: dict) -> list[str]:
    names, n_obs = rec["names"], rec["n_obs"]
    coef = rec["coef"].toarray()
    vals = rec["values"].astype(float)
    full = np.column_stack([vals, rec["hidden_mean"]])
    regs = [names.index(r) for r in rec["regulators"] if r in names]
    rows = [f"{rec['gen']} {rec['seed']}: kept {len(rec['hidden'])} ({rec['cpu']:.0f} s CPU)"]
    for h in rec["hidden"]:
        hi = h["index"]
        prof = full[:, hi]
        kids = np.flatnonzero(coef[hi, :n_obs])
        rs = [abs(float(np.corrcoef(prof, c)[0, 1])) if np.std(c) > 0 else 0.0 for c in rec["planted"].T]
        j = int(np.argmax(rs)) if rs else -1
        truth = f"{rec['planted_names'][j]} {rs[j]:.2f}" if rs else "-"
        oc = one_channel(coef, full, n_obs, hi)
        one = "-" if oc is None else f"off {oc[0]:.2f} p {oc[1]:.2f}"
        pm = pooled_activity(coef, full, names, n_obs, hi, h["gain"], regs, parents_r2=h["parents_r2"])
        one += (
            ""
            if pm is None
            else (
                f" | pooled R2 {pm.r2:.2f} "
                + " ".join(f"{w:+.2f} {r}" for w, r in zip(pm.weights, pm.regulators, strict=True))
                + (" POOLED" if pm.flagged else "")
                # the one-parent variant (measured, not adopted): any listed parent, < 3 nats a child
                + (" POOLED-1" if not pm.flagged and pm.gain_per_child < STRONG_PER_CHILD else "")
            )
        )
        pair, half = own_share(coef, full, n_obs, hi)
        tt = true_targets(rec["gen"], rec["seed"], h["children"], h["parents"])
        rows.append(
            f"  {h['name']} {kids.size} kids {h['gain']:+.1f} ({h['gain'] / max(kids.size, 1):.1f}/child) "
            f"<- {','.join(h['parents']) or '-'} (parents_r2 {h['parents_r2']:.2f}) | {truth} | one channel {one} "
            f"| own pair r {pair:+.2f} halves {half:+.2f}" + (f" | true targets {tt}" if tt else "")
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", choices=sorted(GENS))
    ap.add_argument("--seeds")
    ap.add_argument("--dump")
    ap.add_argument("--read")
    ap.add_argument("--table")
    ap.add_argument("--regulators")
    ap.add_argument("--veto", action="store_true", help="measure the keep rule (veto_pooled)")
    args = ap.parse_args(argv)
    if args.veto:
        veto_pooled()
    if args.dump and args.table:
        dump("", 0, Path(args.dump), args.table, args.regulators)
        return
    if args.dump:
        for seed in seed_range(args.seeds):
            dump(args.gen, seed, Path(args.dump))
        return
    for p in sorted(Path(args.read).glob("*.pkl")):
        with open(p, "rb") as f:
            rec = pickle.load(f)
        print("\n".join(read_one(rec)), flush=True)


if __name__ == "__main__":
    main()
