"""A genome-scale hold-out for #22: HAP1 removed from a yeast segregant panel (BY x RM, eQTL arrays).

The twenty-eighth session's genome hold-out ``h28m`` (seeds 2850-2859), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2890-2899 are free for smoke tests of the sampling. Its own sampling code (ORF names, genome
positions and the row design in ``segregant_names.py``). **A segregant panel** (Brem and Kruglyak 2005:
the haploid offspring of a cross between the lab strain BY4716 and the vineyard isolate RM11-1a, grown
alike and each profiled on two-colour arrays against a BY reference) is how eQTL labs map regulators, and
no seen genome generator (module, null, outlier, two, pulse, batch, relay, cascade, hubs, slots,
stability, h16m-h27m) has its structure: **every row is a genotype, not a treatment** (no design to read:
the rows differ by which parent's allele they carry at each locus), **every locus is binary and linked
ORFs share their allele** (a third of the genes have a local eQTL, so the genes of one chromosome region
move together in blocks, a cluster with no regulator behind it), **trans hotspots** move dozens of genes
with one locus (``AMN1``, ``MKT1``, ``IRA2``, ``GPA1`` and the mating type), the values are **log2 ratios
against the BY parent** (BY's own arrays read about 0; auxotrophic markers the reference lacks read far
off), and a few segregants are **disomic** for a chromosome (its every gene up) or **petite** (no
mitochondrial DNA: the retrograde response on); ``h23m``'s knockouts and ``h26m``'s knockdowns were
single genes put out by hand, not half the genome at random.

* **Rows.** 2-4 arrays of each parent (``BY_rep1``, ``RM_rep2``), then 95-240 segregants labelled tetrad,
  spore (``47_2_c``; one per tetrad, a full tetrad now and then), hybridised in batches of 16-24 arrays in
  that order: M 99-248. A segregant's genotype: one meiosis, crossovers at 0.72 cM an ORF (Haldane) along
  the chromosome an ORF's name places it on.
* **Programs (unlisted).** The genotypes at five hotspots (``AMN1``, ``MKT1``, ``IRA2``, ``GPA1``, the
  mating-type locus ``MAT``) and the growth rate (20-40 loci of small effect + the culture's own part).
  Mixed into the listed TFs' activities (``pulse``'s mixing); ``ACE2`` follows AMN1, ``STE12`` GPA1,
  ``MSN2`` and ``MSN4`` IRA2, ``SFP1`` growth at +-U(1.0, 2.0); a program on 30 % of the genes at
  +-U(0.3, 0.7); a hotspot's named targets (the daughter-separation genes ``DSE1``, ``DSE2``, ``CTS1``...
  for AMN1, the pheromone genes ``FUS1``, ``FIG1``... for GPA1, the a- and alpha-specific genes for MAT)
  +-U(1.0, 2.5) log2 with the RM allele (MAT's U(2, 4)).
* **R* = HAP1 (YLR256W; removed from the table and the list)**: BY's allele is weak (a Ty1 insertion), so
  its activity is its genotype, a share U(0.45, 0.7), + the culture's heme and oxygen (N(0, 1), + growth
  at U(0.2, 0.5)); standardized. It induces a **30-50 gene module** (``ERG11``, ``ERG3``, ``ERG25``,
  ``HMG1``, ``CYC1``, ``CYC7``, ``CTA1``... and unnamed ORFs; R* a share U(0.4, 0.7) of each gene's
  signal) and **3-6 listed TFs** (``ROX1``, ``HAP4``, ``UPC2``, ``ECM22``, ``SUT1``, ``MOT3``, ``MGA2``;
  a share U(0.3, 0.6)), each with 5-15 targets of its own. The ORFs linked to HAP1 on chromosome XII
  share its allele without being its targets.
* **An on/off program D, the retrograde response of petite segregants**: 15-22 genes (``CIT2``,
  ``DLD3``, ``IDP2``, ``IDH1``, ``ACO1``...; none listed) up by U(1.5, 3.0) log2 x U(0.6, 1.0) in the 3-8
  % of the segregants that lost their mitochondrial DNA; ``RTG1`` and ``RTG3`` are listed and follow
  nothing (the response moves their proteins, not their mRNA).
* **Arrays.** A gene's level ``amplitude x signal + its local eQTL + hotspot and marker terms + disomy``
  (amplitude U(0.15, 0.5), the module's U(0.6, 1.2); a local eQTL on 30 % of the genes, +-log-uniform
  0.1-0.8 log2 with the RM allele; ``LEU2`` and ``URA3`` -U(3, 5) and ``LYS2`` +U(3, 5) with it; a
  disomic segregant's chromosome + U(0.7, 1.0)); the table is that level less the BY arrays' mean (the
  reference), + a batch offset N(0, U(0.05, 0.15)) per batch and gene, + the dye-swap pair's noise
  N(0, sd) with sd U(0.08, 0.15) x sqrt(1 + 2^(8 - A)) at the gene's intensity A U(6, 14) log2; no
  missing cells.

The table: 2500-3200 columns (ORF names, sorted; 100-140 listed TFs: R*'s TF targets, the named ones,
real TF ORFs, synthetic others) x M rows; other genes: 1-3 listed TF parents chosen hub-like, 10 % none,
weights +-U(0.3, 1.0), own noise 0.8 exp N(0, 0.3).

``h28m-null`` (the same seeds): the same rows, genotypes, programs, TFs, local eQTLs, markers, disomies,
batches and noise draws, without R*'s part (the module follows its other inputs, R*'s TF targets their
own part), D off and no program or hotspot directly on genes (the programs still reach genes through the
listed TFs). Any kept H is false (a linkage block, a batch, one array).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound), its
children against the module (overlap, hypergeometric p, enriched at p < 1e-3), R*'s listed TF targets
among them (``tfs k/n``); **D recovered** at |r(H, D)| >= 0.9. Per kept H that tracks neither R*, D nor a
program (a hotspot's genotype, growth) at |r| >= 0.9: ``LOCUS X`` (the genotype at one ORF X of the
table explains it at R^2 >= 0.8: a linkage block), ``BATCH`` (the batches do), ``ROW`` (|r| >= 0.9 with
one row, named); ``FALSE``: one of those, or below |r| 0.5 with R*, D and every program and neither gene
set enriched; on the null, every kept H. An H partly on R* or D (|r| >= 0.5 with it and its gene set
enriched among the H's children) is not marked. A kept H's entry ends ``ACTIVITY X`` when the report reads
it as listed TF X's activity. CPU s.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Twentieth hold-out"; ``--seeds
2850-2854`` and ``2855-2859`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h28.py --gen h28m --seeds 2850-2859
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h28.py --gen h28m-null --seeds 2850-2859
"""

