"""A genome-scale hold-out for #22: CRP removed from an E. coli microarray compendium (M3D/COLOMBOS-like).

The twenty-third session's genome hold-out ``h23m`` (seeds 2350-2359), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2390 and up are free for smoke tests of the sampling. Its own sampling code (names, carbon
sources and the series layout in ``ecoli_names.py``). The table a bacterial biologist downloads to
infer regulation is a **compendium**: hundreds of arrays pooled from many labs' experiment series
(M3D's E. coli build, COLOMBOS, DREAM5's E. coli table), log2 RMA values. No seen genome generator
(module, null, outlier, two, pulse, batch, relay, cascade, hubs, slots, stability, h16m-h22m) has its
structure: ``h19m`` was one lab's 20-80 conditions in 3-6 series; here M is 300-500:

* **Many experiment series.** An SHX series (stringent response, below), then series of 2-20 arrays
  (``GSE12345_gly_NaCl_r2``): 55 % condition series (carbon source x treatment, each condition in 1-3
  replicate arrays), 30 % **short time courses** (2-12 time points, ``GSE12345_glc_t030_r1``, the
  unlisted condition factors a random walk along the course, cAMP-CRP rising towards stationary
  phase), 15 % **knockout comparisons** (WT vs a deleted listed TF, ``GSE12345_dmalT_glc_r1``, 2-3
  replicates in 1-2 media; on half the seeds one of them is ``dcrp``, R*'s activity at its floor
  there). A deleted TF's activity is at its floor and its own probe reads background.
* **Lab and platform batch.** Per series, half the genes offset by N(0, s) log2 units, s U(0.15, 0.35)
  per seed; on half the seeds a second platform (a newer array) for 20-50 % of the series, every
  gene offset N(0, 0.4) on it.
* **Replicates.** Conditions carry the regulators' activities; replicate arrays of one condition
  share them (+ N(0, 0.25) each) and half of each gene's own variation.
* **R* = cAMP-CRP (``crp``, removed from the table and the list)**: its activity per condition is
  the carbon source's cAMP level (glucose lowest, glycerol, lactose, maltose highest), +0.8 along a
  time course's course, + N(0, 0.5); it drives a **150-250 gene module**: whole CRP-dependent operons
  with their real names (``lacZ lacY lacA``, ``malE malF malG``, ``galE galT galK galM``...; 62 operons,
  138 genes, drawn until 75-90 % of the module, so all of them on most seeds), the rest unnamed genes
  (CRP's uncharacterized targets, alone); R* a share U(0.35, 0.7) of each operon's signal, activated or
  repressed as RegulonDB has it (``cyaA``, ``ompA``, ``spf`` repressed; another operon repressed with
  probability 0.15); each named operon also follows **its specific regulator** (LacI, MalT, GalS,
  AraC... listed) at U(0.5, 1.0) and 0-1 other listed TF, its genes weaker down the operon (x 0.85
  per place); on 30 % of the operons with a regulator CRP acts only as far as that regulator
  lets it (R* x a sigmoid of the regulator: the AND of a class I/II promoter). **5-10 of the listed
  TFs CRP regulates** (``malT``, ``galS``, ``araC``, ``cytR``, ``fis``...) take a share U(0.2, 0.5)
  of their activity from R* (feed-forward loops onto the module), each with 5-15 targets of its own.
* **An on/off program D, the stringent response** (ppGpp, no TF): on in the SHX series' treated arrays
  (2-4 time points in duplicate) at U(0.7, 1.0), its 60-100 genes shifted by U(1.0, 2.5) log2 units
  (ribosomal-protein genes down, amino-acid biosynthesis up).
* **log2 RMA values**: ``log2(2^v + 2^bg) + N(0, s_g)``, v = mu + amplitude x signal + offsets (mu U(5.5,
  10.5), amplitude U(0.3, 0.9), the module's U(0.8, 1.8)), bg U(4, 5.5) per seed (RMA's floor:
  faint genes compress), probe noise s_g U(0.08, 0.25). Complete (no missing cells), as RMA gives.

The table: 2500-3200 columns (120-170 listed TFs, R*'s TF targets and the module operons' specific
regulators among them) x 300-500 arrays; other genes: 1-3 listed TF parents chosen hub-like, 10 %
none, weights +-U(0.3, 1.0), 25 % one unlisted factor at +-U(0.3, 0.7), own variation 0.8 exp N(0, 0.3).

``h23m-null`` (the same seeds): the same arrays, series, platforms, offsets, TFs, knockouts, noise and
draws, without R*'s part (the module operons follow their specific regulators and noise, R*'s TF
targets their own part), D off and no unlisted factor on genes. Any kept H is false (a series,
platform, knockout or one condition's replicates most of all).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound; the
table is larger than the issue's 2555 x 50), its children against the module (overlap, hypergeometric
p, enriched at p < 1e-3), R*'s listed TF targets among them (``tfs k/n``); **D recovered** at |r(H,
D)| >= 0.9. Per kept H that tracks neither R*, D nor an unlisted factor at |r| >= 0.9: ``SERIES``
(the series labels explain it at R^2 >= 0.8), ``PLATFORM`` (|r| >= 0.9 with the platform), ``KO``
(|r| >= 0.9 with one knockout's arrays), ``CONDITION`` (|r| >= 0.9 with one condition's replicate
arrays); ``FALSE``: one of those, or below |r| 0.5 with R*, D and every factor and neither gene set
enriched; on the null, every kept H. CPU s.

Run once, on the final code (budget about 2 h of CPU for the 20 tables at load 10-20: M is 2-3 times
h22m's; ``--seeds 2350-2354`` and ``2355-2359`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h23.py --gen h23m --seeds 2350-2359
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h23.py --gen h23m-null --seeds 2350-2359
"""

