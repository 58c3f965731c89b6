"""A genome-scale hold-out for #22: NFE2L2 (NRF2) removed from a human post-mortem multi-tissue atlas (GTEx-like).

The twenty-fifth session's genome hold-out ``h25m`` (seeds 2550-2559), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2590 and up are free for smoke tests of the sampling. Its own sampling code (names, tissues and
the donor x tissue design in ``atlas_names.py``). A **multi-tissue atlas of deceased donors** (GTEx,
the Human Protein Atlas' tissue panels) is the reference table of human expression: donors crossed with
tissues, unbalanced (a donor gives the tissues that could be taken), bulk RNA-seq at high depth. No seen
genome generator (module, null, outlier, two, pulse, batch, relay, cascade, hubs, slots, stability,
h16m-h24m) has its structure: **the tissue is the strongest axis by far** (every gene's level moves
with it, lineage TFs switch on and off), **the donor is a second, crossed axis** (sex genes, cis-eQTL
genotypes, the death circumstances and ischemic time acting on all of a donor's tissues), and the
removed regulator's activity is **tissue-restricted but also variable within a tissue**: NRF2 is high
in some tissues, answers smoking only in the tissues that face the smoke, and varies from donor to donor
and sample to sample (oxidative stress); ``h20m`` had donors x cell types at M 20-80 in pseudobulk
counts, ``h24m`` cell lines x drugs on plates.

* **Donors and tissues.** 5-8 GTEx tissues (1-2 facing smoke: ``Lung``, ``Esophagus - Mucosa``,
  ``Minor Salivary Gland``; 4 or more others), donors added until there are M (120-260) samples, each
  giving each tissue with the tissue's probability U(0.5, 0.95); sample ids ``GTEX-1K2DA-0426-SM-7DHLK``
  (sorted; the tissue is not in the id). Every gene's level moves by N(0, 1.2) log2 per tissue on 80 % of
  the genes, every listed TF's activity by N(0, 1) per tissue, the tissues' lineage TFs (``HNF4A`` in
  liver, ``NKX2-1`` in lung...) by +2.5 in their tissue.
* **Donor effects.** Sex (65 % male): ``XIST`` on in women, six Y genes in men; cis-eQTLs: 20 % of the
  genes with a donor genotype (0/1/2, allele frequency U(0.1, 0.5)) x +-U(0.3, 1.0) log2 in all the donor's
  tissues; the Hardy scale (0 ventilator 40 %, 1 violent 10 %, 2 fast natural 35 %, 3 intermediate 15 %,
  and 2-4 donors a seed 4, slow); ischemic time log-normal around 300 min (x 1.6 for ventilator cases),
  RIN N(7.3, 0.8) (one tissue lower). Unlisted programs: the ventilator cases, log ischemic time, RIN, age
  and 2-3 sample states, each on 30 % of the genes at +-U(0.3, 0.7) and mixed into the listed TFs'
  activities (``pulse``'s mixing).
* **R* = NRF2 (``NFE2L2``, removed from the table and the list)**: a tissue level N(0, 0.6) (+0.8 in the
  tissues facing smoke), + U(1.0, 1.8) in those tissues of smokers (25 % of donors; +0.3 in their other
  tissues), + a donor level N(0, 0.5), + N(0, 0.7) per sample; then standardized. It induces a **30-50
  gene module** of named ARE targets (``NQO1``, ``HMOX1``, ``GCLM``, ``TXNRD1``, ``AKR1C1``...; R* a share
  U(0.4, 0.7) of each gene's signal) and **3-6 listed TFs** (``MAFG``, ``MAFF``, ``MAFK``, ``BACH1``,
  ``AHR``, ``PPARG``, ``NR0B1``, ``RXRA``; a share U(0.3, 0.6)), each with 5-15 targets of its own.
* **An on/off program D, agonal hypoxia**: 15-22 HIF targets (``VEGFA``, ``SLC2A1``, ``BNIP3``,
  ``ADM``...) up by U(1.5, 3.0) log2 x the donor's strength U(0.7, 1.0) in every sample of the 2-4 donors
  who died slowly (Hardy 4): on in a few donors' samples, across tissues.
* **Bulk RNA-seq at high depth**: a library per sample log-uniform around a seed median of 30-90 million
  reads (x exp(N(0, 0.35))), a quarter of it in the table's genes, gene lengths log-uniform 0.8-8 kb,
  Poisson reads, the table ``log2(1 + TPM)``; no missing cells.

The table: 2500-3200 columns (100-140 listed TFs: R*'s TF targets, the lineage TFs, others; human
symbols in alphabetical order, real ones for the named genes, symbol-like ``TMEM123`` / ``C7orf45`` for
the rest) x 120-260 samples; other genes: 1-3 listed TF parents chosen hub-like, 10 % none, weights
+-U(0.3, 1.0), own noise 0.8 exp N(0, 0.3); expected TPM log-uniform in 0.5-500 (the module's and D's
5-300), amplitude (log2 sd) U(0.3, 0.8), the module's U(0.8, 1.5).

``h25m-null`` (the same seeds): the same samples, donors, tissues, TFs and genotypes, without R*'s part
(the module follows its other inputs, R*'s TF targets their own part), D off and no unlisted program on
genes. Any kept H is false (a tissue, a donor, sex, the depth). Not the same libraries and Poisson draws,
as this said until session 26: the null skips D's draws, which shifts the random stream after them (found
by session 26's helper; the code is left as it ran, the nulls are still nulls).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound), its
children against the module (overlap, hypergeometric p, enriched at p < 1e-3), R*'s listed TF targets
among them (``tfs k/n``); **D recovered** at |r(H, D)| >= 0.9. Per kept H that tracks neither R*, D nor an
unlisted program at |r| >= 0.9: ``TISSUE`` (the tissue labels explain it at R^2 >= 0.8), ``DONOR`` (the
donor labels do and the tissues do not), ``SEX`` (|r| >= 0.9 with the donor's sex), ``DEPTH`` (|r| >= 0.9
with the log library); ``FALSE``: one of those, or below |r| 0.5 with R*, D and every program and neither
gene set enriched; on the null, every kept H. An H partly on R* or D (|r| >= 0.5 with it and its gene set
enriched among the H's children) is not marked: D is donor-level (every sample of a slow-death donor), so
the donor labels explain an H near D (read on smoke seed 2590, where an H at |r(H, D)| 0.85 with all 20 of
D's genes among its 25 children was marked ``DONOR``). CPU s.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Seventeenth hold-out"; ``--seeds
2550-2554`` and ``2555-2559`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h25.py --gen h25m --seeds 2550-2559
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h25.py --gen h25m-null --seeds 2550-2559
"""