from __future__ import annotations

import numpy as np
import segregant_names as sn
import yeast_names as yn
from bench_regulators_genome_h20 import _z, design_r2
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, TFS, MODULE, SHARE = (2500, 3200), (100, 140), (30, 50), (0.4, 0.7)
N_TARGET_TFS, TF_SHARE, TF_REGULON, FOLLOW = (3, 6), (0.3, 0.6), (5, 15), (1.0, 2.0)
GENO_SHARE, GROWTH_PULL, GROWTH_LOCI = (0.45, 0.7), (0.2, 0.5), (20, 40)
HOT_EFFECT, MAT_EFFECT, MARKER, DISOMY = (1.0, 2.5), (2.0, 4.0), (3.0, 5.0), (0.7, 1.0)
D_SHIFT, D_ON, N_D = (1.5, 3.0), (0.6, 1.0), (15, 22)
AMP, MOD_AMP, CIS_SHARE, CIS = (0.15, 0.5), (0.6, 1.2), 0.3, (0.1, 0.8)
BATCH_SD, NOISE, INTENSITY = (0.05, 0.15), (0.08, 0.15), (6.0, 14.0)
DESIGN_R2 = 0.8


def _star(rng: np.random.Generator, geno: np.ndarray, growth: np.ndarray) -> np.ndarray:
    """HAP1's activity: its genotype (a share), the culture's heme and oxygen with a pull of growth."""
    share, pull = rng.uniform(*GENO_SHARE), rng.uniform(*GROWTH_PULL)
    env = _z(pull * growth + np.sqrt(1.0 - pull * pull) * rng.normal(size=len(growth)))
    return _z(np.sqrt(share) * _z(geno.astype(float)) + np.sqrt(1.0 - share) * env)


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (rows x columns, log2 ratios against BY), ``names`` (ORFs, sorted), ``labels``,
    ``kind`` (0 BY, 1 RM, 2 segregant), ``batch``, ``disomy``, ``petite``, ``genotype`` ((M, columns) 0/1
    at each column's ORF), ``regulators``, ``star``, ``star_name``, ``star_genotype`` (HAP1's allele),
    ``module``, ``module_tfs`` (R*'s listed TF targets), ``drivers`` ((M, 1): D), ``targets`` ([D's
    genes]), ``on`` (D's rows; none on the null), ``factors`` (the hotspots' genotypes and growth,
    standardized), ``factor_names``, ``null``. ``n_cols``: the table width (drawn in 2500..3200; smoke
    tests use a smaller one)."""
    rng = np.random.default_rng([seed, 28])
    n_tf = int(rng.integers(*TFS, endpoint=True))
    n_cols = int(rng.integers(*COLS, endpoint=True)) if n_cols is None else n_cols
    w = sn.design(rng)
    m = len(w["label"])
    # the listed TFs: R*'s TF targets, the named ones, real TF ORFs, synthetic others
    named = list(sn.STAR_TF_TARGETS) + list(sn.FOLLOWS)
    fixed = [g for _, tg in sn.HOTSPOTS.values() for g in tg] + list(sn.MARKERS)
    taken = set(sn.MODULE) | set(sn.RETROGRADE) | set(named) | set(fixed) | set(sn.COMMON)
    real = [t for t in (*yn.OTHER_TFS, *yn.CC_TFS, *yn.R_TARGET_TFS) if t not in taken]
    taken |= set(real)
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    module = [str(g) for g in rng.choice(sn.MODULE, n_mod, replace=False)]
    d_names = [str(g) for g in rng.permutation(list(sn.RETROGRADE))[: int(rng.integers(*N_D, endpoint=True))]]
    tfs = named + real[: n_tf - len(named)]
    tfs += sn.orfs(rng, n_tf - len(tfs), taken)
    other = fixed + sn.orfs(rng, n_cols - n_tf - n_mod - len(d_names) - len(fixed), taken | set(tfs))
    # genotypes at every column's ORF, the hotspots, HAP1 and the growth loci
    cols = module + d_names + other + tfs
    loci = cols + [sn.STAR] + list(sn.HOTSPOTS)
    geno = sn.genotypes(rng, loci, w["kind"])
    at = {x: i for i, x in enumerate(loci)}
    growth_loci = rng.choice(len(cols), int(rng.integers(*GROWTH_LOCI, endpoint=True)), replace=False)
    growth = _z(geno[:, growth_loci] @ rng.normal(size=len(growth_loci)) + 2.0 * rng.normal(size=m))
    fac = _z(np.column_stack([geno[:, at[x]] for x in sn.HOTSPOTS] + [growth]) + 0.01 * rng.normal(size=(m, 6)))
    fac_names = [v[0] for v in sn.HOTSPOTS.values()] + ["growth"]
    star = _star(rng, geno[:, at[sn.STAR]], growth)
    on = np.where(w["petite"], rng.uniform(*D_ON, m), 0.0)
    # TF activities: programs mixed in, the named TFs following theirs, R*'s part on its targets
    act = tf_activities(rng, fac, n_tf)
    for j, t in enumerate(tfs[: len(named)]):
        f = sn.FOLLOWS.get(t, ("", ""))[1]
        if f:
            act[:, j] += rng.uniform(*FOLLOW) * rng.choice([-1.0, 1.0]) * fac[:, fac_names.index(f)]
    tgt = [str(t) for t in rng.choice(list(sn.STAR_TF_TARGETS), int(rng.integers(*N_TARGET_TFS, endpoint=True)), False)]
    at_tf = [tfs.index(t) for t in tgt]
    tf_share = rng.uniform(*TF_SHARE, size=len(at_tf))
    act = _z(act)
    act[:, at_tf] = np.sqrt(1.0 - tf_share) * act[:, at_tf] + (0.0 if null else np.sqrt(tf_share) * star[:, None])
    act = _z(act)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()

    def parents_term(n_pa: int) -> np.ndarray:
        pick = rng.choice(n_tf, n_pa, False, hub)
        return act[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))

    sig, kinds = [], []
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
            kinds.append(group)
    sig, kinds = np.column_stack(sig), np.array(kinds)
    n = len(cols)
    for a in at_tf:  # each of R*'s TF targets has its own 5-15 targets among the rest
        genes = rng.choice(np.flatnonzero(kinds == "rest"), int(rng.integers(*TF_REGULON, endpoint=True)), False)
        sig[:, genes] += (rng.uniform(0.5, 1.0, len(genes)) * rng.choice([-1.0, 1.0], len(genes))) * act[:, [a]]
    # the arrays: amplitude, local eQTLs, hotspots' targets, markers, D, disomies; less BY; batch, noise
    mrng = np.random.default_rng([seed, 28, 3])
    amp = np.where(kinds == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    cis = np.where(mrng.random(n) < CIS_SHARE, np.exp(mrng.uniform(*np.log(CIS), n)) * mrng.choice([-1.0, 1.0], n), 0.0)
    g_cols = geno[:, :n].astype(float)
    level = amp * sig + cis * g_cols
    for locus, (hot, targets) in sn.HOTSPOTS.items():
        for gene, sign in targets.items():
            size = mrng.uniform(*(MAT_EFFECT if hot == "MAT" else HOT_EFFECT))  # drawn on the null too
            level[:, cols.index(gene)] += 0.0 if null else sign * size * geno[:, at[locus]]
    for locus, sign in sn.MARKERS.items():
        level[:, cols.index(locus)] += sign * mrng.uniform(*MARKER) * geno[:, at[locus]]
    d_shift = mrng.uniform(*D_SHIFT, int(np.sum(kinds == "d")))
    level[:, kinds == "d"] += 0.0 if null else on[:, None] * d_shift
    chrom = np.array([sn.position(x)[0] for x in cols])
    for i in np.flatnonzero(w["disomy"] != ""):
        level[i, chrom == w["disomy"][i]] += mrng.uniform(*DISOMY)
    level -= level[w["kind"] == 0].mean(axis=0)  # the BY reference
    level += mrng.normal(0.0, mrng.uniform(*BATCH_SD), (int(w["batch"].max()) + 1, n))[w["batch"]]
    sd = mrng.uniform(*NOISE) * np.sqrt(1.0 + 2.0 ** (8.0 - mrng.uniform(*INTENSITY, n)))
    y = level + mrng.normal(size=(m, n)) * sd
    order = np.argsort(cols)
    regulators = list(tfs)
    np.random.default_rng([seed, 28, 2]).shuffle(regulators)
    return {
        "values": y[:, order],
        "names": [cols[i] for i in order],
        "labels": w["label"],
        "kind": w["kind"],
        "batch": w["batch"],
        "disomy": w["disomy"],
        "petite": w["petite"],
        "genotype": geno[:, order],
        "regulators": regulators,
        "star": star,
        "star_name": sn.STAR,
        "star_genotype": geno[:, at[sn.STAR]],
        "module": set(module),
        "module_tfs": set(tgt),
        "drivers": on[:, None],
        "targets": [set(d_names)],
        "on": [] if null else [w["label"][i] for i in np.flatnonzero(on)],
        "factors": fac,
        "factor_names": fac_names,
        "null": null,
    }


def design_reading(prof: np.ndarray, g: dict) -> dict:
    """What a kept H's profile could rest on in the panel: the best R^2 of one column's genotype on it and
    that ORF, the batches' R^2, and its best |r| with one row's indicator (|z_i| / sqrt(M - 1)) and that
    row's label."""
    z = _z(np.asarray(prof, dtype=float))
    geno = g["genotype"].astype(float)
    sd = geno.std(axis=0)
    r = np.where(sd > 0, (z @ (geno - geno.mean(axis=0))) / (len(z) * np.where(sd > 0, sd, 1.0)), 0.0)
    locus, best = int(np.argmax(r * r)), int(np.argmax(np.abs(z)))
    return {
        "locus": float(r[locus] ** 2),
        "locus_name": g["names"][locus],
        "batch": design_r2(prof, g["batch"]),
        "row": float(abs(z[best]) / np.sqrt(len(z) - 1.0)),
        "row_label": g["labels"][best],
    }


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``LOCUS X``, ``BATCH``, ``ROW`` for a kept H that tracks neither R*, D nor a program."""
    if max(h.r) >= TRACK:
        return []
    d = design_reading(prof, g)
    out = [f"LOCUS {d['locus_name']}"] if d["locus"] >= DESIGN_R2 else []
    out += ["BATCH"] if d["batch"] >= DESIGN_R2 else []
    return out + ([f"ROW {d['row_label']}"] if d["row"] >= TRACK else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on a linkage block, the batches or one row), ``flagged``, ``cpu``)."""
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
            f"({g['factor_names'][best_f]}) locus R2 {d['locus']:.2f} ({d['locus_name']}) batch R2 {d['batch']:.2f} "
            f"rRow={d['row']:.2f}{''.join(' ' + x for x in marks)}"
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
        f"seed {seed} M {len(g['labels'])} parents {int(np.sum(g['kind'] < 2))} batches {int(g['batch'].max()) + 1} "
        f"cols {len(g['names'])} listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D
    recovered, the kept and false Hs, the marked ones (a linkage block, the batches, one array), the flags
    and the median CPU."""
    return genome_summary(name, tallies, "a linkage block, the batches or one array", TRACK, CPU_LIMIT, ENRICHED)


def main(argv: list[str] | None = None) -> None:
    tally_main("h28m", "2850-2859", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
