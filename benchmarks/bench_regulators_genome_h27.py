"""A genome-scale hold-out for #22: DREB2A removed from an Arabidopsis abiotic-stress compendium on ATH1 arrays.

The twenty-seventh session's genome hold-out ``h27m`` (seeds 2750-2759), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2790-2799 are free for smoke tests of the sampling. Its own sampling code (loci, the listed TFs and
the row design in ``athal_names.py``). **A plant stress series** (AtGenExpress's abiotic-stress set,
Kilian et al. 2007: seedlings' shoots and roots sampled from 15 min to 24 h after cold, osmotic, salt,
drought, genotoxic, oxidative, UV-B, wounding and heat stress, with mock controls at every time point, two
replicates, ATH1 arrays, RMA) is what a plant lab brings, and no seen genome generator (module, null,
outlier, two, pulse, batch, relay, cascade, hubs, slots, stability, h16m-h26m) has its structure: **a
crossed design of stress x tissue x time** where **the two organs are the strongest axis** (a gene's
level set by the organ, many genes expressed in one only), **every stress is a time course** (its program
rising over hours, heat's falling again after the 3 h of heat), **the time of day moves with the time
point** (the clock's TFs cycle through the 24 h of sampling, in controls as in stresses), the arrays were
**hybridised stress series by stress series** (a small series offset per gene), and the values are **RMA
log2 intensities with a floor** (genes not expressed in an organ read at the background); ``h21m``'s
time course was one cell cycle of synchronised yeast, ``h25m``'s tissues were donors' organs, not
treatments.

* **Rows.** 7-10 stresses (mock control, osmotic, salt, heat and wounding always; 2-5 of cold, drought,
  genotoxic, oxidative, UV-B) x shoots and roots x 5-7 time points (0.5, 1, 3, 6, 24 h always; 0.25 and 12
  h on some seeds) x two replicates, 0-4 % of the arrays failed and left out: M 134-280, labelled as
  AtGenExpress names its files (``AtGen_6-4231_Salt-Roots-1h_Rep1``), in series order. The first
  samples 3 h after dawn: a row's clock time is 3 h + its time point.
* **Programs (unlisted).** The organ (shoots or roots), the clock (cos and sin of the clock time), and
  per stress its program: its rows x ``1 - exp(-t / tau)``, tau U(0.3, 3) h (heat's x ``exp(-(t -
  3) / U(2, 6))`` after 3 h). Mixed into the listed TFs' activities (``pulse``'s mixing); 34 named TFs
  follow one of them at +-U(1.0, 2.0) (the CBFs cold, the ABFs the osmotic stresses, the HSFs heat,
  ``WRKY33``, ``ERF1``, ``MYC2`` wounding, ``HY5`` UV-B, the clock TFs their phase, ``SHR``, ``SCR``,
  ``PLT1``, ``GLK1``... the organ); a program on 30 % of the genes at +-U(0.3, 0.7).
* **R* = DREB2A (AT5G05410; removed from the table and the list)**: a basal N(0, 0.3) + its pull x a
  transient kinetics ``(t / tp) exp(1 - t / tp)`` in the rows of osmotic stress (pull U(1.5, 3.0), tp U(1,
  4) h), salt (U(1.2, 2.5), tp U(1, 4)), drought (U(1.0, 2.5), tp U(0.5, 1.5)), heat (U(1.5, 3.0), tp
  U(0.5, 1.5)), cold (U(0.2, 0.6), tp U(3, 8)); in roots x U(1.0, 1.5) for the osmotic ones and x U(0.3,
  0.7) for heat; + N(0, 0.25) per row; standardized. It induces a **30-50 gene module** (``RD29A``,
  ``LEA14``, ``ERD10``, ``COR15A``, ``COR47``, ``GolS1``, ``HSP18.2``, ``APX2``... and unnamed loci; R* a
  share U(0.4, 0.7) of each gene's signal) and **3-6 listed TFs** (``HSFA3``, ``NAC019``, ``NAC055``,
  ``RD26``, ``ZAT10``, ``ZAT12``, ``MYB2``; a share U(0.3, 0.6)), each with 5-15 targets of its own.
* **An on/off program D, the wound jasmonate burst**: 15-22 genes (``LOX2``, ``AOS``, ``AOC1``, ``OPR3``,
  ``JAZ1``, ``JAZ10``, ``VSP2``...; none listed) up by U(1.5, 3.0) log2 x U(0.6, 1.0) in the wounding rows
  up to 1 h (8-12 rows); ``MYC2`` is listed and follows the wounding program, not D.
* **ATH1, RMA.** A gene's level ``base + organ + amplitude x signal + series offset`` (base U(3, 13) log2,
  the module's and D's U(5, 10); on 40 % of the genes the roots' level differs from the shoots' by
  +-U(0.5, 3.0); amplitude U(0.2, 0.6), the module's U(0.8, 1.5); the series offset N(0, U(0.05, 0.15))
  per stress series and gene); read as ``log2(2^level + 2^floor) + N(0, U(0.08, 0.2))`` with the array's
  background floor U(3, 4.5), then quantile-normalised across the arrays; no missing cells.

The table: 2500-3200 columns (AGI loci, sorted; 100-140 listed TFs: R*'s TF targets, the 34 named ones,
synthetic others) x M rows; other genes: 1-3 listed TF parents chosen hub-like, 10 % none, weights
+-U(0.3, 1.0), own noise 0.8 exp N(0, 0.3).

``h27m-null`` (the same seeds): the same rows, programs, TFs, organ levels, series offsets, floors and
noise draws, without R*'s part (the module follows its other inputs, R*'s TF targets their own part), D
off and no program directly on genes (the programs still reach genes through the listed TFs). Any kept H
is false (the organ, a stress series, a time point, one array).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound), its
children against the module (overlap, hypergeometric p, enriched at p < 1e-3), R*'s listed TF targets
among them (``tfs k/n``); **D recovered** at |r(H, D)| >= 0.9. Per kept H that tracks neither R*, D nor a
program (the clock's, a stress's; the organ is not counted a program here) at |r| >= 0.9: ``ORGAN`` (the
organ explains it at R^2 >= 0.8), ``SERIES`` (the stress series do), ``TIME`` (the time points do), ``ROW``
(|r| >= 0.9 with one row, named); ``FALSE``: one of those, or below |r| 0.5 with R*, D and every program
and neither gene set enriched; on the null, every kept H. An H partly on R* or D (|r| >= 0.5 with it and
its gene set enriched among the H's children) is not marked. A kept H's entry ends ``ACTIVITY X`` when the
report reads it as listed TF X's activity. CPU s.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Nineteenth hold-out"; ``--seeds
2750-2754`` and ``2755-2759`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h27.py --gen h27m --seeds 2750-2759
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h27.py --gen h27m-null --seeds 2750-2759
"""