from __future__ import annotations

import atlas_names as an
import numpy as np
from bench_regulators_genome_h20 import FEMALE, MALE, _symbols, _z, design_r2, poisson_counts
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, M_RANGE, TFS, N_TISSUES, N_EXPOSED, STATES = (2500, 3200), (120, 260), (100, 140), (5, 8), (1, 2), (2, 3)
MODULE, SHARE, N_TARGET_TFS, TF_SHARE, TF_REGULON = (30, 50), (0.4, 0.7), (3, 6), (0.3, 0.6), (5, 15)
TISSUE_SD, P_TISSUE, TF_TISSUE_SD, LINEAGE_SHIFT = 1.2, 0.8, 1.0, 2.5
P_EQTL, MAF, EQTL, SEX_SHIFT = 0.2, (0.1, 0.5), (0.3, 1.0), 6.0
BASE_SD, EXPOSED, SMOKE, SMOKE_ELSE, DONOR_SD, SAMPLE_SD = 0.6, 0.8, (1.0, 1.8), 0.3, 0.5, 0.7
N_SLOW, D_SHIFT, D_STRENGTH = (2, 4), (1.5, 3.0), (0.7, 1.0)
LIB, LIB_SD, IN_TABLE, LENGTH = (30e6, 90e6), 0.35, 0.25, (800.0, 8000.0)
TPM, TARGET_TPM, AMP, MOD_AMP = (0.5, 500.0), (5.0, 300.0), (0.3, 0.8), (0.8, 1.5)
DESIGN_R2 = 0.8


