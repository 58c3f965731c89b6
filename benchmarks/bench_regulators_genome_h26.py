"""A genome-scale hold-out for #22: ATF4 removed from a K562 CRISPRi Perturb-seq screen in pseudobulk rows.

The twenty-sixth session's genome hold-out ``h26m`` (seeds 2650-2659), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2690-2699 are free for smoke tests of the sampling. Its own sampling code (names, classes and the
row design in ``perturb_names.py``). **Perturb-seq** (pooled CRISPR screens read by single-cell RNA-seq,
Replogle et al. 2022's K562 essential-gene screen) is how regulatory programs are mapped today, and its
table as labs share it is **one pseudobulk row per perturbed gene**: the mean expression of the cells that
carried that gene's guides. No seen genome generator (module, null, outlier, two, pulse, batch, relay,
cascade, hubs, slots, stability, h16m-h25m) has its structure: **every row is an intervention** (the
knocked-down gene's own column falls 1.5-4 log2 in its row, and where that gene is a listed TF its targets
follow), **most of the table's variation is a few classes of knockdowns** (ribosome, mitochondria,
proteasome, Mediator, spliceosome, RNA polymerase II, replication, the tRNA synthetases), a **share of the
rows have no phenotype** beyond their own gene, and **the rows differ in depth by the number of cells**
(a knockdown that kills cells leaves few of them: noisy rows exactly where the phenotype is strong);
``h23m``'s knockouts were a few of hundreds of arrays, ``h24m`` drugs on plates.

* **Rows.** M (120-260): 8-16 non-targeting controls (``0977_non-targeting_03``), 2-5 knockdowns of D's
  triggers, knockdowns of listed TFs (8-15 %; K562's lineage TFs ``GATA1``, ``TAL1``, ``KLF1``... among
  them), 45-65 % over the essential classes (the tRNA synthetases and eIF2B at least 8 %), the rest
  knockdowns without phenotype (``0412_AARS1_P1P2_ENSG00000090861``; labels in the alphabetical order of
  the targets). Per row an efficacy U(0.4, 1.0) (how strong its phenotype is).
* **Programs.** Each essential class is an unlisted program (efficacy in its rows, 0 elsewhere), with 2-3
  cell states (cell-cycle composition); mixed into the listed TFs' activities (``pulse``'s mixing) and on
  30 % of the genes at +-U(0.3, 0.7). A knocked-down listed TF's activity falls U(1.5, 3.0) sd x efficacy.
* **R* = ATF4 (removed from the table and the list)**, the integrated stress response: a basal N(0, 0.3) +
  the class's pull x efficacy (tRNA synthetases and eIF2B U(1.5, 3.0), mitochondria U(0.5, 1.5),
  proteasome U(0.3, 1.0), ribosome U(-0.3, 0.6), spliceosome up to 0.3, none for the others) + N(0, 0.25)
  per row; then standardized: high in a tenth to a fifth of the rows, graded in others. It induces a
  **30-50 gene module** of named targets (``ASNS``, ``TRIB3``, ``CHAC1``, ``PSAT1``, ``SESN2``, the tRNA
  synthetases, which are also knocked down in their own rows...; R* a share U(0.4, 0.7) of each gene's
  signal) and **3-6 listed TFs** (``DDIT3``, ``ATF3``, ``CEBPB``, ``CEBPG``, ``ATF5``, ``NUPR1``, ``JDP2``; a
  share U(0.3, 0.6)), each with 5-15 targets of its own.
* **An on/off program D, SREBP2's cholesterol synthesis**: 15-22 genes (``HMGCR``, ``HMGCS1``, ``INSIG1``,
  ``SQLE``, ``LDLR`` excluded...) up by U(1.5, 3.0) log2 x efficacy in the 2-5 rows knocking down lysosomal
  cholesterol export or LDL uptake (``NPC1``, ``NPC2``, ``LDLR``, the HOPS ``VPS`` genes): on in a few rows.
  ``SREBF2`` may be listed; its mRNA does not follow D (SREBP2 is activated by cleavage).
* **Pseudobulk of 10x 3' counts**: per row a number of cells log-normal around a seed median of 60-200
  (sd 0.6; controls x U(3, 10); an essential knockdown x exp(-efficacy)), U(6, 14) thousand UMIs a cell,
  half of them in the table's genes; Poisson reads, the table ``log2(1 + CPM)``; no missing cells.

The table: 2500-3200 columns (100-140 listed TFs: R*'s TF targets, the lineage TFs, others; the perturbed
genes among the columns; human symbols in alphabetical order) x M rows; other genes: 1-3 listed TF parents
chosen hub-like, 10 % none, weights +-U(0.3, 1.0), own noise 0.8 exp N(0, 0.3); expected CPM
log-uniform in 2-1000 (the module's and D's 8-500), amplitude (log2 sd) U(0.2, 0.6), the module's U(0.8,
1.5). A knocked-down gene's column falls by U(1.5, 4.0) log2 in its row (the table and its null alike).

``h26m-null`` (the same seeds): the same rows, knockdowns, efficacies, TFs (with the knocked-down TFs'
falls), cells, libraries and Poisson draws, without R*'s part (the module follows its other inputs, R*'s
TF targets their own part), D off and no program on genes. Any kept H is false (a class of knockdowns,
one row, the depth).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound), its
children against the module (overlap, hypergeometric p, enriched at p < 1e-3), R*'s listed TF targets
among them (``tfs k/n``); **D recovered** at |r(H, D)| >= 0.9. Per kept H that tracks neither R*, D nor a
program at |r| >= 0.9: ``CLASS`` (the rows' kinds, control, quiet, listed TF, D's triggers or an essential
class, explain it at R^2 >= 0.8), ``ROW`` (|r| >= 0.9 with one row, named), ``DEPTH`` (|r| >= 0.9 with the
log library); ``FALSE``: one of those, or below |r| 0.5 with R*, D and every program and neither gene set
enriched; on the null, every kept H. An H partly on R* or D (|r| >= 0.5 with it and its gene set enriched
among the H's children) is not marked. A kept H's entry ends ``ACTIVITY X`` when the report reads it as
listed TF X's activity. CPU s.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Eighteenth hold-out"; ``--seeds
2650-2654`` and ``2655-2659`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h26.py --gen h26m --seeds 2650-2659
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h26.py --gen h26m-null --seeds 2650-2659
"""

