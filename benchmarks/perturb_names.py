"""Names and the perturbation design of the ``h26m`` hold-out (``bench_regulators_genome_h26.py``): a
K562 CRISPRi Perturb-seq screen (Replogle et al. 2022-like), one pseudobulk row per perturbed gene, with
ATF4 removed.

Real HGNC symbols for the removed ATF4, its direct targets in the integrated stress response (amino-acid
synthesis and transport, the tRNA synthetases, TRIB3, CHAC1, SESN2...), the listed TFs it induces (DDIT3,
ATF3, CEBPB, CEBPG, ATF5, NUPR1, JDP2), the SREBP2 cholesterol program that knockdowns of lysosomal
cholesterol export and LDL uptake switch on (the on/off program D), K562's erythroid lineage TFs; the
perturbed genes by class (tRNA synthetases and eIF2B, whose loss turns the stress response on;
mitochondrial ribosome and respiratory chain; cytosolic ribosome; proteasome; Mediator; spliceosome; RNA
polymerase II; DNA replication), each class with its pull on ATF4's activity. Row labels as a pseudobulk
table of such a screen names them (``0412_AARS1_P1P2_ENSG00000090861``, ``0977_non-targeting_03``).
:func:`design` draws the rows."""

from __future__ import annotations

import numpy as np
import screen_names as sn

STAR = "ATF4"
#: ATF4's direct targets, induced (the tRNA synthetases among them are also knocked down in their own rows)
ATF4_MODULE = (
    "ASNS TRIB3 CHAC1 CHAC2 PSAT1 PHGDH PSPH SESN2 SLC7A11 SLC3A2 SLC7A5 SLC1A5 SLC38A2 SLC7A1 SLC6A9 "
    "SLC1A4 SLC7A3 SLC43A1 SLC25A33 MTHFD2 MTHFD1L ALDH1L2 ALDH18A1 SHMT2 PYCR1 CTH VLDLR STC2 STC1 DDIT4 "
    "HERPUD1 XPOT GPT2 PCK2 ULBP1 KLHL24 GDF15 RRAGD CCPG1 EIF4EBP1 LONP1 FGF21 WARS1 CARS1 SARS1 YARS1 "
    "GARS1 MARS1 AARS1 IARS1 NARS1 EPRS1 TARS1 LARS1"
).split()
#: listed TFs ATF4 induces (+1)
ATF4_TF_TARGETS = {"DDIT3": 1, "ATF3": 1, "CEBPB": 1, "CEBPG": 1, "ATF5": 1, "NUPR1": 1, "JDP2": 1}
#: the SREBP2 cholesterol program (the on/off program D)
STEROL = (
    "HMGCR HMGCS1 INSIG1 SQLE IDI1 FDFT1 MVD MVK DHCR7 LSS CYP51A1 SC5D FDPS STARD4 MSMO1 NSDHL HSD17B7 "
    "ACAT2 EBP DHCR24 TMEM97 PCSK9 TM7SF2 FADS2"
).split()
#: knockdowns that starve the ER of cholesterol and switch D on (lysosomal export, LDL uptake, HOPS)
STEROL_TRIGGERS = ("NPC1", "NPC2", "LDLR", "VPS16", "VPS18", "VPS39", "VPS41", "VPS33A")
#: K562's erythroid and myeloid lineage TFs (listed; some knocked down)
LINEAGE = "GATA1 TAL1 KLF1 NFE2 LYL1 MYB GFI1B ZFPM1 IKZF1 FLI1 ERG LMO2 STAT5A STAT5B ETV6 RUNX1 MYC".split()
#: perturbed genes of each class, and the class's pull on ATF4's activity (a U(lo, hi) range per seed)
_SYNTH = "AARS1 CARS1 DARS1 EPRS1 FARSA FARSB GARS1 HARS1 IARS1 KARS1 LARS1 MARS1 NARS1 QARS1 RARS1"
CLASSES = {
    "isr": ((1.5, 3.0), f"{_SYNTH} SARS1 TARS1 VARS1 WARS1 YARS1 EIF2B1 EIF2B2 EIF2B3 EIF2B4 EIF2B5 HSPA5 SEC61A1"),
    "mito": (
        (0.5, 1.5),
        "MRPL3 MRPL4 MRPL11 MRPL13 MRPL17 MRPL22 MRPL39 MRPS5 MRPS14 MRPS18A MRPS23 MRPS31 NDUFA2 NDUFA8 "
        "NDUFB3 NDUFS2 NDUFV1 COX4I1 COX10 UQCRC1 UQCRFS1 ATP5F1A ATP5F1B TFAM POLRMT TUFM GFM1",
    ),
    "ribo": (
        (-0.3, 0.6),
        "RPL3 RPL4 RPL5 RPL7 RPL8 RPL10A RPL11 RPL13 RPL18 RPL23 RPL27A RPL35 RPS2 RPS3 RPS5 RPS6 RPS8 RPS11 "
        "RPS14 RPS15A RPS19 RPS24 RPS27A",
    ),
    "proteasome": (
        (0.3, 1.0),
        "PSMA1 PSMA2 PSMA3 PSMA5 PSMA7 PSMB1 PSMB2 PSMB3 PSMB5 PSMB7 PSMC2 PSMC3 PSMC4 PSMD1 PSMD3 PSMD4 "
        "PSMD7 PSMD11 PSMD14",
    ),
    "mediator": ((0.0, 0.0), "MED4 MED6 MED7 MED8 MED10 MED11 MED12 MED14 MED17 MED20 MED21 MED22 MED30"),
    "splice": (
        (0.0, 0.3),
        "SF3B1 SF3B2 SF3B3 SF3A1 SNRPD1 SNRPD2 SNRPD3 SNRPB PRPF8 PRPF19 PRPF31 U2AF1 U2AF2 LSM2 DHX15",
    ),
    "pol2": ((0.0, 0.0), "POLR2A POLR2B POLR2C POLR2D POLR2E POLR2G POLR2H POLR2I POLR2L"),
    "replication": (
        (0.0, 0.0),
        "MCM2 MCM3 MCM4 MCM5 MCM6 MCM7 POLA1 POLE PCNA RPA1 RPA2 GINS1 GINS2 CDC45 CDC6 ORC6 PRIM1",
    ),
}
CLASSES = {k: (pull, tuple(names.split())) for k, (pull, names) in CLASSES.items()}
#: the share of the rows that knock down a trigger of the stress response (``isr``) at least
MIN_ISR = 0.08
#: listed TFs beside ATF4's targets and the lineage ones; ATF4 itself is not listed
OTHER_TFS = [t for t in sn.OTHER_TFS if t != STAR and t not in ATF4_TF_TARGETS and t not in LINEAGE]


