"""A genome-scale hold-out for #22: TFEB removed from a TMT proteomics table of a cancer cell-line panel.

The twenty-ninth session's genome hold-out ``h29m`` (seeds 2950-2959), written and committed before
anything of that session was tuned and run only once, by the lead, at the start of the next session;
seeds 2990-2999 are free for smoke tests of the sampling. Its own sampling code (symbols, complexes, cell
lines and the plex design in ``tmt_names.py``). **A multiplexed proteome of a cell-line panel** (isobaric
TMT labels, 10 or 15 lines a plex beside a bridge channel that pools them all, as Nusinow et al. 2020
measured 375 CCLE lines) is what a proteomics lab hands a biologist, and no seen genome generator (module,
null, outlier, two, pulse, batch, relay, cascade, hubs, slots, stability, h16m-h28m) has its structure:
the values are **log2 ratios to the plex's bridge** (every line of a plex shares the bridge's measurement
error on a protein: a plex batch that is a per-protein offset), **ratio compression** (co-isolated ions
pull every reporter ratio toward 1: ``log2((1 - f) 2^delta + f)``, f per protein and plex, so a protein's
spread shrinks by a different amount in each plex, asymmetrically), **proteins missing in whole plexes**
(a low-abundance protein is identified in a plex or not: NaN in every line of that plex, no cell missing
on its own), **protein complexes measured in stoichiometry** (the proteasome's, the ribosome's, complex
I's subunits move together: a tight cluster of dozens of proteins with no regulator behind it) and
**transcription factors at low abundance** (quantified at all only with luck; the one removed is never
seen, as TFEB's activity is its place in the cell, not its amount):

* **Rows.** 2-6 TMT11 plexes of 10 lines or 2-4 TMTpro plexes of 15 (a bridge each, not a row), lines
  from 5-8 lineages (always 3-5 myeloma lines) placed at random, labelled as CCLE names them
  (``A549_LUNG``): M 20-60.
* **Programs (unlisted).** Each lineage's indicator, growth and respiration (each mixed from the lineages
  and its own part); mixed into the listed TFs' activities (``pulse``'s mixing); a lineage's TFs (``MITF``,
  ``SOX10`` for melanoma, ``IRF4``, ``PRDM1`` for myeloma...) follow its indicator at +U(1.0, 2.0); a program
  on 30 % of the proteins at +-U(0.3, 0.7).
* **Complexes.** 4-7 complexes with every subunit (the 26S proteasome, the 60S and 40S ribosome, complex I,
  ATP synthase, CCT, MCM, the exosome, COPI, SF3B, RNA polymerase II, eIF3); a complex's abundance follows
  growth or respiration at U(0.3, 0.6) and its own part, a subunit's signal a share U(0.4, 0.65) of it.
* **R* = TFEB (removed from the table and the list)**: a lineage part (share U(0.15, 0.35)) + its own,
  pulled down by growth at U(0.2, 0.4) (mTORC1 keeps it out of the nucleus); standardized. It induces a
  **30-50 gene module** (``CTSD``, ``LAMP1``, the V-ATPase ``ATP6V1A``..., ``HEXA``, ``SQSTM1``... of its 55
  CLEAR targets; R* a share U(0.4, 0.7) of each protein's signal) and **3-6 listed TFs** (``PPARGC1A``,
  ``PPARA``, ``TFE3``, ``ATF3``, ``KLF4``, ``ESRRA``, ``NR1D1``; a share U(0.3, 0.6)), each with 5-15 targets.
* **An on/off program D, the unfolded-protein response of the myeloma lines**: 15-22 ER chaperones and
  secretory proteins (``HSPA5``, ``HSP90B1``, ``PDIA4``, ``MZB1``...; none listed) up by U(1.5, 3.0) log2 x
  U(0.6, 1.0) in the 3-5 myeloma lines; ``XBP1``, ``ATF6`` and ``CREB3L2`` are listed and follow nothing.
* **The mass spectrometer.** A protein's log2 level ``amplitude x signal`` (+ D), amplitude U(0.25, 0.8),
  the module's U(0.6, 1.2); the bridge the log2 mean of the panel's levels + N(0, U(0.08, 0.2)) per plex
  and protein; each line ``log2((1 - f) 2^(level - bridge) + f)``, f U(0.1, 0.5) per plex and protein; +
  N(0, sd), sd U(0.04, 0.1) x (1 + 2 (1 - a)^2) at the protein's abundance quantile a (TFs low, complexes,
  the module and D high); a protein of the lowest quarter missing in a plex with probability up to 0.6
  (in at most half the plexes); each row less its median.

The table: 2400-2800 columns (symbols, sorted; 100-120 listed TFs: R*'s possible TF targets, the UPR's,
the lineages', other TFs a deep proteome quantifies) x M rows; other proteins: 1-3 listed TF parents
chosen hub-like, 10 % none, weights +-U(0.3, 1.0), own noise 0.8 exp N(0, 0.3).

``h29m-null`` (the same seeds): the same rows, plexes, programs, TFs, complexes, bridges, compression,
missing cells and noise draws, without R*'s part (the module follows its other inputs, R*'s TF targets
their own part), D off and no program directly on proteins (the programs still reach proteins through the
listed TFs). Any kept H is false (a complex, a plex, one line).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (within 300 s CPU, ``h22m``'s bound), its
children against the module (overlap, hypergeometric p, enriched at p < 1e-3), R*'s listed TF targets
among them (``tfs k/n``); **D recovered** at |r(H, D)| >= 0.9. Per kept H that tracks neither R*, D nor a
program (a lineage, growth, respiration) at |r| >= 0.9: ``COMPLEX X`` (complex X's mean subunit profile
explains it at R^2 >= 0.8), ``PLEX`` (the plexes do), ``ROW`` (|r| >= 0.9 with one line, named); ``FALSE``:
one of those, or below |r| 0.5 with R*, D and every program and neither gene set enriched; on the null,
every kept H. An H partly on R* or D (|r| >= 0.5 with it and its gene set enriched among the H's children)
is not marked. A kept H's entry ends ``ACTIVITY X`` when the report reads it as listed TF X's activity. CPU s.

Run once, on the final code (budget in benchmarks/RESULTS.md, "Twenty-first hold-out"; ``--seeds
2950-2954`` and ``2955-2959`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h29.py --gen h29m --seeds 2950-2959
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h29.py --gen h29m-null --seeds 2950-2959
"""

