"""A genome-scale hold-out for #22: TP53 removed from a human cell-line drug screen (CMap / DRUG-seq-like).

The twenty-fourth session's genome hold-out ``h24m`` (seeds 2450-2459), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2490 and up are free for smoke tests of the sampling. Its own sampling code (names, cell lines,
compounds and the plate layout in ``screen_names.py``). A **perturbation screen** is how much human
expression data is made today (the Connectivity Map, LINCS, DRUG-seq, sci-Plex): a few cell lines,
dozens of compounds at several doses, plate after plate with DMSO controls. No seen genome generator
(module, null, outlier, two, pulse, batch, relay, cascade, hubs, slots, stability, h16m-h23m) has its
structure: the strongest axis is **the cell line**, and the removed regulator's activity is **an
interaction of the line's genotype with the drug** (p53 answers DNA damage only where it is functional):

* **Cell lines as offsets.** 4-8 lines (2 or more with functional p53, 2 or more without: mutant,
  null or inactivated), 16 or more wells each; every gene's level moves by N(0, 1) log2 per line on
  70 % of the genes, every listed TF's activity by N(0, 1) per line (its targets follow).
* **Plates.** Each plate (16-48 wells) holds one line at one time point (6 or 24 h), 3-4 DMSO wells
  and compounds of the line's panel at one of six doses (0.04-10 uM); per plate 40 % of the genes
  offset by N(0, s), s U(0.1, 0.3), and its wells' depth x exp(N(0, 0.3)) (``DSQ012_MCF7_24H:K13``).
* **Compounds.** 16-30 of 41 real ones in nine mechanism classes (DNA damage, MDM2 inhibitors, HDAC,
  proteasome, HSP90, mTOR, CDK4/6, kinase inhibitors, glucocorticoids), 2 or more DNA-damaging, 1 or more
  MDM2 inhibitor, 1 or more proteasome or HSP90 inhibitor; each a dose response ``dose^n / (EC50^n +
  dose^n)`` (EC50 log-uniform 0.1-3 uM, n U(1, 2)) times a potency U(0.5, 1.0), x 0.7 at 6 h; each class
  an unlisted program (a factor on genes and, through ``pulse``'s mixing, on the listed TFs), the
  glucocorticoids on ``NR3C1``'s activity.
* **R* = p53 (``TP53``, removed from the table and the list)**: in a line with functional p53, a basal
  level N(0, 0.3) + the compound class's p53 potency (DNA damage U(1.0, 2.0), MDM2 inhibitors U(1.8,
  2.5), HDAC and proteasome up to 0.5) x its response + N(0, 0.25) per well; in a line without, a flat
  floor -0.7 + N(0, 0.1) (no transcriptional activity whatever the drug); then standardized. It
  induces a **30-48 gene module** of named direct targets (``CDKN1A``, ``MDM2``, ``BAX``, ``GDF15``...;
  R* a share U(0.4, 0.7) of each gene's signal) and **3-6 listed TFs** (``ATF3``, ``E2F7``, ``KLF4``
  induced; ``FOXM1``, ``MYBL2``, ``E2F1`` repressed through p21-DREAM; a share U(0.3, 0.6)), each with
  5-15 targets of its own.
* **An on/off program D, the heat-shock response**: 15-22 genes (``HSPA1A``, ``DNAJB1``, ``BAG3``...) up by
  U(2, 4) log2 in the proteasome and HSP90 inhibitor wells at 1.11 uM or more.
* **Plate-based 3' RNA-seq at low depth**: Poisson reads on a library per well log-uniform around a
  seed median of 0.3-2 million (x exp(N(0, 0.4))), the table ``log2(1 + CPM)``; no missing cells.

The table: 2500-3200 columns (100-140 listed TFs: R*'s TF targets, ``NR3C1`` and others; human symbols
in alphabetical order) x 120-280 wells; other genes: 1-3 listed TF parents chosen hub-like, 10 % none,
weights +-U(0.3, 1.0), 30 % one unlisted program at +-U(0.3, 0.7), own noise 0.8 exp N(0, 0.3); expected
CPM log-uniform in 2-1000 (the module's and D's 8-500), amplitude (log2 sd) U(0.3, 0.8), the module's
U(0.8, 1.5).

``h24m-null`` (the same seeds): the same wells, lines, plates, compounds and TFs, without R*'s part (the
module follows its other inputs, R*'s TF targets their own part), D off and no unlisted program on genes.
Any kept H is false (a cell line, a plate, one compound's wells). Not the same libraries and Poisson draws,
as this said until session 26: the null skips D's draws, which shifts the random stream after them (found
by session 26's helper; the code is left as it ran, the nulls are still nulls).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound), its
children against the module (overlap, hypergeometric p, enriched at p < 1e-3), R*'s listed TF targets
among them (``tfs k/n``); **D recovered** at |r(H, D)| >= 0.9. Per kept H that tracks neither R*, D nor an
unlisted program at |r| >= 0.9: ``LINE`` (the cell-line labels explain it at R^2 >= 0.8), ``PLATE`` (the
plate labels do and the lines do not), ``COMPOUND`` (|r| >= 0.9 with one compound's wells), ``DEPTH``
(|r| >= 0.9 with the log library); ``FALSE``: one of those, or below |r| 0.5 with R*, D and every program
and neither gene set enriched; on the null, every kept H. CPU s.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Sixteenth hold-out"; ``--seeds
2450-2454`` and ``2455-2459`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h24.py --gen h24m --seeds 2450-2459
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h24.py --gen h24m-null --seeds 2450-2459
"""