from __future__ import annotations

import athal_names as an
import numpy as np
from bench_regulators_genome_h20 import _z, design_r2
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, TFS, MODULE, SHARE = (2500, 3200), (100, 140), (30, 50), (0.4, 0.7)
N_TARGET_TFS, TF_SHARE, TF_REGULON, FOLLOW = (3, 6), (0.3, 0.6), (5, 15), (1.0, 2.0)
TAU, HEAT_OFF, BASAL_SD, ROW_SD = (0.3, 3.0), (2.0, 6.0), 0.3, 0.25
#: R*'s pull and its kinetics' peak time (h) per stress
PULL = {
    "Osmotic": ((1.5, 3.0), (1.0, 4.0)),
    "Salt": ((1.2, 2.5), (1.0, 4.0)),
    "Drought": ((1.0, 2.5), (0.5, 1.5)),
    "Heat": ((1.5, 3.0), (0.5, 1.5)),
    "Cold": ((0.2, 0.6), (3.0, 8.0)),
}
ROOT_OSMOTIC, ROOT_HEAT = (1.0, 1.5), (0.3, 0.7)
D_SHIFT, D_ON, N_D, D_HOURS = (1.5, 3.0), (0.6, 1.0), (15, 22), 1.0
BASE, NAMED_BASE, ORGAN_SHARE, ORGAN = (3.0, 13.0), (5.0, 10.0), 0.4, (0.5, 3.0)
AMP, MOD_AMP, SERIES_SD, FLOOR, NOISE = (0.2, 0.6), (0.8, 1.5), (0.05, 0.15), (3.0, 4.5), (0.08, 0.2)
DESIGN_R2 = 0.8


