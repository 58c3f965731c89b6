"""A genome-scale hold-out for #22: a removed interferon activator in a human pseudobulk single-cell table.

The twentieth session's genome hold-out ``h20m`` (seeds 2050-2059), written and committed before
anything of that session was tuned and run only once, by the lead, on its final code; seeds 2090
and up are free for smoke tests of the sampling. Its own sampling code. What it stresses that the
seen genome generators (module, null, outlier, two, pulse, batch, relay, cascade, hubs, slots,
stability, h16m, h17m, h18m, h19m) do not:

* **A pseudobulk table of a human single-cell study.** Each sample is one donor's cells of one
  cell type summed (``D07_CD14Mono``): 3-5 cell types x enough donors for 20-80 samples, some
  donor x type clusters absent. The cells per sample vary with the cell type's abundance and the
  donor (10-5000 cells, 1500-6000 UMIs a cell: libraries over two to three orders of magnitude,
  the seen tables' 8-fold at most), counts are gamma-Poisson (overdispersion log-uniform 0.01-0.1
  per gene), normalized as a single-cell lab does, ``log1p(counts / library x 10^4)``: faint genes
  of small clusters are zeros and the log1p scale is nearly linear, not logarithmic, for them.
* **Strong donor and cell-type structure that is not a regulator.** Every sample shares its donor
  (40 % of the genes with a donor offset N(0, 0.25): genotype; sex genes ``XIST`` and six Y genes
  on and off by donor sex) and its cell type (2 listed lineage TFs per type, strongly type-specific,
  and 15 % of the genes with a type offset N(0, 0.6) not through any TF). A kept H whose profile the
  cell-type labels (or the donor labels) explain at R^2 >= 0.8 is ``TYPE`` (``DONOR``), one tracking
  the library size or the donor's sex at |r| >= 0.9 is ``DEPTH`` (``SEX``): false, unless it tracks
  R* or D.
* **R* is upstream of listed TFs.** R* (``STAT1``, removed from the table and the list) activates a
  30-50-gene interferon module (``IFIT1``, ``MX1``, ``ISG15``...; 90 % induced, R* explaining a share
  U(0.4, 0.7) of each gene's signal, the rest 0-2 listed TFs and noise) **and 5-10 listed TFs**
  (``IRF1``, ``IRF7``, ``STAT2``...: a share U(0.3, 0.6) of their activity), each of which has its own
  5-15 targets elsewhere and is a parent of half the module genes on 50 % of them (coherent
  feed-forward loops, STAT1 -> IRF1 -> targets). A listed TF is then a partial stand-in for R* *and*
  R*'s child. In the seen generators R* was a listed TF's child (relay, h17m, h18m) or apart from them.
* **Human gene symbols** (real ones for the TFs, the module, the stress and sex genes; symbol-like
  ``TMEM123`` / ``C7orf45`` for the rest), the columns in alphabetical order. R*'s activity is mostly
  donor-level (interferon-high donors, a quarter) times a cell type's responsiveness.

The table: 2000-2600 columns (100-130 listed TFs and the other genes; a gene with counts in fewer
than 2 samples is left out, as a lab filters a pseudobulk table) x 20-80 samples:

* 3-6 unlisted factors, each donor-level (half) or per sample; listed TFs: the lineage TFs, the
  module TFs, the rest ``pulse``'s TF activities (0.5 x a mix of the factors + own, a third on an
  earlier TF).
* One on/off program D: a **dissociation-stress** response (``HSPA1A``, ``DUSP1``, ``IER2``...) on in
  2-4 samples (those processed late) at U(0.7, 1.0), shifting its 20-40 genes by U(1.5, 3.0) x the
  gene's sd without it, 15 % down.
* Every other gene: 1-3 listed TF parents chosen hub-like (Pareto weights), 10 % none, weights
  +-U(0.3, 1.0); 25 % also one unlisted factor at +-U(0.3, 0.7); noise 0.8 exp N(0, 0.3).
* Natural-log expression ``base + amp x signal + offsets`` (base N(log 1e-4, 1.2), TFs 1 lower; amp
  U(0.4, 1.0), module genes U(0.6, 1.4); TF mRNA with measurement noise 0.15), 30 % of each library
  in the table's genes.

``h20m-null`` (the same seeds): the same samples, libraries, donors, types, offsets, TFs (the module
TFs without R*'s share) and noise, without R*'s effect, D and the unlisted factors on genes. Any
kept H is false (a cell-type, donor or depth pattern most of all).

Run: ``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``).
Per seed, ``h19m``'s columns: **R* recovered** = a kept H with |r(H, R*)| >= 0.9 (and within 60 s
CPU), its children against the module (overlap, hypergeometric p, enriched at p < 1e-3) and how many
of R*'s listed TF targets are among its children (``tfs k/n``); **D recovered** = |r(H, D)| >= 0.9
(and whether a flagged proposal names D's samples); per kept H its realized gain, leverage flag
(``*`` on D's samples), ``TYPE``, ``DONOR``, ``DEPTH``, ``SEX`` (only on an H that tracks neither R*, D nor a factor
at |r| >= 0.9) and ``FALSE`` (one of those four, or
below |r| 0.5 with R*, D and every factor and neither gene set enriched; on the null, every kept H);
CPU s.

Run once, on the final code (budget about 1 h of CPU for the 20 tables at load 10-20, as ``h19m``;
``--seeds 2050-2054`` and ``2055-2059`` can run in parallel processes):
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h20.py --gen h20m --seeds 2050-2059
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_regulators_genome_h20.py --gen h20m-null --seeds 2050-2059
"""