from __future__ import annotations

import numpy as np
import screen_names as sn
from bench_regulators_genome_h20 import _symbols, _z, design_r2, poisson_counts
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, M_RANGE, TFS, LINES, CPDS, STATES = (2500, 3200), (120, 280), (100, 140), (4, 8), (16, 30), (2, 3)
MODULE, SHARE, N_TARGET_TFS, TF_SHARE, TF_REGULON = (30, 48), (0.4, 0.7), (3, 6), (0.3, 0.6), (5, 15)
LINE_SD, P_LINE, PLATE_SD, P_PLATE, DEPTH_SD = 1.0, 0.7, (0.1, 0.3), 0.4, 0.3
EC50, HILL_N, POTENCY, EARLY = (0.1, 3.0), (1.0, 2.0), (0.5, 1.0), 0.7
BASAL_SD, WELL_SD, FLOOR, FLOOR_SD, D_SHIFT, D_DOSE = 0.3, 0.25, -0.7, 0.1, (2.0, 4.0), 1.11
LIB, LIB_SD, CPM, TARGET_CPM, AMP, MOD_AMP = (0.3e6, 2e6), 0.4, (2.0, 1000.0), (8.0, 500.0), (0.3, 0.8), (0.8, 1.5)
DESIGN_R2 = 0.8