from __future__ import annotations

import ecoli_names as en
import numpy as np
from bench_regulators_genome_h20 import _z, design_r2
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, M_RANGE, TFS, FACTORS = (2500, 3200), (300, 500), (120, 170), (3, 6)
MODULE, UNNAMED, SHARE, P_REPRESSED, P_GATED, COREG = (150, 250), (0.10, 0.25), (0.35, 0.7), 0.15, 0.3, (0.5, 1.0)
N_TARGET_TFS, TF_SHARE, TF_REGULON, TC_RISE, COND_SD, REP_SD = (5, 10), (0.2, 0.5), (5, 15), 0.8, 0.5, 0.25
D_GENES, D_SHIFT = (60, 100), (1.0, 2.5)
SERIES_SD, P_SERIES, PLATFORM_SD, P_PLATFORMS, NEW_SHARE = (0.15, 0.35), 0.5, 0.4, 0.5, (0.2, 0.5)
MU, AMP, MOD_AMP, BG, PROBE_SD = (5.5, 10.5), (0.3, 0.9), (0.8, 1.8), (4.0, 5.5), (0.08, 0.25)
N_KO, P_DCRP, DESIGN_R2 = (2, 5), 0.5, 0.8


def has_dcrp(seed: int) -> bool:
    """Whether the first knockout series of ``seed`` deletes ``crp`` (half the seeds)."""
    return bool(np.random.default_rng([seed, 23, 5]).random() < P_DCRP)


def two_platforms(seed: int) -> bool:
    """Whether ``seed``'s compendium pools two array platforms (half the seeds)."""
    return bool(np.random.default_rng([seed, 23, 6]).random() < P_PLATFORMS)


def _star(rng: np.random.Generator, d: dict, n_cond: int) -> np.ndarray:
    """cAMP-CRP per array: the carbon source's level, + TC_RISE along a time course, + N(0, COND_SD)
    per condition, + N(0, REP_SD) per array; at its floor on the ``dcrp`` arrays; standardized."""
    cond_part = rng.normal(0.0, COND_SD, n_cond)
    a = np.array([en.MEDIA[x] for x in d["medium"]]) + TC_RISE * d["time"] + cond_part[d["condition"]]
    a = a + rng.normal(0.0, REP_SD, len(a))
    dcrp = np.array([k == en.STAR for k in d["ko"]])
    a[dcrp] = a[~dcrp].min() - 1.0
    return _z(a)