from __future__ import annotations

import numpy as np
from bench_regulators_genome_pulse import _named, tf_activities
from bench_regulators_genome_pulse import summary as pulse_summary
from bench_regulators_genome_relay import ENRICHED, NOTHING, TRACK, _enriched, _overlap
from genome_auto import fit_auto, kept_of, tally_main, top_proposals
from scipy.special import ndtri

CPU_LIMIT = 60.0
COLS, M_RANGE, TFS = (2000, 2600), (20, 80), (100, 130)
STAR = "STAT1"
LINEAGE = {
    "CD14Mono": ("CEBPA", "MAFB"),
    "CD16Mono": ("KLF4", "POU2F2"),
    "Bcell": ("PAX5", "EBF1"),
    "CD4T": ("GATA3", "TCF7"),
    "CD8T": ("RUNX3", "TOX"),
    "NK": ("TBX21", "EOMES"),
    "pDC": ("TCF4", "SPIB"),
    "cDC": ("ZBTB46", "BATF3"),
}
ISG_TFS = "IRF1 IRF2 IRF7 IRF8 IRF9 STAT2 ETV7 BATF2 SP110 SP140 PML".split()
ISGS = (
    "IFIT1 IFIT2 IFIT3 IFIT5 MX1 MX2 ISG15 ISG20 OAS1 OAS2 OAS3 OASL RSAD2 IFI44 IFI44L IFI6 IFI27 IFITM1 "
    "IFITM3 HERC5 HERC6 USP18 EPSTI1 CMPK2 XAF1 SAMD9 SAMD9L PARP9 PARP12 PARP14 DDX58 IFIH1 DDX60 BST2 LY6E "
    "PLSCR1 TRIM22 TRIM5 GBP1 GBP2 GBP4 GBP5 LAMP3 SIGLEC1 RTP4 EIF2AK2 IFI35 HELZ2 LGALS9 ZBP1 TNFSF10 "
    "CXCL10 APOL6 DTX3L RNF213"
).split()
STRESS = (
    "HSPA1A HSPA1B DNAJB1 HSPH1 HSP90AA1 HSPA8 HSPE1 HSPD1 BAG3 DUSP1 DUSP2 IER2 IER3 IER5 ZFP36 ZFP36L1 "
    "PPP1R15A BTG2 CCN1 CCN2 SOCS3 GADD45B GADD45G RHOB MCL1 CD69 NFKBIA TNFAIP3 CDKN1A SAT1 TXNIP PLK2 "
    "MT2A MT1X RGS1 RGS2 TRIB1 SERTAD1 CITED2 UBC"
).split()
FEMALE, MALE = ("XIST",), tuple("RPS4Y1 DDX3Y KDM5D UTY EIF1AY USP9Y".split())
OTHER_TFS = (
    "STAT4 STAT5A STAT5B STAT6 IRF3 IRF4 IRF5 NFKB1 NFKB2 RELA RELB REL JUN JUNB JUND FOS FOSB FOSL1 FOSL2 "
    "ATF1 ATF2 ATF3 ATF4 ATF5 ATF6 ATF7 CREB1 CREM CEBPB CEBPD CEBPG SPI1 ETS1 ETS2 ELF1 ELF2 ELF4 FLI1 ERG "
    "ETV3 ETV6 KLF2 KLF3 KLF6 KLF9 KLF10 KLF13 EGR1 EGR2 EGR3 MYC MAX MXD1 MXI1 E2F1 E2F2 E2F3 E2F4 TP53 "
    "NR4A1 NR4A2 NR4A3 NR3C1 HIF1A ARNT XBP1 PRDM1 BCL6 IKZF1 IKZF2 IKZF3 FOXP1 FOXP3 FOXO1 FOXO3 FOXN3 "
    "RORA RORC BATF MAF NFATC1 NFATC2 NFATC3 NFE2L2 NFIL3 HES1 ID2 ID3 TCF3 TCF12 SMAD3 SREBF1 SREBF2 USF1 "
    "USF2 YY1 SP1 SP3 NRF1 CTCF ZEB1 ZEB2 MEF2C MEF2D BACH1 BACH2 HHEX GFI1 PPARG RXRA VDR AHR LEF1"
).split() + [f"ZNF{k}" for k in range(101, 131)]
PREFIXES = "SLC TMEM CCDC FAM ANKRD LRRC KIAA WDR RNF TTC ARHGAP DNAJC PPP1R ZC3H ABHD CNOT MRPL NUP".split()
N_ISG_TFS, MODULE, SHARE, TF_SHARE, TF_REGULON = (5, 10), (30, 50), (0.4, 0.7), (0.3, 0.6), (5, 15)
CELLS, UMI, DISPERSION, TABLE_SHARE = (10, 5000), (1500, 6000), (0.01, 0.1), 0.3
DONOR_SD, P_DONOR, TYPE_SD, P_TYPE, SEX_SHIFT = 0.25, 0.4, 0.6, 0.15, 4.0
MIN_DETECTED = 2  # a gene with counts in fewer samples is left out, as a lab filters a pseudobulk table
DESIGN_R2 = 0.8  # R^2 of H's profile on the cell-type (donor) labels that marks it TYPE (DONOR)