def _ensg(rng: np.random.Generator, taken: set[str]) -> str:
    while True:
        code = f"ENSG00000{int(rng.integers(100000, 290000)):06d}"
        if code not in taken:
            taken.add(code)
            return code


def design(rng: np.random.Generator, m: int, n_controls: int, n_triggers: int, tf_kd: list[str], quiet: list[str]):
    """``m`` pseudobulk rows: ``n_controls`` non-targeting, ``n_triggers`` of D's triggers, knockdowns of
    the listed TFs ``tf_kd`` (as many as fit, 8-15 % of the rows), 45-65 % over the essential classes
    (Dirichlet(2) shares, each class at most its genes, ``isr`` at least :data:`MIN_ISR`), the rest
    knockdowns of genes of ``quiet`` (no phenotype beyond their own drop). Per row (sorted by label):
    ``label``, ``target`` (the knocked-down gene, "" for a control), ``kind`` ("control", "sterol", "tf",
    "quiet" or a class of :data:`CLASSES`)."""
    rows: list[tuple[str, str]] = [("", "control")] * n_controls
    rows += [(str(g), "sterol") for g in rng.choice(STEROL_TRIGGERS, n_triggers, replace=False)]
    n_tf = min(len(tf_kd), int(round(m * rng.uniform(0.08, 0.15))))
    rows += [(str(g), "tf") for g in rng.choice(tf_kd, n_tf, replace=False)]
    kinds = list(CLASSES)
    cap = np.array([len(CLASSES[k][1]) for k in kinds])
    n_ess = min(int(cap.sum()), int(round(m * rng.uniform(0.45, 0.65))), m - len(rows))
    per = np.minimum(cap, np.floor(rng.dirichlet(np.full(len(kinds), 2.0)) * n_ess).astype(int))
    isr = kinds.index("isr")  # the stress response's triggers on 8 % of the rows at least
    per[isr] = max(per[isr], min(int(cap[isr]), int(round(MIN_ISR * m)), n_ess))
    while per.sum() > n_ess:
        per[int(np.argmax(np.where(np.arange(len(kinds)) == isr, -1, per)))] -= 1
    while per.sum() < n_ess:  # fill up within the classes' sizes
        per[int(rng.choice(np.flatnonzero(per < cap)))] += 1
    for k, n in zip(kinds, per, strict=True):
        rows += [(str(g), k) for g in rng.choice(CLASSES[k][1], int(n), replace=False)]
    rows += [(str(g), "quiet") for g in rng.choice(quiet, m - len(rows), replace=False)]
    genes = sorted({g for g, _ in rows if g})
    taken: set[str] = set()
    ensg = {g: _ensg(rng, taken) for g in genes}
    # the ids run in the alphabetical order of the targets (as the screen's pseudobulk table lists them)
    named = sorted(rows, key=lambda r: (r[0] or "non-targeting", r[1]))
    labels, ctrl = [], 0
    for i, (g, _) in enumerate(named):
        if g:
            labels.append(f"{i + 1:04d}_{g}_P1P2_{ensg[g]}")
        else:
            ctrl += 1
            labels.append(f"{i + 1:04d}_non-targeting_{ctrl:02d}")
    return {
        "label": labels,
        "target": np.array([g for g, _ in named], dtype="<U16"),
        "kind": np.array([k for _, k in named], dtype="<U16"),
    }