def _factors(rng: np.random.Generator, d: dict, n_cond: int, k: int) -> np.ndarray:
    """(M, k) unlisted condition factors: per condition N(0, 1), a random walk along a time course's
    conditions; + N(0, REP_SD) per array; standardized."""
    per = rng.normal(size=(n_cond, k))
    for s in np.unique(d["series"][d["time"] > 0]):
        conds = np.unique(d["condition"][d["series"] == s])
        per[conds] = per[conds[0]] + np.cumsum(0.5 * rng.normal(size=(len(conds), k)), axis=0)
    return _z(per[d["condition"]] + rng.normal(0.0, REP_SD, (len(d["label"]), k)))


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (arrays x columns, log2 RMA), ``names`` (sorted), ``labels``, ``series``,
    ``condition`` (index per array), ``medium`` (the carbon source per array), ``platform`` (0/1 per
    array), ``ko`` (the deleted TF per array, "" none), ``regulators``, ``star``, ``star_name``,
    ``module``, ``module_tfs`` (R*'s listed TF targets), ``operons`` (the module's named operons),
    ``drivers`` ((M, 1): D), ``targets`` ([D's genes]), ``on`` (D's arrays; none on the null),
    ``factors``, ``null``, ``activities`` (arrays x ``tfs``: the listed TFs' true activities, read by
    ``study_activity_takeover.py``). ``n_cols``: the table width (drawn in 2500..3200; smoke tests use a smaller
    one)."""
    rng = np.random.default_rng([seed, 23])
    m, n_tf = int(rng.integers(M_RANGE[0], M_RANGE[1] + 1)), int(rng.integers(TFS[0], TFS[1] + 1))
    n_cols = int(rng.integers(COLS[0], COLS[1] + 1)) if n_cols is None else n_cols
    # the listed TFs: CRP's TF targets (5-10 driven by R* on this seed), the operons' regulators, others
    coregs = sorted({r for r, _ in en.OPERONS.values() if r} - set(en.CRP_TF_TARGETS))
    others = [t for t in en.OTHER_TFS if t not in coregs]
    tfs = list(en.CRP_TF_TARGETS) + coregs + [str(t) for t in rng.permutation(others)]
    tfs = tfs[:n_tf] + en.y_names(rng, max(0, n_tf - len(tfs)), set(tfs))
    n_tgt = int(rng.integers(*N_TARGET_TFS, endpoint=True))
    tgt = [str(t) for t in rng.choice(en.CRP_TF_TARGETS, size=n_tgt, replace=False)]
    ko_tfs = [str(t) for t in rng.choice(tfs, size=int(rng.integers(*N_KO, endpoint=True)), replace=False)]
    if has_dcrp(seed):
        ko_tfs[0] = en.STAR
    d = en.design(rng, m, ko_tfs)
    n_cond, k = int(d["condition"].max()) + 1, int(rng.integers(*FACTORS, endpoint=True))
    star, fac = _star(rng, d, n_cond), _factors(rng, d, n_cond, k)
    fac_c = np.zeros((n_cond, k))  # TF activities live on conditions, replicates share them
    np.add.at(fac_c, d["condition"], fac / np.bincount(d["condition"])[d["condition"], None])
    act = tf_activities(rng, fac_c, n_tf)[d["condition"]] + REP_SD * rng.normal(size=(m, n_tf))
    tf_share = rng.uniform(*TF_SHARE, size=len(tgt))
    at = [tfs.index(t) for t in tgt]
    act[:, at] = np.sqrt(1.0 - tf_share) * act[:, at] + (0.0 if null else np.sqrt(tf_share) * star[:, None])
    for t in set(ko_tfs) - {en.STAR}:  # a deleted TF: no protein
        act[[x == t for x in d["ko"]], tfs.index(t)] = act[:, tfs.index(t)].min() - 1.0
    act = _z(act)
    on = np.where(d["shx"] > 0, rng.uniform(0.7, 1.0, m), 0.0)
    # the module: whole named operons (their sign and specific regulator), then unnamed genes
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    n_named = int(round(n_mod * (1.0 - rng.uniform(*UNNAMED))))
    ops, total = [], 0
    for op in rng.permutation(list(en.OPERONS)):
        if total < n_named:
            ops.append(str(op))
            total += len(str(op).split())
    named = {g for op in en.OPERONS for g in op.split()} | set(en.RIBOSOMAL) | set(en.AMINO) | set(tfs) | {en.STAR}
    n_d = int(rng.integers(*D_GENES, endpoint=True))
    d_names = [str(x) for x in rng.choice(en.RIBOSOMAL + en.AMINO, size=n_d, replace=False)]
    n_rest = n_cols - n_tf - total - n_d
    rest = en.y_names(rng, n_rest, named)
    mod_single = rest[: max(0, n_mod - total)]
    units = [op.split() for op in ops] + [[g] for g in mod_single]  # the module's transcription units
    other = rest[len(mod_single) :]
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()

    def parents_term(n_pa: int) -> np.ndarray:
        pick = rng.choice(n_tf, n_pa, False, hub)
        return act[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))

    def own() -> np.ndarray:  # a gene's own variation: half per condition, half per array
        per = rng.normal(size=n_cond)[d["condition"]]
        return 0.8 * np.exp(rng.normal(0.0, 0.3)) * (np.sqrt(0.5) * per + np.sqrt(0.5) * rng.normal(size=m))

    sig, names, kind = [], [], []
    for unit in units:  # one signal per operon, R*'s share (activated or repressed, AND-gated on 30 %)
        reg, sign = en.OPERONS.get(" ".join(unit), ("", 1))
        sign = sign if sign < 0 or rng.random() >= P_REPRESSED else -1
        x = own() + parents_term(int(rng.integers(0, 2)))
        if reg:
            x = x + rng.uniform(*COREG) * act[:, tfs.index(reg)]
        gated = bool(reg) and rng.random() < P_GATED
        resp = _z(star * (1.0 / (1.0 + np.exp(-2.0 * act[:, tfs.index(reg)])))) if gated else star
        share = rng.uniform(*SHARE)
        s = np.sqrt(1.0 - share) * _z(x) + (0.0 if null else np.sqrt(share) * sign * resp)
        for place, g in enumerate(unit):
            sig.append(s * 0.85**place)
            names.append(g)
            kind.append("mod")
    for group, gnames in (("d", d_names), ("rest", other), ("tf", tfs)):
        for g in gnames:
            if group == "tf":
                x = act[:, tfs.index(g)] + 0.3 * rng.normal(size=m)  # a TF's mRNA is not its activity
            else:
                x = own() + parents_term(0 if rng.random() < 0.1 else int(rng.integers(1, 4)))
                term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(k)]
                x = x + (term if rng.random() < 0.25 and not null else 0.0)
            sig.append(_z(x))
            names.append(g)
            kind.append(group)
    sig, kind = np.column_stack(sig), np.array(kind)
    n = len(names)
    col = {g: j for j, g in enumerate(names)}
    for a in at:  # each of R*'s TF targets has its own 5-15 targets among the rest
        size = int(rng.integers(*TF_REGULON, endpoint=True))
        genes = rng.choice(np.flatnonzero(kind == "rest"), size=size, replace=False)
        sig[:, genes] += (rng.uniform(0.5, 1.0, len(genes)) * rng.choice([-1.0, 1.0], len(genes))) * act[:, [a]]
    # log2 RMA: levels, D's shift, lab and platform offsets, the background floor and probe noise
    mrng = np.random.default_rng([seed, 23, 3])
    mu = mrng.uniform(*MU, n)
    amp = np.where(kind == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    v = mu + amp * sig
    shift = mrng.uniform(*D_SHIFT, n) * np.where(np.isin(names, en.RIBOSOMAL), -1.0, 1.0)  # ribosomes down
    v[:, kind == "d"] += 0.0 if null else on[:, None] * shift[kind == "d"]
    n_series = int(d["series"].max()) + 1
    offs = np.where(mrng.random(n) < P_SERIES, mrng.normal(0.0, mrng.uniform(*SERIES_SD), (n_series, n)), 0.0)
    prng = np.random.default_rng([seed, 23, 4])
    new = prng.random(n_series) < (prng.uniform(*NEW_SHARE) if two_platforms(seed) else 0.0)
    platform = new[d["series"]].astype(int)
    v = v + offs[d["series"]] + platform[:, None] * mrng.normal(0.0, PLATFORM_SD, n)
    for t in set(ko_tfs) - {en.STAR}:  # a deleted gene's probe reads background
        v[[x == t for x in d["ko"]], col[t]] = -10.0
    bg = mrng.uniform(*BG)
    y = np.log2(2.0**v + 2.0**bg) + mrng.uniform(*PROBE_SD, n) * mrng.normal(size=(m, n))
    order = np.argsort(names)
    regulators = list(tfs)
    np.random.default_rng([seed, 23, 2]).shuffle(regulators)
    return {
        "values": y[:, order],
        "names": [names[i] for i in order],
        "labels": d["label"],
        "series": d["series"],
        "condition": d["condition"],
        "medium": d["medium"],
        "platform": platform,
        "ko": d["ko"],
        "regulators": regulators,
        "star": star,
        "star_name": en.STAR,
        "module": {g for u in units for g in u},
        "module_tfs": set(tgt),
        "operons": ops,
        "drivers": on[:, None],
        "targets": [set(d_names)],
        "on": [] if null else [d["label"][i] for i in np.flatnonzero(on)],
        "factors": fac,
        "null": null,
        "activities": act,  # (M, listed TFs): each listed TF's activity, its mRNA a noisy read-out of it
        "tfs": tfs,  # the activities' columns
    }


def _indicators(g: dict) -> dict[str, np.ndarray]:
    """The design's 0/1 columns a false H can rest on: ``KO <tf>`` (a knockout's arrays), ``CONDITION
    <i>`` (one condition's replicate arrays, 2 or more), ``PLATFORM`` (the newer platform's arrays)."""
    out = {f"KO {t}": np.array([x == t for x in g["ko"]], float) for t in sorted(set(g["ko"]) - {""})}
    counts = np.bincount(g["condition"])
    for c in np.flatnonzero(counts >= 2):
        out[f"CONDITION {c}"] = (g["condition"] == c).astype(float)
    if g["platform"].any():
        out["PLATFORM"] = g["platform"].astype(float)
    return out


def design_reading(prof: np.ndarray, g: dict) -> tuple[float, str, float]:
    """H's best |r| with one of the design's indicators, that indicator's name, and the R^2 of the
    series labels on H."""
    ind = _indicators(g)
    r = {k: abs(float(np.corrcoef(prof, v)[0, 1])) for k, v in ind.items()}
    best = max(r, key=r.get) if r else ""
    return (r[best] if best else 0.0), best, design_r2(prof, g["series"])


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``SERIES``, ``PLATFORM``, ``KO``, ``CONDITION`` for a kept H that tracks neither R*, D nor an
    unlisted factor."""
    if max([h.r[0], h.r[1], *h.r[2:]]) >= TRACK:
        return []
    r, best, series_r2 = design_reading(prof, g)
    out = [best.split()[0]] if r >= TRACK else []
    return out + (["SERIES"] if series_r2 >= DESIGN_R2 else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on the series, platform, a knockout or a condition), ``flagged``, ``cpu``)."""
    profiles = np.column_stack([g["star"], g["drivers"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    hs = est.hidden_search_
    kept = kept_of(hs, {**g, "removed": profiles})
    props = top_proposals(est)
    on, universe, tg = set(g["on"]), len(g["names"]), g["targets"][0]
    rows, t = [], {"kept": len(kept), "false": 0, "cpu": cpu, "enriched": False, "tfs": 0, "marks": 0}
    for h in kept:
        prof = hs.hidden_profile(h.name)
        overlap, p = _overlap(h.children, g["module"], universe)
        planted = p < ENRICHED or _enriched(h.children, tg, universe)
        marks = _marks(h, prof, g)
        false = g["null"] or bool(marks) or (max(h.r) < NOTHING and not planted)
        t["false"] += false
        t["marks"] += bool(marks)
        r_design, which, series_r2 = design_reading(prof, g)
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={max(h.r[2:]):.2f} "
            f"rDesign={r_design:.2f} ({which}) series R2 {series_r2:.2f}{''.join(' ' + x for x in marks)}"
            f"{' FALSE' if false else ''} module {overlap} (p {p:.1e}) tfs {len(h.children & g['module_tfs'])} "
            f"in-D={len(h.children & tg)} Δscore {h.gain:+.1f} <- {','.join(h.parents) or '-'} "
            f"(R2 {h.parents_r2:.2f}, leverage {h.leverage:.2f}{f' FLAG {flag}' if flag else ''})"
        )
    top = tally_kept(t, kept, g, cpu, props, TRACK, CPU_LIMIT, _enriched)
    top_text = top_line(top, g)
    head = (
        ""
        if g["null"]
        else (
            f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} enriched {'yes' if t['enriched'] else 'no'} "
            f"tfs {t['tfs']}/{len(g['module_tfs'])} D(on {len(on)}, {len(tg)} genes) "
            f"{'OK' if t['drivers'][0] else '--'} {t['best_drivers'][0]:.2f} "
        )
    )
    line = (
        f"seed {seed} M {len(g['labels'])} series {int(g['series'].max()) + 1} cols {len(g['names'])} "
        f"listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} false {t['false']} "
        f"flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D recovered,
    the kept and false Hs, the marked ones (series, platform, knockout, condition), the flags and the median CPU."""
    return genome_summary(
        name, tallies, "a series, the platform, a knockout or a condition", TRACK, CPU_LIMIT, ENRICHED
    )


def main(argv: list[str] | None = None) -> None:
    tally_main("h23m", "2350-2359", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