def _programs(rng: np.random.Generator, w: dict) -> tuple[np.ndarray, list[str]]:
    """The unlisted programs (M, k) standardized and their names: the organ, the clock (cos, sin), each
    stress of the seed (its rows x its rise; heat's falling after 3 h)."""
    t = w["hours"]
    cols, names = [w["tissue"].astype(float)], ["organ"]
    phase = 2.0 * np.pi * w["clock"] / 24.0
    cols += [np.cos(phase), np.sin(phase)]
    names += ["clock_cos", "clock_sin"]
    for s in an.FACTOR:
        rise = 1.0 - np.exp(-t / rng.uniform(*TAU))
        if s == "Heat":
            rise *= np.exp(-np.maximum(0.0, t - 3.0) / rng.uniform(*HEAT_OFF))
        if np.any(w["stress"] == s):
            cols.append((w["stress"] == s) * rise)
            names.append(an.FACTOR[s])
    return _z(np.column_stack(cols) + 0.02 * rng.normal(size=(len(t), len(cols)))), names


def _star(rng: np.random.Generator, w: dict) -> np.ndarray:
    """DREB2A's activity: basal, its pull x its transient kinetics in the stresses that induce it, a row's
    own part; standardized."""
    push = np.zeros(len(w["hours"]))
    root = w["tissue"] == 1
    for s, (pull, peak) in PULL.items():
        a, tp = rng.uniform(*pull), rng.uniform(*peak)
        organ = rng.uniform(*(ROOT_HEAT if s == "Heat" else ROOT_OSMOTIC))
        rows = w["stress"] == s
        t = w["hours"][rows]
        push[rows] = a * (t / tp) * np.exp(1.0 - t / tp) * np.where(root[rows], 1.0 if s == "Cold" else organ, 1.0)
    return _z(rng.normal(0.0, BASAL_SD, len(push)) + push + rng.normal(0.0, ROW_SD, len(push)))