def _design(rng: np.random.Generator, m: int) -> tuple[list[str], list[str], dict]:
    """The seed's lines (2+ with functional p53, 2+ without), compounds (2+ DNA damage, 1+ MDM2, 1+
    proteasome or HSP90 inhibitor) and the wells (:func:`screen_names.layout`)."""
    wt = [x for x, ok in sn.CELL_LINES.items() if ok]
    mut = [x for x, ok in sn.CELL_LINES.items() if not ok]
    n_lines = int(rng.integers(*LINES, endpoint=True))
    lines = [str(x) for x in rng.choice(wt, 2, replace=False)] + [str(x) for x in rng.choice(mut, 2, replace=False)]
    rest = [x for x in sn.CELL_LINES if x not in lines]
    lines += [str(x) for x in rng.choice(rest, n_lines - 4, replace=False)]
    by = {c: [x for x, k in sn.COMPOUNDS.items() if k == c] for c in sn.CLASSES}
    cpds = [str(x) for x in rng.choice(by["dna"], 2, replace=False)] + [str(rng.choice(by["mdm2"]))]
    cpds.append(str(rng.choice(by["proteasome"] + by["hsp90"])))
    others = [x for x in sn.COMPOUNDS if x not in cpds]
    cpds += [str(x) for x in rng.choice(others, int(rng.integers(*CPDS, endpoint=True)) - 4, replace=False)]
    w = sn.layout(rng, m, lines, cpds)
    heat = np.isin(w["compound"], cpds[3:4]) & (w["dose"] >= D_DOSE)
    if heat.sum() < 2:  # the heat-shock program on in 2 wells at least: the inhibitor's top doses
        wells = rng.choice(np.flatnonzero(w["compound"] != "DMSO"), 2 - int(heat.sum()), replace=False)
        w["compound"][wells], w["dose"][wells] = cpds[3], sn.DOSES[-1]
    return lines, cpds, w


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (wells x columns, log2(1 + CPM)), ``names`` (sorted), ``labels``, ``line``,
    ``plate``, ``time``, ``compound``, ``dose`` (per well), ``lines`` (names), ``functional`` (per well:
    the line's p53 works), ``library``, ``regulators``, ``star``, ``star_name``, ``module``, ``module_tfs``
    (R*'s listed TF targets), ``drivers`` ((M, 1): D), ``targets`` ([D's genes]), ``on`` (D's wells; none on
    the null), ``factors`` (the class programs and cell states), ``null``. ``n_cols``: the table width
    (drawn in 2500..3200; smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 24])
    m, n_tf = int(rng.integers(*M_RANGE, endpoint=True)), int(rng.integers(*TFS, endpoint=True))
    n_cols = int(rng.integers(*COLS, endpoint=True)) if n_cols is None else n_cols
    lines, cpds, w = _design(rng, m)
    line, cpd, dose = w["line"], w["compound"], w["dose"]
    functional = np.array([sn.CELL_LINES[lines[i]] for i in line])
    n_lines, n_plates = len(lines), int(w["plate"].max()) + 1
    # each compound's response per well: potency x Hill(dose), x 0.7 at 6 h
    resp = np.zeros(m)
    p53 = {}
    for c in cpds:
        ec50, n = np.exp(rng.uniform(*np.log(EC50))), rng.uniform(*HILL_N)
        at = cpd == c
        resp[at] = rng.uniform(*POTENCY) * dose[at] ** n / (ec50**n + dose[at] ** n)
        p53[c] = rng.uniform(*sn.CLASSES[sn.COMPOUNDS[c]][0])
    resp *= np.where(w["time"] == 6, EARLY, 1.0)
    kind = np.array([sn.COMPOUNDS.get(c, "") for c in cpd])
    classes = sorted({sn.COMPOUNDS[c] for c in cpds})
    k_states = int(rng.integers(*STATES, endpoint=True))
    fac = np.column_stack([resp * (kind == c) for c in classes] + [rng.normal(size=(m, k_states))])
    fac = _z(fac + 0.05 * rng.normal(size=fac.shape))
    # R*: basal per functional line + the drug's p53 push; a flat floor where p53 does not work
    basal = rng.normal(0.0, BASAL_SD, n_lines)[line]
    push = np.array([p53.get(c, 0.0) for c in cpd]) * resp
    star = np.where(functional, basal + push + rng.normal(0.0, WELL_SD, m), FLOOR + rng.normal(0.0, FLOOR_SD, m))
    star = _z(star)
    heat = np.array([sn.CLASSES.get(k, ((0, 0), False))[1] for k in kind])
    on = (heat & (dose >= D_DOSE)).astype(float)
    # the listed TFs: R*'s TF targets (3-6 driven by R* on this seed), NR3C1, others; line offsets
    tfs = list(sn.P53_TF_TARGETS) + [str(t) for t in rng.permutation(sn.OTHER_TFS)]
    tfs = tfs[:n_tf]
    tgt = [str(t) for t in rng.choice(list(sn.P53_TF_TARGETS), int(rng.integers(*N_TARGET_TFS, endpoint=True)), False)]
    act = tf_activities(rng, fac, n_tf) + rng.normal(0.0, 1.0, (n_lines, n_tf))[line]
    if "NR3C1" in tfs and "steroid" in classes:
        act[:, tfs.index("NR3C1")] += 2.0 * fac[:, classes.index("steroid")]
    at = [tfs.index(t) for t in tgt]
    tf_share = rng.uniform(*TF_SHARE, size=len(at))
    sign = np.array([sn.P53_TF_TARGETS[t] for t in tgt])
    act = _z(act)
    act[:, at] = np.sqrt(1.0 - tf_share) * act[:, at] + (0.0 if null else np.sqrt(tf_share) * sign * star[:, None])
    act = _z(act)
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    module = [str(g) for g in rng.choice(sn.P53_MODULE, n_mod, replace=False)]
    d_names = list(sn.HEAT_SHOCK)[: int(rng.integers(15, 23))]
    taken = set(sn.P53_MODULE) | set(sn.HEAT_SHOCK) | set(tfs) | {sn.STAR}
    other = _symbols(rng, n_cols - n_tf - n_mod - len(d_names), taken)
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
    # log2 levels: CPM, amplitude, line and plate offsets, D's shift; then Poisson reads at low depth
    mrng = np.random.default_rng([seed, 24, 3])
    named = (kinds == "mod") | (kinds == "d")
    cpm = np.exp(np.where(named, mrng.uniform(*np.log(TARGET_CPM), n), mrng.uniform(*np.log(CPM), n)))
    amp = np.where(kinds == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    v = np.log2(cpm) + amp * sig
    v = v + np.where(mrng.random(n) < P_LINE, mrng.normal(0.0, LINE_SD, (n_lines, n)), 0.0)[line]
    plate_off = mrng.normal(0.0, mrng.uniform(*PLATE_SD), (n_plates, n))
    v = v + np.where(mrng.random(n) < P_PLATE, plate_off, 0.0)[w["plate"]]
    v[:, kinds == "d"] += 0.0 if null else on[:, None] * mrng.uniform(*D_SHIFT, int(np.sum(kinds == "d")))
    lib = np.exp(mrng.uniform(*np.log(LIB)) + DEPTH_SD * mrng.normal(size=n_plates)[w["plate"]])
    lib = lib * np.exp(LIB_SD * mrng.normal(size=m))
    p = 2.0**v
    p /= p.sum(axis=1, keepdims=True)
    counts = poisson_counts(lib[:, None] * p, np.random.default_rng([seed, 24, 4]).random((m, n)))
    total = counts.sum(axis=1)
    y = np.log2(1.0 + 1e6 * counts / total[:, None])
    order = np.argsort(names)
    regulators = list(tfs)
    np.random.default_rng([seed, 24, 2]).shuffle(regulators)
    return {
        "values": y[:, order],
        "names": [names[i] for i in order],
        "labels": w["label"],
        "line": line,
        "plate": w["plate"],
        "time": w["time"],
        "compound": cpd,
        "dose": dose,
        "lines": lines,
        "functional": functional,
        "library": total,
        "regulators": regulators,
        "star": star,
        "star_name": sn.STAR,
        "module": set(module),
        "module_tfs": set(tgt),
        "drivers": on[:, None],
        "targets": [set(d_names)],
        "on": [] if null else [w["label"][i] for i in np.flatnonzero(on)],
        "factors": fac,
        "null": null,
    }


def design_reading(prof: np.ndarray, g: dict) -> dict[str, float]:
    """What a kept H's profile could rest on in the design: the R^2 of the cell-line and plate labels
    on it, its best |r| with one compound's wells (and that compound), and its |r| with the log library."""
    r = {c: abs(float(np.corrcoef(prof, g["compound"] == c)[0, 1])) for c in sorted(set(g["compound"]))}
    best = max(r, key=r.get)
    return {
        "line": design_r2(prof, g["line"]),
        "plate": design_r2(prof, g["plate"]),
        "compound": r[best],
        "which": best,
        "depth": abs(float(np.corrcoef(prof, np.log(g["library"]))[0, 1])),
    }


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``LINE``, ``PLATE``, ``COMPOUND``, ``DEPTH`` for a kept H that tracks neither R*, D nor an
    unlisted program."""
    if max(h.r) >= TRACK:
        return []
    d = design_reading(prof, g)
    out = ["LINE"] if d["line"] >= DESIGN_R2 else (["PLATE"] if d["plate"] >= DESIGN_R2 else [])
    out += ["COMPOUND"] if d["compound"] >= TRACK else []
    return out + (["DEPTH"] if d["depth"] >= TRACK else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on a line, a plate, a compound or the depth), ``flagged``, ``cpu``)."""
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
        d = design_reading(prof, g)
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={max(h.r[2:]):.2f} "
            f"line R2 {d['line']:.2f} plate R2 {d['plate']:.2f} rCpd={d['compound']:.2f} ({d['which']}) "
            f"rDepth={d['depth']:.2f}{''.join(' ' + x for x in marks)}{' FALSE' if false else ''} "
            f"module {overlap} (p {p:.1e}) tfs {len(h.children & g['module_tfs'])} in-D={len(h.children & tg)} "
            f"Δscore {h.gain:+.1f} <- {','.join(h.parents) or '-'} "
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
        f"seed {seed} M {len(g['labels'])} lines {len(g['lines'])} plates {int(g['plate'].max()) + 1} "
        f"cols {len(g['names'])} listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D recovered,
    the kept and false Hs, the marked ones (line, plate, compound, depth), the flags and the median CPU."""
    return genome_summary(name, tallies, "a cell line, a plate, a compound or the depth", TRACK, CPU_LIMIT, ENRICHED)


def main(argv: list[str] | None = None) -> None:
    tally_main("h24m", "2450-2459", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