def _z(v: np.ndarray) -> np.ndarray:
    return (v - v.mean(axis=0)) / v.std(axis=0)


def _symbols(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` distinct symbol-like names (``TMEM123``, ``C7orf45``) not in ``taken``."""
    out: set[str] = set()
    while len(out) < n:
        k = int(rng.integers(0, len(PREFIXES) + 1))
        num = int(rng.integers(1, 400))
        name = f"C{rng.integers(1, 23)}orf{num}" if k == len(PREFIXES) else f"{PREFIXES[k]}{num}"
        if name not in taken:
            out.add(name)
    return sorted(out)


def _samples(rng: np.random.Generator) -> tuple[list[str], np.ndarray, np.ndarray, list[str]]:
    """The labels (sorted), each sample's donor and cell-type index, and the cell types."""
    types = [str(t) for t in rng.choice(list(LINEAGE), size=int(rng.integers(3, 6)), replace=False)]
    m = int(rng.integers(M_RANGE[0], M_RANGE[1] + 1))
    n_donors = -(-m // len(types)) + int(rng.integers(0, 3))
    combos = [(d, t) for d in range(n_donors) for t in range(len(types))]
    keep = sorted(rng.choice(len(combos), size=m, replace=False), key=lambda i: combos[i])
    rows = sorted((f"D{combos[i][0] + 1:02d}_{types[combos[i][1]]}", *combos[i]) for i in keep)
    return [r[0] for r in rows], np.array([r[1] for r in rows]), np.array([r[2] for r in rows]), types


def poisson_counts(lam: np.ndarray, u: np.ndarray, small: float = 30.0) -> np.ndarray:
    """Poisson counts of means ``lam`` by inversion of the uniforms ``u`` (exact below ``small``,
    the normal approximation above), so that a null table with other means shares the draws."""
    k = np.rint(np.maximum(0.0, lam + np.sqrt(lam) * ndtri(u)))
    low = lam < small
    lo, ul = lam[low], u[low]
    pmf = np.exp(-lo)
    cdf, n = pmf.copy(), np.zeros_like(lo)
    for j in range(1, int(small + 12.0 * np.sqrt(small))):  # over count values, not instances
        n += ul > cdf
        pmf *= lo / j
        cdf += pmf
    k[low] = n
    return k


def _parents(rng: np.random.Generator, tf: np.ndarray, hub: np.ndarray, n_pa: int) -> np.ndarray:
    """The sum of ``n_pa`` hub-like listed TF parents at +-U(0.3, 1.0)."""
    pick = rng.choice(tf.shape[1], n_pa, False, hub)
    return tf[:, pick] @ (rng.uniform(0.3, 1.0, n_pa) * rng.choice([-1.0, 1.0], n_pa))


def generate(seed: int, null: bool = False, n_cols: int | None = None) -> dict:
    """One table: ``values`` (M x columns, log1p(CP10k)), ``names`` (sorted), ``labels``, ``donor``,
    ``cell_type`` (indices per sample), ``types``, ``sex`` (1 male, per sample), ``depth`` (log
    library), ``regulators``, ``star`` (R*'s activity), ``star_name``, ``module`` (its non-TF genes),
    ``module_tfs`` (its listed TF targets), ``drivers`` ((M, 1): D), ``targets`` ([D's genes]),
    ``on`` (D's samples; none on the null), ``factors``, ``null``. ``n_cols``: the table width
    (drawn in 2000..2600; smoke tests use a smaller one), less any gene detected in fewer than
    ``MIN_DETECTED`` samples (none on the smoke seeds)."""
    rng = np.random.default_rng([seed, 20])
    labels, donor, ctype, types = _samples(rng)
    m, n_donors = len(labels), int(donor.max()) + 1
    n_cols = int(rng.integers(COLS[0], COLS[1] + 1)) if n_cols is None else n_cols
    n_tf = int(rng.integers(TFS[0], TFS[1] + 1))
    k = int(rng.integers(3, 7))
    per_donor = rng.random(k) < 0.5
    fac = _z(
        np.where(
            per_donor, rng.normal(size=(n_donors, k))[donor] + 0.3 * rng.normal(size=(m, k)), rng.normal(size=(m, k))
        )
    )
    male = rng.permutation(np.arange(n_donors) % 2)[donor]
    ifn = rng.normal(size=n_donors) + 2.0 * (rng.random(n_donors) < 0.25)
    resp = rng.uniform(0.4, 1.0, size=len(types))
    star = _z(0.7 * _z(ifn[donor] * resp[ctype]) + 0.3 * _z(fac @ rng.normal(size=k)) + 0.6 * rng.normal(size=m))
    # the listed TFs: lineage, R*'s TF targets, the rest
    lineage = [t for ty in types for t in LINEAGE[ty]]
    isg_tfs = [str(t) for t in rng.choice(ISG_TFS, size=int(rng.integers(*N_ISG_TFS, endpoint=True)), replace=False)]
    others = [str(t) for t in rng.choice(OTHER_TFS, size=n_tf - len(lineage) - len(isg_tfs), replace=False)]
    tf_names = lineage + isg_tfs + others
    onehot = (ctype[:, None] == np.arange(len(types))).astype(float)
    lin = _z(2.5 * np.repeat(onehot, 2, axis=1) + 0.3 * _z(fac @ rng.normal(size=(k, len(lineage)))))
    lin = _z(lin + 0.5 * rng.normal(size=lin.shape))
    tf_share = rng.uniform(*TF_SHARE, size=len(isg_tfs))
    own = tf_activities(rng, fac, len(isg_tfs) + len(others))
    isg_act = _z(np.sqrt(tf_share) * star[:, None] * (not null) + np.sqrt(1.0 - tf_share) * own[:, : len(isg_tfs)])
    tf = np.column_stack([lin, isg_act, own[:, len(isg_tfs) :]])
    # the genes: the module, D's targets, the sex genes, the rest
    n_genes = n_cols - n_tf
    n_mod, n_tg = int(rng.integers(MODULE[0], MODULE[1] + 1)), int(rng.integers(20, 41))
    mod_names = [str(x) for x in rng.choice(ISGS, size=n_mod, replace=False)]
    tg_names = [str(x) for x in rng.choice(STRESS, size=min(n_tg, len(STRESS)), replace=False)]
    named = set(tf_names) | set(ISGS) | set(STRESS) | set(FEMALE + MALE) | set(ISG_TFS) | {STAR}
    rest = _symbols(rng, n_genes - n_mod - len(tg_names) - len(FEMALE + MALE), named)
    gene_names = mod_names + tg_names + list(FEMALE + MALE) + rest
    hub = rng.pareto(1.5, n_tf) + 1.0
    hub /= hub.sum()
    sig = np.empty((m, n_genes))
    isg_cols = np.arange(len(lineage), len(lineage) + len(isg_tfs))
    for j in range(n_genes):
        noise = 0.8 * np.exp(rng.normal(0.0, 0.3)) * rng.normal(size=m)
        if j < n_mod:  # R*'s share; 0-2 listed TFs (half the time one of R*'s TF targets) and noise the rest
            x = noise + _parents(rng, tf, hub, int(rng.integers(0, 3)))
            if rng.random() < 0.5:
                x = x + rng.uniform(0.3, 1.0) * tf[:, rng.choice(isg_cols)]
            share, sign = rng.uniform(*SHARE), 1.0 if rng.random() < 0.9 else -1.0
            sig[:, j] = np.sqrt(1.0 - share) * _z(x) + (0.0 if null else np.sqrt(share) * sign * star)
            continue
        x = noise + _parents(rng, tf, hub, 0 if rng.random() < 0.1 else int(rng.integers(1, 4)))
        if rng.random() < 0.25:
            term = rng.uniform(0.3, 0.7) * rng.choice([-1, 1]) * fac[:, rng.integers(k)]
            x = x + (0.0 if null else term)
        sig[:, j] = x
    regulon = rng.choice(np.arange(n_mod + len(tg_names) + 7, n_genes), size=(len(isg_tfs), TF_REGULON[1]))
    for i, genes in enumerate(regulon):  # each of R*'s TF targets has its own 5-15 targets
        genes = genes[: int(rng.integers(TF_REGULON[0], TF_REGULON[1] + 1))]
        sig[:, genes] += (rng.uniform(0.5, 1.0, len(genes)) * rng.choice([-1.0, 1.0], len(genes))) * tf[
            :, [isg_cols[i]]
        ]
    on = np.zeros((m, 1))
    on_rows = rng.choice(m, size=int(rng.integers(2, 5)), replace=False)
    on[on_rows, 0] = rng.uniform(0.7, 1.0, size=len(on_rows))
    tg = np.arange(n_mod, n_mod + len(tg_names))
    shift = rng.uniform(1.5, 3.0, len(tg)) * np.where(rng.random(len(tg)) < 0.15, -1.0, 1.0) * sig[:, tg].std(axis=0)
    if not null:
        sig[:, tg] += on * shift
    # the measurement: the same draws with and without R*
    mrng = np.random.default_rng([seed, 20, 3])
    base = np.concatenate([mrng.normal(np.log(1e-4) - 1.0, 1.2, n_tf), mrng.normal(np.log(1e-4), 1.2, n_genes)])
    amp = np.concatenate(
        [mrng.uniform(0.4, 1.0, n_tf), mrng.uniform(0.6, 1.4, n_mod), mrng.uniform(0.4, 1.0, n_genes - n_mod)]
    )
    y = base + amp * np.column_stack([tf + 0.15 * mrng.normal(size=tf.shape), sig])
    y += np.where(mrng.random(n_cols) < P_DONOR, mrng.normal(0.0, DONOR_SD, (n_donors, n_cols)), 0.0)[donor]
    y += np.where(mrng.random(n_cols) < P_TYPE, mrng.normal(0.0, TYPE_SD, (len(types), n_cols)), 0.0)[ctype]
    sex_at = n_tf + n_mod + len(tg_names)
    y[:, sex_at] += SEX_SHIFT * (1.0 - male) - 2.0
    y[:, sex_at + 1 : sex_at + 7] += SEX_SHIFT * male[:, None] - 2.0
    abundance = np.exp(mrng.uniform(np.log(30), np.log(1500), len(types)))
    cells = np.clip(abundance[ctype] * np.exp(mrng.normal(0.0, 0.6, m)), *CELLS)
    lib = np.round(cells * mrng.uniform(*UMI, size=m))
    p = np.exp(y - y.max(axis=1, keepdims=True))
    p = TABLE_SHARE * p / p.sum(axis=1, keepdims=True)
    phi = np.exp(mrng.uniform(*np.log(DISPERSION), size=n_cols))
    counts = poisson_counts(lib[:, None] * p * mrng.gamma(1.0 / phi, phi, size=(m, n_cols)), mrng.random((m, n_cols)))
    values = np.log1p(counts / lib[:, None] * 1e4)
    names = tf_names + gene_names
    detected = set(np.flatnonzero((counts > 0).sum(axis=0) >= MIN_DETECTED).tolist())
    order = [i for i in np.argsort(names) if i in detected]  # a lab's filter: genes seen in 2+ samples
    kept = {names[i] for i in order}
    tf_names = [t for t in tf_names if t in kept]
    regulators = list(tf_names)
    np.random.default_rng([seed, 20, 2]).shuffle(regulators)
    return {
        "values": values[:, order],
        "names": [names[i] for i in order],
        "labels": labels,
        "donor": donor,
        "cell_type": ctype,
        "types": types,
        "sex": male.astype(float),
        "depth": np.log(lib),
        "regulators": regulators,
        "star": star,
        "star_name": STAR,
        "module": set(mod_names) & kept,
        "module_tfs": set(isg_tfs) & kept,
        "drivers": on,
        "targets": [set(tg_names) & kept],
        "on": [] if null else [labels[i] for i in on_rows],
        "factors": fac,
        "null": null,
    }


def design_r2(profile: np.ndarray, groups: np.ndarray) -> float:
    """The share of ``profile``'s variance its group means explain (R^2 on the labels' indicators)."""
    means = np.bincount(groups, weights=profile) / np.maximum(np.bincount(groups), 1)
    return float(1.0 - np.var(profile - means[groups]) / np.var(profile))


def _marks(h, prof: np.ndarray, g: dict) -> list[str]:
    """``TYPE``, ``DONOR``, ``DEPTH``, ``SEX`` for a kept H that tracks neither R*, D nor an unlisted
    factor (a donor-level factor is a program, not the design)."""
    if max([h.r[0], h.r[1], *h.r[4:]]) >= TRACK:
        return []
    out = ["TYPE"] if design_r2(prof, g["cell_type"]) >= DESIGN_R2 else []
    out += ["DONOR"] if design_r2(prof, g["donor"]) >= DESIGN_R2 else []
    return out + [x for x, r in (("DEPTH", h.r[2]), ("SEX", h.r[3])) if r >= TRACK]


def run_seed(g: dict, source: str, seed: int) -> tuple[str, dict]:
    """One auto run: (the seed's line, its tally: ``bench_regulators_genome_pulse.summary``'s keys,
    ``enriched`` (R*'s H has its module enriched among its children), ``tfs`` (R*'s listed TF targets
    among that H's children) and ``design`` (kept Hs marked TYPE, DONOR, DEPTH or SEX))."""
    profiles = np.column_stack([g["star"], g["drivers"], g["depth"], g["sex"], g["factors"]])
    est, wall, cpu = fit_auto({**g, "removed": profiles}, source, seed)
    kept = kept_of(est.hidden_search_, {**g, "removed": profiles})
    props = top_proposals(est)
    on, universe, tg = set(g["on"]), len(g["names"]), g["targets"][0]
    rows, t = [], {"kept": len(kept), "false": 0, "listed": 0, "cpu": cpu, "enriched": False, "tfs": 0, "design": 0}
    for h in kept:
        overlap, p = _overlap(h.children, g["module"], universe)
        planted = p < ENRICHED or _enriched(h.children, tg, universe)
        marks = _marks(h, est.hidden_search_.hidden_profile(h.name), g)
        false = g["null"] or bool(marks) or (max([h.r[0], h.r[1], *h.r[4:]]) < NOTHING and not planted)
        t["false"] += false
        t["design"] += bool(marks)
        flag = ",".join(f"{c}{'*' if c in on else ''}" for c in h.flagged)
        rows.append(
            f"{h.name} {len(h.children)} kids r*={h.r[0]:.2f} rD={h.r[1]:.2f} rDepth={h.r[2]:.2f} rSex={h.r[3]:.2f} "
            f"rF={max(h.r[4:]):.2f}{''.join(' ' + x for x in marks)}{' FALSE' if false else ''} module {overlap} "
            f"(p {p:.1e}) tfs {len(h.children & g['module_tfs'])} in-D={len(h.children & tg)} Δscore {h.gain:+.1f} "
            f"<- {','.join(h.parents) or '-'} (R2 {h.parents_r2:.2f}, leverage {h.leverage:.2f}"
            f"{f' FLAG {flag}' if flag else ''})"
        )
    t["best_star"] = max((h.r[0] for h in kept), default=0.0)
    t["best_drivers"] = [max((h.r[1] for h in kept), default=0.0)]
    t["star"] = not g["null"] and t["best_star"] >= TRACK
    t["fast"] = t["star"] and cpu < CPU_LIMIT
    t["drivers"] = [not g["null"] and t["best_drivers"][0] >= TRACK]
    t["named"] = [""] if g["null"] else _named(g, props, est.hidden_search_)
    if t["star"]:
        best = max(kept, key=lambda h: h.r[0])
        t["enriched"] = _enriched(best.children, g["module"], universe)
        t["tfs"] = len(best.children & g["module_tfs"])
    top = props[0] if props else None
    t["flagged"] = any(h.flagged for h in kept) or bool(top is not None and top.high_leverage)
    top_text = "no proposal"
    if top is not None:
        r_top = [abs(float(np.corrcoef(top.profile, c)[0, 1])) for c in (g["star"], g["drivers"][:, 0], g["depth"])]
        top_text = f"top proposal {len(top.members)} genes r*={r_top[0]:.2f} rD={r_top[1]:.2f} rDepth={r_top[2]:.2f}"
        top_text += f" type R2 {design_r2(np.asarray(top.profile, float), g['cell_type']):.2f}"
    named = f" named {t['named'][0]}" if t["named"][0] else ""
    head = (
        ""
        if g["null"]
        else (
            f"R* {'OK' if t['star'] else '--'} {t['best_star']:.2f} enriched {'yes' if t['enriched'] else 'no'} "
            f"tfs {t['tfs']}/{len(g['module_tfs'])} D(on {len(on)}, {len(tg)} genes) "
            f"{'OK' if t['drivers'][0] else '--'} {t['best_drivers'][0]:.2f}{named} "
        )
    )
    line = (
        f"seed {seed} M {len(g['labels'])} types {len(g['types'])} donors {len(set(g['donor'].tolist()))} "
        f"cols {len(g['names'])} listed {len(g['regulators'])} module {len(g['module'])} {head}kept {len(kept)} "
        f"false {t['false']} flag {'YES' if t['flagged'] else 'no'} {wall:6.1f} s wall {cpu:6.1f} s CPU | "
        f"{'; '.join(rows) or 'nothing kept'} | {top_text}"
    )
    return line, t


def summary(name: str, tallies: list[dict]) -> str:
    """The closing line: ``bench_regulators_genome_pulse.summary``'s, the kept Hs on the table's design
    (cell type, donor, depth, sex), and on ``h20m`` how R*'s H took its module and its TF targets."""
    n = len(tallies)
    text = (
        pulse_summary(name, tallies)
        + f"; kept Hs on the design (TYPE/DONOR/DEPTH/SEX) {sum(t['design'] for t in tallies)}"
    )
    if name.endswith("-null"):
        return text
    tfs = sum(t["tfs"] for t in tallies if t["star"])
    return (
        f"{text}; R*'s H with its module enriched (p < {ENRICHED:g}) on {sum(t['enriched'] for t in tallies)}/{n}, "
        f"its listed TF targets among its children {tfs} (over the seeds it recovers)"
    )


def main(argv: list[str] | None = None) -> None:
    tally_main("h20m", "2050-2059", __doc__.splitlines()[0], generate, run_seed, summary, argv)


if __name__ == "__main__":
    main()
