"""A genome-scale hold-out for #22: a co-regulated removed regulator and its partner, in an RNA-seq table.

The eighteenth session's genome hold-out ``h18m`` (seeds 1850-1859), written and committed before
anything of that session was tuned and run only once, by the lead, on its final code; seeds 1890
and up are free for smoke tests and timing. What it stresses that the seen genome generators do not:

* **R* is itself regulated, by two listed TFs.** Its activity is ``z(sqrt(q) z(a1 T1 + a2 T2) +
  sqrt(1 - q) own)``, q ~ U(0.4, 0.7) (a1, a2 = +-U(0.5, 1.0), ``own`` its own part, independent):
  its level is partly predictable from two measured TFs (the ``H <- TF`` case with two parents and a
  parents R^2 of about 0.4-0.7 (plus the fit's chance share over 12-40 replicate groups); ``relay``
  and ``h17m`` had one TF at R^2 0.16-0.49).
* **Combinatorial control of R*'s targets.** Every module gene also has 1-3 listed TF parents; R*
  explains a share U(0.3, 0.6) of its log-expression (before the measurement), its listed TFs about
  half of the rest. (In the seen generators most module genes answered to R* alone.)
* **A second removed regulator whose module overlaps R*'s.** R2 (also removed from the table and
  the list; drawn apart from R*, both partly follow the condition factors, and a listed TF may follow
  R2 as TFs follow earlier TFs) drives 15-25 genes, 5-10 of them also R*'s (those explain U(0.3, 0.45)
  by R* and U(0.25, 0.35) by R2); R2's own genes U(0.35, 0.6) by R2. Two hidden regulators sharing
  children, at genome scale.
* **Counts with library-size differences.** The table is RNA-seq: per condition a library of
  1.5-12 M reads (log-uniform, an 8-fold range), each gene's expected share exp(y) / sum exp(y) of
  it (y the gene's natural-log expression with a log-normal technical factor, sd 0.1), Poisson
  counts, then log2(CPM + 1) as a lab normalizes them. Faint genes in shallow libraries are noisy
  and floored; the depth itself is not a regulator (a kept H tracking log depth at |r| >= 0.9 is
  marked ``DEPTH`` and counted false).
* **Replicates.** Conditions come in groups of 1-3 replicates (``s07__glc_NaCl__2``, PRECISE-like):
  the regulators' states are per group plus a small jitter (sd 0.2), the genes' noise per condition.

The table: 2000-2500 columns (drawn; the listed TFs and the other genes), M drawn in 24..60 conditions:

* 3-6 unlisted condition factors; 100-130 listed, measured TFs (``pulse``'s TF activities: 0.5 x a
  mix of the factors + noise, a third also on an earlier TF); R* and R2 removed from table and list.
* R*'s module: 30-50 genes, 70 % induced; R2's as above, 70 % induced.
* One on/off program D (a stress): on in 2-4 conditions (one or two replicate groups) at strength
  U(0.7, 1.0), shifting its 20-40 genes (outside both modules) by U(1.5, 3.0) x the gene's sd
  without it, 35 % down.
* Every other gene: 1-3 listed TF parents chosen hub-like (Pareto weights), 10 % none, weights
  +-U(0.3, 1.0); 25 % also one unlisted factor at +-U(0.3, 0.7); noise sd 0.8 exp N(0, 0.3).
* Measurement as above, each gene at log level N(0, 1.2) + amplitude U(0.4, 1.2) x its signal, the
  TFs' mRNA with measurement noise 0.15; B. subtilis locus tags as names (``BSU14080``).

``h18m-null`` (the same seeds): the same conditions, libraries, TFs, the module genes' own TF terms
and noise, without R*'s and R2's effects, D and the unlisted factors on genes. Any kept H is false.

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed, ``h17m``'s columns: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (and within 60 s
CPU), its children against the module (overlap, hypergeometric p, enriched at p < 1e-3), how many of
T1, T2 are its parents and its ``parents_r2``; **R2 recovered** = a kept H with |r(H, R2)| >= 0.9 (its
module enriched?); **D recovered** = |r(H, D)| >= 0.9 (and whether a flagged proposal names D's
conditions); per kept H its realized gain, leverage flag (``*`` on D's conditions), ``DEPTH`` and
``FALSE`` (below |r| 0.5 with R*, R2, D and every factor and none of the three gene sets enriched;
on the null, every kept H), ``SHIFT mean|pc1`` when the report reads H as a global shift of the table
(``engine/hidden/global_shift.py``, session 20: named, still counted); CPU s.

Run once, on the final code (smoke seed 1898, 2302 x 39, at load 16-25: 157 s of CPU, 190 s on its
null, peak RSS 0.7 GB; budget about 1 h of CPU for the 20 tables at such a load, ``--seeds 1850-1854``
and ``1855-1859`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h18.py --gen h18m --seeds 1850-1859
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h18.py --gen h18m-null --seeds 1850-1859
"""