def _quantile_normalise(y: np.ndarray) -> np.ndarray:
    """Each row (array) given the mean of the rows' sorted values at its ranks (RMA's normalisation)."""
    ranks = np.argsort(np.argsort(y, axis=1), axis=1)
    return np.sort(y, axis=1).mean(axis=0)[ranks]


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (rows x columns, RMA log2), ``names`` (AGI loci, sorted), ``labels``,
    ``stress``, ``tissue`` (0 shoots, 1 roots), ``hours``, ``clock``, ``series`` (per row), ``regulators``,
    ``star``, ``star_name``, ``module``, ``module_tfs`` (R*'s listed TF targets), ``drivers`` ((M, 1): D),
    ``targets`` ([D's genes]), ``on`` (D's rows; none on the null), ``factors`` (the programs but the
    organ: the clock's and the stresses'), ``factor_names``, ``null``. ``n_cols``: the table width (drawn
    in 2500..3200; smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 27])
    n_tf = int(rng.integers(*TFS, endpoint=True))
    n_cols = int(rng.integers(*COLS, endpoint=True)) if n_cols is None else n_cols
    w = an.design(rng)
    m = len(w["label"])
    fac, fac_names = _programs(rng, w)
    star = _star(rng, w)
    on = np.where((w["stress"] == "Wounding") & (w["hours"] <= D_HOURS), rng.uniform(*D_ON, m), 0.0)
    # the listed TFs: R*'s TF targets, the named ones, synthetic others
    named = list(an.STAR_TF_TARGETS) + [t for t in an.FOLLOWS if t not in an.STAR_TF_TARGETS]
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    module = [str(g) for g in rng.choice(an.MODULE, n_mod, replace=False)]
    d_names = [str(g) for g in rng.permutation(list(an.JASMONATE))[: int(rng.integers(*N_D, endpoint=True))]]
    taken = set(an.MODULE) | set(an.JASMONATE) | set(named) | {an.STAR}
    tfs = named + an.loci(rng, n_tf - len(named), taken)
    other = an.loci(rng, n_cols - n_tf - n_mod - len(d_names), taken)
    # TF activities: programs mixed in, the named TFs following theirs, R*'s part on its targets
    act = tf_activities(rng, fac, n_tf)
    for j, t in enumerate(tfs[: len(named)]):
        if t in an.FOLLOWS:
            f = an.FOLLOWS[t][1]
            if f == "clock":
                phi = rng.uniform(0.0, 2.0 * np.pi)
                drive = np.cos(phi) * fac[:, 1] + np.sin(phi) * fac[:, 2]
            else:
                drive = fac[:, fac_names.index(f)] if f in fac_names else np.zeros(m)
            act[:, j] += rng.uniform(*FOLLOW) * rng.choice([-1.0, 1.0]) * drive
    tgt = [str(t) for t in rng.choice(list(an.STAR_TF_TARGETS), int(rng.integers(*N_TARGET_TFS, endpoint=True)), False)]
    at = [tfs.index(t) for t in tgt]
    tf_share = rng.uniform(*TF_SHARE, size=len(at))
    act = _z(act)
    act[:, at] = np.sqrt(1.0 - tf_share) * act[:, at] + (0.0 if null else np.sqrt(tf_share) * star[:, None])
    act = _z(act)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()

    def parents_term(n_pa: int) -> np.ndarray:
        pick = rng.choice(n_tf, n_pa, False, hub)
        return act[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))

    sig, names, kinds = [], [], []
    for group, gnames in (("mod", module), ("d", d_names), ("rest", other), ("tf", tfs)):
        for g in gnames:
            if group == "tf":
                x = act[:, tfs.index(g)] + 0.3 * rng.normal(size=m)  # a TF's mRNA is not its activity
            else:
                x = 0.8 * np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
                x = x + parents_term(0 if rng.random() < 0.1 else int(rng.integers(1, 4)))
                term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(fac.shape[1])]
                x = x + (term if rng.random() < 0.3 and not null else 0.0)
            if group == "mod":
                share = rng.uniform(*SHARE)
                x = np.sqrt(1.0 - share) * _z(x) + (0.0 if null else np.sqrt(share) * star)
            sig.append(_z(x))
            names.append(g)
            kinds.append(group)
    sig, kinds = np.column_stack(sig), np.array(kinds)
    n = len(names)
    for a in at:  # each of R*'s TF targets has its own 5-15 targets among the rest
        genes = rng.choice(np.flatnonzero(kinds == "rest"), int(rng.integers(*TF_REGULON, endpoint=True)), False)
        sig[:, genes] += (rng.uniform(0.5, 1.0, len(genes)) * rng.choice([-1.0, 1.0], len(genes))) * act[:, [a]]
    # ATH1 levels: base, organ, amplitude, D's shift, the series offset; the array's floor, noise, RMA
    mrng = np.random.default_rng([seed, 27, 3])
    named_genes = (kinds == "mod") | (kinds == "d")
    base = np.where(named_genes, mrng.uniform(*NAMED_BASE, n), mrng.uniform(*BASE, n))
    organ = np.where(mrng.random(n) < ORGAN_SHARE, mrng.uniform(*ORGAN, n) * mrng.choice([-1.0, 1.0], n), 0.0)
    amp = np.where(kinds == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    level = base + organ * w["tissue"][:, None] + amp * sig
    d_shift = mrng.uniform(*D_SHIFT, int(np.sum(kinds == "d")))  # drawn on the null too: the same draws after it
    level[:, kinds == "d"] += 0.0 if null else on[:, None] * d_shift
    level += mrng.normal(0.0, mrng.uniform(*SERIES_SD), (len(an.STRESSES), n))[w["series"]]
    floor = mrng.uniform(*FLOOR, m)
    y = np.log2(2.0**level + 2.0 ** floor[:, None]) + mrng.normal(0.0, mrng.uniform(*NOISE), (m, n))
    y = _quantile_normalise(y)
    order = np.argsort(names)
    regulators = list(tfs)
    np.random.default_rng([seed, 27, 2]).shuffle(regulators)
    return {
        "values": y[:, order],
        "names": [names[i] for i in order],
        "labels": w["label"],
        "stress": w["stress"],
        "tissue": w["tissue"],
        "hours": w["hours"],
        "clock": w["clock"],
        "series": w["series"],
        "regulators": regulators,
        "star": star,
        "star_name": an.STAR,
        "module": set(module),
        "module_tfs": set(tgt),
        "drivers": on[:, None],
        "targets": [set(d_names)],
        "on": [] if null else [w["label"][i] for i in np.flatnonzero(on)],
        "factors": fac[:, 1:],  # the organ is read by the marks (``tissue``), not as a program
        "factor_names": fac_names[1:],
        "null": null,
    }


def design_reading(prof: np.ndarray, g: dict) -> dict:
    """What a kept H's profile could rest on in the design: the R^2 of the organ, of the stress series and
    of the time points on it, and its best |r| with one row's indicator (|z_i| / sqrt(M - 1)) and that
    row's label."""
    z = np.abs(_z(np.asarray(prof, dtype=float)))
    best = int(np.argmax(z))
    hours = np.unique(g["hours"], return_inverse=True)[1]
    return {
        "organ": design_r2(prof, g["tissue"]),
        "series": design_r2(prof, g["series"]),
        "time": design_r2(prof, hours),
        "row": float(z[best] / np.sqrt(len(z) - 1.0)),
        "row_label": g["labels"][best],
    }


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``ORGAN``, ``SERIES``, ``TIME``, ``ROW`` for a kept H that tracks neither R*, D nor a program."""
    if max(h.r) >= TRACK:
        return []
    d = design_reading(prof, g)
    out = [mark for mark, key in (("ORGAN", "organ"), ("SERIES", "series"), ("TIME", "time")) if d[key] >= DESIGN_R2]
    return out + ([f"ROW {d['row_label']}"] if d["row"] >= TRACK else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on the organ, a stress series, the time points or one row), ``flagged``,
    ``cpu``)."""
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
        in_d = _enriched(h.children, tg, universe)
        planted = p < ENRICHED or in_d
        partly = (p < ENRICHED and h.r[0] >= NOTHING) or (in_d and h.r[1] >= NOTHING)
        marks = [] if partly else _marks(h, prof, g)
        false = g["null"] or bool(marks) or (max(h.r) < NOTHING and not planted)
        t["false"] += false
        t["marks"] += bool(marks)
        d = design_reading(prof, g)
        best_f = int(np.argmax(h.r[2:]))
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={h.r[2 + best_f]:.2f} "
            f"({g['factor_names'][best_f]}) organ R2 {d['organ']:.2f} series R2 {d['series']:.2f} "
            f"time R2 {d['time']:.2f} rRow={d['row']:.2f}{''.join(' ' + x for x in marks)}"
            f"{' FALSE' if false else ''} module {overlap} (p {p:.1e}) tfs {len(h.children & g['module_tfs'])} "
            f"in-D={len(h.children & tg)} Δscore {h.gain:+.1f} <- {','.join(h.parents) or '-'} "
            f"(R2 {h.parents_r2:.2f}, leverage {h.leverage:.2f}{f' FLAG {flag}' if flag else ''})"
            + (f" ACTIVITY {h.activity}" if h.activity else "")  # the report reads H as a listed TF's activity
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
        f"seed {seed} M {len(g['labels'])} stresses {len(set(g['stress']))} times {len(set(g['hours']))} "
        f"cols {len(g['names'])} listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D
    recovered, the kept and false Hs, the marked ones (the organ, a stress series, the time points, one
    array), the flags and the median CPU."""
    return genome_summary(
        name, tallies, "the organ, a stress series, the time points or one array", TRACK, CPU_LIMIT, ENRICHED
    )


def main(argv: list[str] | None = None) -> None:
    tally_main("h27m", "2750-2759", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