from __future__ import annotations

import numpy as np
import tmt_names as tn
from bench_regulators_genome_h20 import _symbols, _z, design_r2
from bench_regulators_genome_pulse import tf_activities
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, genome_summary, kept_of, tally_kept, tally_main, top_line, top_proposals

CPU_LIMIT = 300.0
COLS, TFS, MODULE, SHARE = (2400, 2800), (100, 120), (30, 50), (0.4, 0.7)
N_TARGET_TFS, TF_SHARE, TF_REGULON, FOLLOW = (3, 6), (0.3, 0.6), (5, 15), (1.0, 2.0)
LINEAGE_SHARE, GROWTH_PULL = (0.15, 0.35), (0.2, 0.4)
N_COMPLEX, COMPLEX_PULL, SUBUNIT = (4, 7), (0.3, 0.6), (0.4, 0.65)
D_SHIFT, D_ON, N_D = (1.5, 3.0), (0.6, 1.0), (15, 22)
AMP, MOD_AMP, BRIDGE_SD, INTERFERENCE, NOISE = (0.25, 0.8), (0.6, 1.2), (0.08, 0.2), (0.1, 0.5), (0.04, 0.1)
LOW, P_MISS = 0.25, 0.6  # the abundance quantile below which a protein may miss a plex, at most this often
DESIGN_R2 = 0.8