def _tissues(rng: np.random.Generator) -> list[str]:
    """1-2 tissues facing smoke and the rest others, 5-8 in all."""
    exposed = [t for t, e in an.TISSUES.items() if e]
    others = [t for t, e in an.TISSUES.items() if not e]
    n = int(rng.integers(*N_TISSUES, endpoint=True))
    k = int(rng.integers(*N_EXPOSED, endpoint=True))
    return [str(t) for t in rng.choice(exposed, k, replace=False)] + [
        str(t) for t in rng.choice(others, n - k, replace=False)
    ]


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (samples x columns, log2(1 + TPM)), ``names`` (sorted), ``labels``, ``donor``,
    ``tissue`` (indices per sample), ``tissues`` (names), ``male`` (per sample), ``smoker`` (per sample),
    ``hardy`` (per sample), ``library``, ``regulators``, ``star``, ``star_name``, ``module``, ``module_tfs``
    (R*'s listed TF targets), ``drivers`` ((M, 1): D), ``targets`` ([D's genes]), ``on`` (D's samples; none
    on the null), ``factors`` (the unlisted programs), ``null``. ``n_cols``: the table width (drawn in
    2500..3200; smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 25])
    m, n_tf = int(rng.integers(*M_RANGE, endpoint=True)), int(rng.integers(*TFS, endpoint=True))
    n_cols = int(rng.integers(*COLS, endpoint=True)) if n_cols is None else n_cols
    tissues = _tissues(rng)
    w = an.design(rng, m, tissues, int(rng.integers(*N_SLOW, endpoint=True)))
    donor, tissue = w["donor"], w["tissue"]
    n_donors, n_tissues = len(w["donors"]), len(tissues)
    male, smoker, hardy = w["male"][donor], w["smoker"][donor], w["hardy"][donor]
    exposed = np.array([an.TISSUES[t] for t in tissues])
    # unlisted programs: ventilator cases, log ischemic time, RIN, age, sample states
    k_states = int(rng.integers(*STATES, endpoint=True))
    fac = np.column_stack(
        [hardy == 0, np.log(w["ischemic"]), w["rin"], w["age"][donor], rng.normal(size=(m, k_states))]
    ).astype(float)
    fac = _z(fac + 0.05 * rng.normal(size=fac.shape))
    # R*: a tissue level, smoking in the tissues facing smoke, a donor level, the sample's own part
    base = rng.normal(0.0, BASE_SD, n_tissues) + EXPOSED * exposed
    smoke = np.where(exposed, rng.uniform(*SMOKE), SMOKE_ELSE)
    star = base[tissue] + smoker * smoke[tissue] + rng.normal(0.0, DONOR_SD, n_donors)[donor]
    star = _z(star + rng.normal(0.0, SAMPLE_SD, m))
    strength = rng.uniform(*D_STRENGTH, n_donors)[donor]
    on = np.where(hardy == 4, strength, 0.0)
    # the listed TFs: R*'s TF targets, the lineage TFs of the seed's tissues, others; tissue offsets
    lineage = list(dict.fromkeys(x for t in tissues for x in an.LINEAGE.get(t, ()) if x not in an.NRF2_TF_TARGETS))
    tfs = list(an.NRF2_TF_TARGETS) + lineage
    tfs += [str(t) for t in rng.permutation([t for t in an.OTHER_TFS if t not in tfs])]
    tfs = tfs[:n_tf]
    tgt = [str(t) for t in rng.choice(list(an.NRF2_TF_TARGETS), int(rng.integers(*N_TARGET_TFS, endpoint=True)), False)]
    act = tf_activities(rng, fac, n_tf) + rng.normal(0.0, TF_TISSUE_SD, (n_tissues, n_tf))[tissue]
    for ti, t in enumerate(tissues):
        for x in an.LINEAGE.get(t, ()):
            if x in tfs:
                act[:, tfs.index(x)] += LINEAGE_SHIFT * (tissue == ti)
    at = [tfs.index(t) for t in tgt]
    tf_share = rng.uniform(*TF_SHARE, size=len(at))
    sign = np.array([an.NRF2_TF_TARGETS[t] for t in tgt])
    act = _z(act)
    act[:, at] = np.sqrt(1.0 - tf_share) * act[:, at] + (0.0 if null else np.sqrt(tf_share) * sign * star[:, None])
    act = _z(act)
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    module = [str(g) for g in rng.choice(an.NRF2_MODULE, n_mod, replace=False)]
    d_names = list(an.HYPOXIA)[: int(rng.integers(15, 23))]
    sex_names = list(FEMALE + MALE)
    taken = set(an.NRF2_MODULE) | set(an.HYPOXIA) | set(tfs) | set(sex_names) | {an.STAR}
    other = _symbols(rng, n_cols - n_tf - n_mod - len(d_names) - len(sex_names), taken)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()

    def parents_term(n_pa: int) -> np.ndarray:
        pick = rng.choice(n_tf, n_pa, False, hub)
        return act[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))

    sig, names, kinds = [], [], []
    for group, gnames in (("mod", module), ("d", d_names), ("sex", sex_names), ("rest", other), ("tf", tfs)):
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
    # log2 levels: TPM, amplitude, tissue offsets, eQTLs, sex, D's shift; then Poisson reads at high depth
    mrng = np.random.default_rng([seed, 25, 3])
    named = (kinds == "mod") | (kinds == "d")
    tpm = np.exp(np.where(named, mrng.uniform(*np.log(TARGET_TPM), n), mrng.uniform(*np.log(TPM), n)))
    amp = np.where(kinds == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    v = np.log2(tpm) + amp * sig
    v = v + np.where(mrng.random(n) < P_TISSUE, mrng.normal(0.0, TISSUE_SD, (n_tissues, n)), 0.0)[tissue]
    maf = mrng.uniform(*MAF, n)
    dosage = (mrng.random((n_donors, n)) < maf).astype(float) + (mrng.random((n_donors, n)) < maf)
    effect = np.where(mrng.random(n) < P_EQTL, mrng.uniform(*EQTL, n) * mrng.choice([-1.0, 1.0], n), 0.0)
    v = v + (dosage * effect)[donor]
    sex_at = np.flatnonzero(kinds == "sex")
    v[:, sex_at[0]] += SEX_SHIFT * (1.0 - male) - 2.0
    v[:, sex_at[1:]] += SEX_SHIFT * male[:, None] - 2.0
    v[:, kinds == "d"] += 0.0 if null else on[:, None] * mrng.uniform(*D_SHIFT, int(np.sum(kinds == "d")))
    length = np.exp(mrng.uniform(*np.log(LENGTH), n))
    lib = np.exp(mrng.uniform(*np.log(LIB)) + LIB_SD * mrng.normal(size=m))
    p = 2.0**v * length
    p /= p.sum(axis=1, keepdims=True)
    counts = poisson_counts(IN_TABLE * lib[:, None] * p, np.random.default_rng([seed, 25, 4]).random((m, n)))
    rate = counts / length
    y = np.log2(1.0 + 1e6 * rate / rate.sum(axis=1, keepdims=True))
    order = np.argsort(names)
    regulators = list(tfs)
    np.random.default_rng([seed, 25, 2]).shuffle(regulators)
    return {
        "values": y[:, order],
        "names": [names[i] for i in order],
        "labels": w["label"],
        "donor": donor,
        "tissue": tissue,
        "tissues": tissues,
        "male": male,
        "smoker": smoker,
        "hardy": hardy,
        "library": counts.sum(axis=1),
        "regulators": regulators,
        "star": star,
        "star_name": an.STAR,
        "module": set(module),
        "module_tfs": set(tgt),
        "drivers": on[:, None],
        "targets": [set(d_names)],
        "on": [] if null else [w["label"][i] for i in np.flatnonzero(on)],
        "factors": fac,
        "null": null,
    }


def design_reading(prof: np.ndarray, g: dict) -> dict[str, float]:
    """What a kept H's profile could rest on in the design: the R^2 of the tissue and donor labels on it,
    its |r| with the donor's sex and with the log library."""
    return {
        "tissue": design_r2(prof, g["tissue"]),
        "donor": design_r2(prof, g["donor"]),
        "sex": abs(float(np.corrcoef(prof, g["male"])[0, 1])),
        "depth": abs(float(np.corrcoef(prof, np.log(g["library"]))[0, 1])),
    }


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``TISSUE``, ``DONOR``, ``SEX``, ``DEPTH`` for a kept H that tracks neither R*, D nor an unlisted
    program."""
    if max(h.r) >= TRACK:
        return []
    d = design_reading(prof, g)
    out = ["TISSUE"] if d["tissue"] >= DESIGN_R2 else (["DONOR"] if d["donor"] >= DESIGN_R2 else [])
    out += ["SEX"] if d["sex"] >= TRACK else []
    return out + (["DEPTH"] if d["depth"] >= TRACK else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on a tissue, a donor, sex or the depth), ``flagged``, ``cpu``)."""
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
        # an H partly on R* or D (|r| >= 0.5) with that one's genes enriched among its children is not read
        # on the design: D is donor-level here (all of a slow-death donor's samples), so the donor labels
        # explain an H near D whatever it rests on
        partly = (p < ENRICHED and h.r[0] >= NOTHING) or (in_d and h.r[1] >= NOTHING)
        marks = [] if partly else _marks(h, prof, g)
        false = g["null"] or bool(marks) or (max(h.r) < NOTHING and not planted)
        t["false"] += false
        t["marks"] += bool(marks)
        d = design_reading(prof, g)
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={max(h.r[2:]):.2f} "
            f"tissue R2 {d['tissue']:.2f} donor R2 {d['donor']:.2f} rSex={d['sex']:.2f} "
            f"rDepth={d['depth']:.2f}{''.join(' ' + x for x in marks)}{' FALSE' if false else ''} "
            f"module {overlap} (p {p:.1e}) tfs {len(h.children & g['module_tfs'])} in-D={len(h.children & tg)} "
            f"Δscore {h.gain:+.1f} <- {','.join(h.parents) or '-'} "
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
        f"seed {seed} M {len(g['labels'])} tissues {len(g['tissues'])} donors {int(g['donor'].max()) + 1} "
        f"cols {len(g['names'])} listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D recovered,
    the kept and false Hs, the marked ones (tissue, donor, sex, depth), the flags and the median CPU."""
    return genome_summary(name, tallies, "a tissue, a donor, sex or the depth", TRACK, CPU_LIMIT, ENRICHED)


def main(argv: list[str] | None = None) -> None:
    tally_main("h25m", "2550-2559", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