from __future__ import annotations

import numpy as np
from bench_regulators_genome_pulse import _named, tf_activities
from bench_regulators_genome_pulse import summary as pulse_summary
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, kept_of, tally_main, top_proposals

CPU_LIMIT = 60.0
COLS = (2000, 2500)
MEDIA = ("glc", "gly", "ace", "LB", "succ", "fru", "xyl", "mal", "cit", "gal")
TREATMENTS = ("ctrl", "NaCl", "acid", "H2O2", "cold", "anaer", "Fe", "stat", "EtOH")
REPLICATES, P_REPLICATES, JITTER = (1, 2, 3), (0.3, 0.5, 0.2), 0.2
STAR_R2, STAR_W = (0.4, 0.7), (0.5, 1.0)
MODULE, SHARE = (30, 50), (0.3, 0.6)
SECOND, OVERLAP, SECOND_SHARE = (15, 25), (5, 10), (0.35, 0.6)
BOTH_SHARES = ((0.3, 0.45), (0.25, 0.35))  # R*'s and R2's shares of an overlap gene
LIBRARY, TECH_SD = (1.5e6, 12e6), 0.1


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _names(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` distinct B. subtilis locus tags (``BSU14080``)."""
    return [f"BSU{k * 10:05d}" for k in rng.choice(4400, size=n, replace=False)]


def _conditions(rng: np.random.Generator, m: int) -> tuple[list[str], np.ndarray]:
    """The labels (sorted, as a compendium's) and each condition's replicate group."""
    combos = [(a, b) for a in MEDIA for b in TREATMENTS]
    order = rng.permutation(len(combos))
    sizes: list[int] = []
    while sum(sizes) < m:
        sizes.append(min(int(rng.choice(REPLICATES, p=P_REPLICATES)), m - sum(sizes)))
    rows = []
    for grp, size in enumerate(sizes):
        med, trt = combos[order[grp]]
        study = int(rng.integers(1, 13))
        rows += [(f"s{study:02d}__{med}_{trt}__{r + 1}", grp) for r in range(size)]
    rows.sort()
    return [r[0] for r in rows], np.array([r[1] for r in rows])


def _program(rng: np.random.Generator, group: np.ndarray) -> np.ndarray:
    """(M, 1) D: on in 2-4 conditions (one or two whole replicate groups) at U(0.7, 1.0)."""
    sizes = np.bincount(group)
    for _ in range(1000):
        pick = rng.choice(len(sizes), size=int(rng.integers(1, 3)), replace=False)
        if 2 <= sizes[pick].sum() <= 4:
            break
    on = np.isin(group, pick)
    drv = np.zeros((len(group), 1))
    drv[on, 0] = rng.uniform(0.7, 1.0, size=int(on.sum()))
    return drv


def _mix(rng: np.random.Generator, resp: list[np.ndarray], shares: list[float], other: np.ndarray) -> np.ndarray:
    """A gene's standardized signal: sum_k sqrt(share_k) resp_k + sqrt(1 - sum shares) z(other)."""
    rest = 1.0 - sum(shares)
    out = np.sqrt(rest) * _z(other)
    for r, s in zip(resp, shares, strict=True):
        out = out + np.sqrt(s) * r * (1.0 if rng.random() < 0.7 else -1.0)
    return out


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (M x columns, log2(CPM + 1)), ``names``, ``labels``, ``group`` (replicate
    group per condition), ``regulators``, ``star`` (R*'s activity), ``star_name``, ``star_parents``
    (T1, T2), ``star_r2`` (R*'s variance they explain, least squares), ``second`` (R2's activity),
    ``module``, ``module2``, ``overlap``, ``drivers`` ((M, 1): D), ``targets`` ([D's genes]), ``on``
    (D's conditions; none on the null), ``depth`` (log library size), ``factors``, ``null``.
    ``n_cols``: the table width (drawn in 2000..2500; smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 18])
    m, n_tf = int(rng.integers(24, 61)), int(rng.integers(100, 131))
    n_cols = int(rng.integers(COLS[0], COLS[1] + 1)) if n_cols is None else n_cols
    names = _names(np.random.default_rng([seed, 18, 1]), n_cols + 2)
    star_name, second_name, tf_names, gene_names = names[0], names[1], names[2 : n_tf + 2], names[n_tf + 2 :]
    labels, group = _conditions(rng, m)
    n_grp, k = int(group.max()) + 1, int(rng.integers(3, 7))
    fac_g = _z(rng.normal(size=(n_grp, k)))
    tf_g = tf_activities(rng, fac_g, n_tf + 2)  # columns 0, 1: own parts of R* and R2
    t1, t2 = (int(t) for t in rng.choice(np.arange(2, n_tf + 2), size=2, replace=False))
    q = rng.uniform(*STAR_R2)
    a1, a2 = rng.uniform(*STAR_W, size=2) * rng.choice([-1.0, 1.0], size=2)
    own = _z(rng.normal(size=n_grp))  # R*'s own part, apart from the factors, so T1, T2 explain about q
    tf_g[:, 0] = _z(np.sqrt(q) * _z(a1 * tf_g[:, t1] + a2 * tf_g[:, t2]) + np.sqrt(1.0 - q) * own)
    tf = _z(tf_g[group] + JITTER * rng.normal(size=(m, n_tf + 2)))
    fac = _z(fac_g[group] + JITTER * rng.normal(size=(m, k)))
    star, second = tf[:, 0], tf[:, 1]
    drv = _program(rng, group)
    n_other = n_cols - n_tf
    genes = rng.permutation(n_other)
    n_mod, n_ov = int(rng.integers(*MODULE, endpoint=True)), int(rng.integers(*OVERLAP, endpoint=True))
    n_2 = int(rng.integers(*SECOND, endpoint=True)) - n_ov  # R2's own genes
    n_tg = int(rng.integers(20, 41))
    module = genes[:n_mod]
    overlap = module[:n_ov]
    module2 = np.concatenate([overlap, genes[n_mod : n_mod + n_2]])
    targets = genes[n_mod + n_2 : n_mod + n_2 + n_tg]
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()
    listed, in_1, in_2 = np.arange(2, n_tf + 2), set(module.tolist()), set(module2.tolist())
    sig = np.empty((m, n_other))
    for g in range(n_other):
        n_pa = (
            int(rng.integers(1, 4))
            if g in in_1 or g in in_2
            else (0 if rng.random() < 0.1 else int(rng.integers(1, 4)))
        )
        x = sum(
            (rng.uniform(0.3, 1.0) * rng.choice([-1, 1]) * tf[:, p] for p in rng.choice(listed, n_pa, False, hub)),
            np.zeros(m),
        )
        if g in in_1 or g in in_2:  # listed TFs about half of the rest, own noise the other half
            other = _z(x) + rng.normal(size=m) if n_pa else rng.normal(size=m)
            if g in in_1 and g in in_2:
                shares = [rng.uniform(*BOTH_SHARES[0]), rng.uniform(*BOTH_SHARES[1])]
                resp = [star, second]
            elif g in in_1:
                shares, resp = [rng.uniform(*SHARE)], [star]
            else:
                shares, resp = [rng.uniform(*SECOND_SHARE)], [second]
            full = _mix(rng, resp, shares, other)
            sig[:, g] = np.sqrt(1.0 - sum(shares)) * _z(other) if null else full
            continue
        if rng.random() < 0.25:
            term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(k)]
            x = x + (0.0 if null else term)
        sig[:, g] = x + 0.8 * np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
    down = rng.random(n_tg) < 0.35
    shift = rng.uniform(1.5, 3.0, size=n_tg) * np.where(down, -1.0, 1.0) * sig[:, targets].std(axis=0)
    if not null:
        sig[:, targets] += drv * shift
    tf_obs = tf[:, 2:] + 0.15 * rng.normal(size=(m, n_tf))
    mu, amp = rng.normal(0.0, 1.2, size=n_cols), rng.uniform(0.4, 1.2, size=n_cols)
    crng = np.random.default_rng([seed, 18, 3])  # the measurement: the same draws with and without
    log_lib = crng.uniform(*np.log(LIBRARY), size=m)
    y = mu + amp * np.column_stack([tf_obs, sig]) + TECH_SD * crng.normal(size=(m, n_cols))
    share = np.exp(y - y.max(axis=1, keepdims=True))
    share /= share.sum(axis=1, keepdims=True)
    counts = crng.poisson(np.exp(log_lib)[:, None] * share)
    values = np.log2(counts / counts.sum(axis=1, keepdims=True) * 1e6 + 1.0)
    regulators = list(tf_names)
    np.random.default_rng([seed, 18, 2]).shuffle(regulators)
    design = np.column_stack([np.ones(m), tf[:, [t1, t2]]])
    star_r2 = 1.0 - np.var(star - design @ np.linalg.lstsq(design, star, rcond=None)[0])
    return {
        "values": values,
        "names": tf_names + gene_names,
        "labels": labels,
        "group": group,
        "regulators": regulators,
        "star": star,
        "star_name": star_name,
        "star_parents": (tf_names[t1 - 2], tf_names[t2 - 2]),
        "star_r2": float(star_r2),
        "second": second,
        "second_name": second_name,
        "module": {gene_names[g] for g in module},
        "module2": {gene_names[g] for g in module2},
        "overlap": {gene_names[g] for g in overlap},
        "drivers": drv,
        "targets": [{gene_names[g] for g in targets}],
        "on": [] if null else [labels[i] for i in np.flatnonzero(drv[:, 0])],
        "depth": log_lib,
        "factors": fac,
        "null": null,
    }


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``bench_regulators_genome_pulse.summary``'s keys,
    ``enriched`` (R*'s H has its module enriched among its children), ``relayed`` (how many of T1, T2
    are that H's parents), ``r2`` (its ``parents_r2``), ``second`` (R2 recovered), ``second_enriched``
    and ``depth`` (kept Hs on the library depth))."""
    profiles = np.column_stack([g["star"], g["second"], g["drivers"], g["depth"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    kept = kept_of(est.hidden_search_, {**g, "removed": profiles})
    props = top_proposals(est)
    on, universe, tg = set(g["on"]), len(g["names"]), g["targets"][0]
    rows, t = [], {"kept": len(kept), "false": 0, "listed": 0, "cpu": cpu, "enriched": False, "relayed": 0}
    t |= {"r2": 0.0, "second": False, "second_enriched": False, "depth": 0}
    for h in kept:
        overlap, p = _overlap(h.children, g["module"], universe)
        overlap2, p2 = _overlap(h.children, g["module2"], universe)
        planted = p < ENRICHED or p2 < ENRICHED or _enriched(h.children, tg, universe)
        is_depth = h.r[3] >= TRACK
        false = g["null"] or is_depth or (max(h.r[:3] + h.r[4:]) < NOTHING and not planted)
        t["false"] += false
        t["depth"] += is_depth
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} r2={h.r[1]:.2f} rD={h.r[2]:.2f} rDepth={h.r[3]:.2f} "
            f"rF={max(h.r[4:]):.2f}{' DEPTH' if is_depth else ''}{' FALSE' if false else ''}"
            f"{f' SHIFT {h.shift}' if h.shift else ''} module {overlap} "
            f"(p {p:.1e}) module2 {overlap2} (p {p2:.1e}) in-D={len(h.children & tg)} Δscore {h.gain:+.1f} "
            f"<- {','.join(h.parents) or '-'} (R2 {h.parents_r2:.2f}, leverage {h.leverage:.2f}"
            f"{f' FLAG {flag}' if flag else ''})"
        )
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    t["best_second"] = max((h.r[1] for h in kept), default=0.0)
    t["best_drivers"] = [max((h.r[2] for h in kept), default=0.0)]
    t["star"] = not g["null"] and t["best_star"] >= TRACK
    t["fast"] = t["star"] and cpu < CPU_LIMIT
    t["second"] = not g["null"] and t["best_second"] >= TRACK
    t["drivers"] = [not g["null"] and t["best_drivers"][0] >= TRACK]
    t["named"] = [""] if g["null"] else _named(g, props, est.hidden_search_)
    if t["star"]:
        best = max(kept, key=lambda h: h.r[0])
        t["enriched"] = _enriched(best.children, g["module"], universe)
        t["relayed"] = sum(x in best.parents for x in g["star_parents"])
        t["r2"] = best.parents_r2
    if t["second"]:
        t["second_enriched"] = _enriched(max(kept, key=lambda h: h.r[1]).children, g["module2"], universe)
    top = props[0] if props else None
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    top_text = "no proposal"
    if top is not None:
        cols = (g["star"], g["second"], g["drivers"][:, 0], g["depth"])
        r_top = [abs(float(np.corrcoef(top.profile, c)[0, 1])) for c in cols]
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in top.high_leverage)
        top_text = f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} r2={r_top[1]:.2f} rD={r_top[2]:.2f}"
        top_text += f" rDepth={r_top[3]:.2f}" + (f" FLAG {flag}" if flag else "")
    named = f" named {t['named'][0]}" if t["named"][0] else ""
    head = (
        ""
        if g["null"]
        else (
            f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} enriched {'yes' if t['enriched'] else 'no'} "
            f"<- {'+'.join(g['star_parents'])} {t['relayed']}/2 (R2 {g['star_r2']:.2f}, H's {t['r2']:.2f}) "
            f"R2({len(g['module2'])} genes, {len(g['overlap'])} shared) {'OK' if t['second'] else '--'} "
            f"{t['best_second']:.2f} D(on {len(on)}, {len(tg)} genes) {'OK' if t['drivers'][0] else '--'} "
            f"{t['best_drivers'][0]:.2f}{named} "
        )
    )
    line = (
        f"seed {seed} M {len(g['labels'])} groups {int(g['group'].max()) + 1} cols {len(g['names'])} "
        f"listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} false {t['false']} "
        f"flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line: ``bench_regulators_genome_pulse.summary``'s, the kept Hs on the library depth,
    and on ``h18m`` R2's recovery and how R*'s H took its module and its two regulators."""
    n = len(tallies)
    text = pulse_summary(name, tallies) + f"; kept Hs on the library depth {sum(t['depth'] for t in tallies)}"
    if name.endswith("-null"):
        return text
    return (
        f"{text}; R2 recovered (|r| >= {TRACK}) on {sum(t['second'] for t in tallies)}/{n} (its module enriched on "
        f"{sum(t['second_enriched'] for t in tallies)}); R*'s H with its module enriched (p < {ENRICHED:g}) on "
        f"{sum(t['enriched'] for t in tallies)}/{n}, with both T1, T2 as parents on "
        f"{sum(t['relayed'] == 2 for t in tallies)}/{n}, one on {sum(t['relayed'] == 1 for t in tallies)}/{n}"
    )


def main(argv: list[str] | None = None) -> None:
    tally_main("h18m", "1850-1859", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