from __future__ import annotations

import numpy as np
import perturb_names as pn
from bench_regulators_genome_h20 import _symbols, _z, design_r2, poisson_counts
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, M_RANGE, TFS, CONTROLS, TRIGGERS, STATES = (2500, 3200), (120, 260), (100, 140), (8, 16), (2, 5), (2, 3)
MODULE, SHARE, N_TARGET_TFS, TF_SHARE, TF_REGULON = (30, 50), (0.4, 0.7), (3, 6), (0.3, 0.6), (5, 15)
EFFICACY, KD_LOG2, KD_ACT, BASAL_SD, ROW_SD = (0.4, 1.0), (1.5, 4.0), (1.5, 3.0), 0.3, 0.25
D_SHIFT, N_D = (1.5, 3.0), (15, 22)
CELLS, CELLS_SD, CONTROL_CELLS, UMI, IN_TABLE = (60.0, 200.0), 0.6, (3.0, 10.0), (6000.0, 14000.0), 0.5
CPM, TARGET_CPM, AMP, MOD_AMP = (2.0, 1000.0), (8.0, 500.0), (0.2, 0.6), (0.8, 1.5)
DESIGN_R2 = 0.8
#: the rows' kinds in a fixed order (their indices are ``g["kind_index"]``)
KINDS = ("control", "quiet", "tf", "sterol", *pn.CLASSES)


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (rows x columns, log2(1 + CPM)), ``names`` (sorted), ``labels``, ``target``
    (the knocked-down gene per row, "" for a control), ``kind`` (per row), ``kind_index`` (into
    :data:`KINDS`), ``efficacy`` (per row), ``cells``, ``library``, ``regulators``, ``star``, ``star_name``,
    ``module``, ``module_tfs`` (R*'s listed TF targets), ``drivers`` ((M, 1): D), ``targets`` ([D's genes]),
    ``on`` (D's rows; none on the null), ``factors`` (the class programs and cell states), ``null``.
    ``n_cols``: the table width (drawn in 2500..3200; smoke tests use a smaller one)."""
    rng = np.random.default_rng([seed, 26])
    m, n_tf = int(rng.integers(*M_RANGE, endpoint=True)), int(rng.integers(*TFS, endpoint=True))
    n_cols = int(rng.integers(*COLS, endpoint=True)) if n_cols is None else n_cols
    # the listed TFs: R*'s TF targets, K562's lineage TFs, others
    tfs = list(pn.ATF4_TF_TARGETS) + list(pn.LINEAGE)
    tfs += [str(t) for t in rng.permutation(pn.OTHER_TFS)]
    tfs = tfs[:n_tf]
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    module = [str(g) for g in rng.choice(pn.ATF4_MODULE, n_mod, replace=False)]
    d_names = [g for g in pn.STEROL if g not in pn.STEROL_TRIGGERS][: int(rng.integers(*N_D, endpoint=True))]
    perturbed = {g for _, names in pn.CLASSES.values() for g in names} | set(pn.STEROL_TRIGGERS)
    pert = sorted(perturbed - set(module) - set(d_names) - set(tfs))
    taken = set(pn.ATF4_MODULE) | set(pn.STEROL) | perturbed | set(tfs) | {pn.STAR}
    other = _symbols(rng, n_cols - n_tf - n_mod - len(d_names) - len(pert), taken)
    n_ctrl, n_trig = int(rng.integers(*CONTROLS, endpoint=True)), int(rng.integers(*TRIGGERS, endpoint=True))
    w = pn.design(rng, m, n_ctrl, n_trig, tfs, other)
    kind, target = w["kind"], w["target"]
    efficacy = np.where(kind == "control", 0.0, rng.uniform(*EFFICACY, m))
    essential = np.isin(kind, list(pn.CLASSES))
    # programs: each essential class (efficacy in its rows) and the cell states
    k_states = int(rng.integers(*STATES, endpoint=True))
    fac = np.column_stack([efficacy * (kind == c) for c in pn.CLASSES] + [rng.normal(size=(m, k_states))])
    fac = _z(fac + 0.05 * rng.normal(size=fac.shape))
    # R*: a basal level, the class's pull x efficacy, the row's own part
    pull = {c: rng.uniform(*pr) for c, (pr, _) in pn.CLASSES.items()}
    push = np.array([pull.get(k, 0.0) for k in kind]) * efficacy
    star = _z(rng.normal(0.0, BASAL_SD, m) + push + rng.normal(0.0, ROW_SD, m))
    on = np.where(kind == "sterol", efficacy, 0.0)
    # TF activities: programs mixed in, a knocked-down listed TF's activity falls, R*'s part on its targets
    tgt = [str(t) for t in rng.choice(list(pn.ATF4_TF_TARGETS), int(rng.integers(*N_TARGET_TFS, endpoint=True)), False)]
    act = tf_activities(rng, fac, n_tf)
    fall = rng.uniform(*KD_ACT, m)
    for i in np.flatnonzero(kind == "tf"):
        act[i, tfs.index(str(target[i]))] -= fall[i] * efficacy[i]
    at = [tfs.index(t) for t in tgt]
    tf_share = rng.uniform(*TF_SHARE, size=len(at))
    sign = np.array([pn.ATF4_TF_TARGETS[t] for t in tgt])
    act = _z(act)
    act[:, at] = np.sqrt(1.0 - tf_share) * act[:, at] + (0.0 if null else np.sqrt(tf_share) * sign * star[:, None])
    act = _z(act)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()

    def parents_term(n_pa: int) -> np.ndarray:
        pick = rng.choice(n_tf, n_pa, False, hub)
        return act[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))

    sig, names, kinds = [], [], []
    for group, gnames in (("mod", module), ("d", d_names), ("pert", pert), ("rest", other), ("tf", tfs)):
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
    # log2 levels: CPM, amplitude, D's shift, each knockdown's own gene; then Poisson reads of the row's cells
    mrng = np.random.default_rng([seed, 26, 3])
    named = (kinds == "mod") | (kinds == "d")
    cpm = np.exp(np.where(named, mrng.uniform(*np.log(TARGET_CPM), n), mrng.uniform(*np.log(CPM), n)))
    amp = np.where(kinds == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    v = np.log2(cpm) + amp * sig
    d_shift = mrng.uniform(*D_SHIFT, int(np.sum(kinds == "d")))  # drawn on the null too: the same draws after it
    v[:, kinds == "d"] += 0.0 if null else on[:, None] * d_shift
    col = {g: j for j, g in enumerate(names)}
    drop = mrng.uniform(*KD_LOG2, m)
    for i in np.flatnonzero(kind != "control"):
        v[i, col[str(target[i])]] -= drop[i]
    cells = np.exp(mrng.uniform(*np.log(CELLS)) + CELLS_SD * mrng.normal(size=m))
    cells *= np.where(kind == "control", mrng.uniform(*CONTROL_CELLS, m), np.exp(-efficacy * essential))
    cells = np.maximum(np.round(cells), 5.0)
    lib = cells * mrng.uniform(*UMI) * IN_TABLE
    p = 2.0**v
    p /= p.sum(axis=1, keepdims=True)
    counts = poisson_counts(lib[:, None] * p, np.random.default_rng([seed, 26, 4]).random((m, n)))
    total = counts.sum(axis=1)
    y = np.log2(1.0 + 1e6 * counts / total[:, None])
    order = np.argsort(names)
    regulators = list(tfs)
    np.random.default_rng([seed, 26, 2]).shuffle(regulators)
    return {
        "values": y[:, order],
        "names": [names[i] for i in order],
        "labels": w["label"],
        "target": target,
        "kind": kind,
        "kind_index": np.array([KINDS.index(k) for k in kind]),
        "efficacy": efficacy,
        "cells": cells,
        "library": total,
        "regulators": regulators,
        "star": star,
        "star_name": pn.STAR,
        "module": set(module),
        "module_tfs": set(tgt),
        "drivers": on[:, None],
        "targets": [set(d_names)],
        "on": [] if null else [w["label"][i] for i in np.flatnonzero(on)],
        "factors": fac,
        "null": null,
    }


def design_reading(prof: np.ndarray, g: dict) -> dict:
    """What a kept H's profile could rest on in the design: the R^2 of the rows' kinds on it, its best |r|
    with one row's indicator (|z_i| / sqrt(M - 1)) and that row's label, and its |r| with the log library."""
    z = np.abs(_z(np.asarray(prof, dtype=float)))
    best = int(np.argmax(z))
    return {
        "kind": design_r2(prof, g["kind_index"]),
        "row": float(z[best] / np.sqrt(len(z) - 1.0)),
        "row_label": g["labels"][best],
        "depth": abs(float(np.corrcoef(prof, np.log(g["library"]))[0, 1])),
    }


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``CLASS``, ``ROW``, ``DEPTH`` for a kept H that tracks neither R*, D nor a program."""
    if max(h.r) >= TRACK:
        return []
    d = design_reading(prof, g)
    out = ["CLASS"] if d["kind"] >= DESIGN_R2 else []
    out += [f"ROW {d['row_label']}"] if d["row"] >= TRACK else []
    return out + (["DEPTH"] if d["depth"] >= TRACK else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on a class of knockdowns, one row or the depth), ``flagged``, ``cpu``)."""
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
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rF={max(h.r[2:]):.2f} "
            f"class R2 {d['kind']:.2f} rRow={d['row']:.2f} rDepth={d['depth']:.2f}"
            f"{''.join(' ' + x for x in marks)}{' FALSE' if false else ''} "
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
        f"seed {seed} M {len(g['labels'])} controls {int(np.sum(g['kind'] == 'control'))} "
        f"cols {len(g['names'])} listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D
    recovered, the kept and false Hs, the marked ones (a class of knockdowns, one row, the depth), the flags
    and the median CPU."""
    return genome_summary(name, tallies, "a class of knockdowns, one row or the depth", TRACK, CPU_LIMIT, ENRICHED)


def main(argv: list[str] | None = None) -> None:
    tally_main("h26m", "2650-2659", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