def _star(rng: np.random.Generator, lineage: np.ndarray, growth: np.ndarray) -> np.ndarray:
    """TFEB's activity: a lineage part, its own, pulled down by growth (mTORC1)."""
    share, pull = rng.uniform(*LINEAGE_SHARE), rng.uniform(*GROWTH_PULL)
    lin = _z(rng.normal(size=lineage.max() + 1)[lineage] + 1e-9 * rng.normal(size=len(lineage)))
    own = _z(-pull * growth + np.sqrt(1.0 - pull * pull) * rng.normal(size=len(growth)))
    return _z(np.sqrt(share) * lin + np.sqrt(1.0 - share) * own)


def _measure(rng: np.random.Generator, level: np.ndarray, plex: np.ndarray, quant: np.ndarray) -> np.ndarray:
    """The TMT reading of log2 levels (M, n): ratios to each plex's bridge, compressed, with noise, whole
    plexes missing for low-abundance proteins (``quant`` the abundance quantile), each row less its median."""
    n_plex, n = int(plex.max()) + 1, level.shape[1]
    bridge = np.log2(np.mean(2.0**level, axis=0)) + rng.normal(size=(n_plex, n)) * rng.uniform(*BRIDGE_SD)
    f = rng.uniform(*INTERFERENCE, size=(n_plex, n))
    delta = level - bridge[plex]
    sd = rng.uniform(*NOISE) * (1.0 + 2.0 * (1.0 - quant) ** 2)
    y = np.log2((1.0 - f[plex]) * 2.0**delta + f[plex]) + rng.normal(size=level.shape) * sd
    p = P_MISS * np.clip((LOW - quant) / LOW, 0.0, 1.0) ** 1.5
    miss = rng.random((n_plex, n)) < p
    too_many = np.cumsum(miss, axis=0) > n_plex // 2  # in at most half the plexes
    miss &= ~too_many
    y[miss[plex]] = np.nan
    return y - np.nanmedian(y, axis=1, keepdims=True)


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (lines x proteins, log2 ratios to the plex's bridge, NaN in whole plexes),
    ``names`` (symbols, sorted), ``labels``, ``lineage`` (index per row), ``lineages``, ``plex``, ``myeloma``,
    ``complexes`` (name -> its subunits in the table), ``regulators``, ``star``, ``star_name``, ``module``,
    ``module_tfs`` (R*'s listed TF targets), ``drivers`` ((M, 1): D), ``targets`` ([D's proteins]), ``on``
    (D's rows; none on the null), ``factors`` (the lineages, growth, respiration, standardized),
    ``factor_names``, ``null``. ``n_cols``: the table width (drawn in 2400..2800; smoke tests use a smaller
    one)."""
    rng = np.random.default_rng([seed, 29])
    n_tf = int(rng.integers(*TFS, endpoint=True))
    n_cols = int(rng.integers(*COLS, endpoint=True)) if n_cols is None else n_cols
    w = tn.design(rng)
    m, k = len(w["label"]), len(w["lineages"])
    lin = np.eye(k)[w["lineage"]]
    growth = _z(lin @ rng.normal(0.0, 0.8, k) + rng.normal(size=m))
    resp = _z(lin @ rng.normal(0.0, 0.8, k) + rng.normal(size=m))
    fac = _z(np.column_stack([lin, growth, resp]) + 0.01 * rng.normal(size=(m, k + 2)))
    fac_names = [*w["lineages"], "growth", "respiration"]
    star = _star(rng, w["lineage"], growth)
    on = np.where(w["myeloma"], rng.uniform(*D_ON, m), 0.0)
    # the listed TFs: R*'s possible TF targets, the UPR's, the lineages', others
    lineage_tfs = {t: i for i, x in enumerate(w["lineages"]) for t in tn.LINEAGES[x][2].split()}
    named = list(tn.STAR_TF_TARGETS) + list(tn.UPR_TFS) + list(lineage_tfs)
    tfs = named + [str(t) for t in rng.permutation([t for t in tn.OTHER_TFS if t not in named])][: n_tf - len(named)]
    n_tf = len(tfs)
    n_mod = int(rng.integers(*MODULE, endpoint=True))
    module = [str(g) for g in rng.choice(tn.CLEAR, n_mod, replace=False)]
    d_names = [str(g) for g in rng.permutation(tn.UPR)[: int(rng.integers(*N_D, endpoint=True))]]
    chosen = sorted(str(c) for c in rng.choice(list(tn.COMPLEXES), int(rng.integers(*N_COMPLEX, endpoint=True)), False))
    subunits = [(c, g) for c in chosen for g in tn.COMPLEXES[c]]
    taken = set(tn.CLEAR) | set(tn.UPR) | {g for v in tn.COMPLEXES.values() for g in v} | set(tn.OTHER_TFS) | set(named)
    other = _symbols(rng, n_cols - n_tf - n_mod - len(d_names) - len(subunits), taken | {tn.STAR})
    cols = module + d_names + [g for _, g in subunits] + other + tfs
    # TF activities: programs mixed in, the lineage TFs following theirs, R*'s part on its targets
    act = tf_activities(rng, fac, n_tf)
    for t, i in lineage_tfs.items():
        act[:, tfs.index(t)] += rng.uniform(*FOLLOW) * fac[:, i]
    tgt = [str(t) for t in rng.choice(tn.STAR_TF_TARGETS, int(rng.integers(*N_TARGET_TFS, endpoint=True)), False)]
    at_tf = [tfs.index(t) for t in tgt]
    tf_share = rng.uniform(*TF_SHARE, size=len(at_tf))
    act = _z(act)
    act[:, at_tf] = np.sqrt(1.0 - tf_share) * act[:, at_tf] + (0.0 if null else np.sqrt(tf_share) * star[:, None])
    act = _z(act)
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()
    level_c = {}
    for c in chosen:  # a complex's abundance: its program and its own part
        prog, pull = tn.COMPLEX_PROGRAM[c], rng.uniform(*COMPLEX_PULL)
        drive = 0.0 if not prog else fac[:, fac_names.index(prog)]
        level_c[c] = _z(np.sqrt(pull) * drive + np.sqrt(1.0 - pull) * rng.normal(size=m))

    def parents_term(n_pa: int) -> np.ndarray:
        pick = rng.choice(n_tf, n_pa, False, hub)
        return act[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))

    sig, kinds = [], []
    groups = [("mod", g) for g in module] + [("d", g) for g in d_names] + [(c, g) for c, g in subunits]
    for group, g in groups + [("rest", g) for g in other] + [("tf", g) for g in tfs]:
        if group == "tf":
            x = act[:, tfs.index(g)] + 0.5 * rng.normal(size=m)  # a TF's amount is not its activity
        else:
            x = 0.8 * np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
            x = x + parents_term(0 if rng.random() < 0.1 else int(rng.integers(1, 4)))
            term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(fac.shape[1])]
            x = x + (term if rng.random() < 0.3 and not null else 0.0)
        if group == "mod":
            share = rng.uniform(*SHARE)
            x = np.sqrt(1.0 - share) * _z(x) + (0.0 if null else np.sqrt(share) * star)
        elif group in level_c:  # a subunit: its complex's abundance in stoichiometry
            share = rng.uniform(*SUBUNIT)
            x = np.sqrt(1.0 - share) * _z(x) + np.sqrt(share) * level_c[group]
        sig.append(_z(x))
        kinds.append(group if group in ("mod", "d", "rest", "tf") else "complex")
    sig, kinds = np.column_stack(sig), np.array(kinds)
    n = len(cols)
    for a in at_tf:  # each of R*'s TF targets has its own 5-15 targets among the rest
        genes = rng.choice(np.flatnonzero(kinds == "rest"), int(rng.integers(*TF_REGULON, endpoint=True)), False)
        sig[:, genes] += (rng.uniform(0.5, 1.0, len(genes)) * rng.choice([-1.0, 1.0], len(genes))) * act[:, [a]]
    # the proteome: amplitude, D; abundance; the TMT reading
    mrng = np.random.default_rng([seed, 29, 3])
    amp = np.where(kinds == "mod", mrng.uniform(*MOD_AMP, n), mrng.uniform(*AMP, n))
    level = amp * sig
    d_shift = mrng.uniform(*D_SHIFT, int(np.sum(kinds == "d")))
    level[:, kinds == "d"] += 0.0 if null else on[:, None] * d_shift
    quant = np.select(
        [kinds == "tf", kinds == "rest"], [mrng.uniform(0.0, 0.6, n), mrng.random(n)], mrng.uniform(0.3, 1.0, n)
    )
    y = _measure(mrng, level, w["plex"], quant)
    order = np.argsort(cols)
    regulators = list(tfs)
    np.random.default_rng([seed, 29, 2]).shuffle(regulators)
    names = [cols[i] for i in order]
    return {
        "values": y[:, order],
        "names": names,
        "labels": w["label"],
        "lineage": w["lineage"],
        "lineages": w["lineages"],
        "plex": w["plex"],
        "myeloma": w["myeloma"],
        "complexes": {c: [g for cc, g in subunits if cc == c] for c in chosen},
        "regulators": regulators,
        "star": star,
        "star_name": tn.STAR,
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
    """What a kept H's profile could rest on in the panel: the best R^2 of one complex's mean subunit profile
    (its standardized columns averaged over what is measured) on it and that complex, the plexes' R^2, and its
    best |r| with one row's indicator (|z_i| / sqrt(M - 1)) and that row's label."""
    z = _z(np.asarray(prof, dtype=float))
    at = {x: i for i, x in enumerate(g["names"])}
    best, name = 0.0, ""
    for c, genes in g["complexes"].items():
        v = g["values"][:, [at[x] for x in genes]]
        mean = np.nanmean((v - np.nanmean(v, axis=0)) / np.nanstd(v, axis=0), axis=1)
        r2 = float(np.corrcoef(mean, z)[0, 1] ** 2)
        best, name = (r2, c) if r2 > best else (best, name)
    row = int(np.argmax(np.abs(z)))
    return {
        "complex": best,
        "complex_name": name,
        "plex": design_r2(prof, g["plex"]),
        "row": float(abs(z[row]) / np.sqrt(len(z) - 1.0)),
        "row_label": g["labels"][row],
    }


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``COMPLEX X``, ``PLEX``, ``ROW`` for a kept H that tracks neither R*, D nor a program."""
    if max(h.r) >= TRACK:
        return []
    d = design_reading(prof, g)
    out = [f"COMPLEX {d['complex_name']}"] if d["complex"] >= DESIGN_R2 else []
    out += ["PLEX"] if d["plex"] >= DESIGN_R2 else []
    return out + ([f"ROW {d['row_label']}"] if d["row"] >= TRACK else [])


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``star`` (R* recovered), ``fast``, ``best_star``,
    ``enriched``, ``tfs``, ``drivers`` ([D recovered]), ``best_drivers``, ``kept``, ``false``,
    ``marks`` (kept Hs marked on a complex, the plexes or one line), ``flagged``, ``cpu``)."""
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
            f"({g['factor_names'][best_f]}) complex R2 {d['complex']:.2f} ({d['complex_name']}) plex R2 "
            f"{d['plex']:.2f} rRow={d['row']:.2f}{''.join(' ' + x for x in marks)}"
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
        f"seed {seed} M {len(g['labels'])} plexes {int(g['plex'].max()) + 1} lineages {len(g['lineages'])} "
        f"missing {np.isnan(g['values']).mean():.1%} cols {len(g['names'])} listed {len(g['regulators'])} "
        f"module {len(g['module'])} {head}kept {len(kept)} false {t['false']} flag {'YES' if t['flagged'] else 'no'} "
        f"{wall:6.1f} s wall {cpu:6.1f} s CPU | {'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line (:func:`genome_auto.genome_summary`): R* recovered (and with its module enriched), D
    recovered, the kept and false Hs, the marked ones (a complex, the plexes, one line), the flags and the
    median CPU."""
    return genome_summary(name, tallies, "a complex, the plexes or one line", TRACK, CPU_LIMIT, ENRICHED)


def main(argv: list[str] | None = None) -> None:
    tally_main("h29m", "2950-2959", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
