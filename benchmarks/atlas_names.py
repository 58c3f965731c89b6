"""Names and the sample design of the ``h25m`` hold-out (``bench_regulators_genome_h25.py``): a human
post-mortem multi-tissue atlas (GTEx-like) with NFE2L2 (NRF2) removed.

Real HGNC symbols for the removed NFE2L2, its direct ARE targets (antioxidant and xenobiotic genes
induced across tissues and in KEAP1-mutant tumours: NQO1, HMOX1, GCLM, TXNRD1, the AKR1Cs...), the
listed TFs it induces (the small Mafs, BACH1, AHR, PPARG, NR0B1, RXRA), the HIF program of agonal
hypoxia (on in the tissues of donors who died slowly, Hardy scale 4); GTEx tissue names (SMTSD) with
whether a tissue faces inhaled smoke (lung, esophagus mucosa, minor salivary gland: NRF2 answers smoking
there); GTEx-like sample ids (``GTEX-1K2DA-0426-SM-7DHLK``). :func:`design` draws donors and samples."""

from __future__ import annotations

import numpy as np
import screen_names as sn

STAR = "NFE2L2"
#: NRF2's direct (ARE) targets, induced
NRF2_MODULE = (
    "NQO1 HMOX1 GCLM GCLC TXNRD1 SRXN1 AKR1C1 AKR1C2 AKR1C3 AKR1B10 G6PD PGD TALDO1 TKT ME1 IDH1 SLC7A11 "
    "FTL FTH1 GSR OSGIN1 ABCC2 ABCC3 ABCC1 CYP4F11 CBR1 CBR3 UGT1A6 MGST1 GPX2 PRDX1 TXN SQSTM1 CES1 "
    "ALDH3A1 EPHX1 GSTA4 GSTM3 TRIM16 TRIM16L PIR BLVRB SLC3A2 PTGR1 ENTPD5 KYNU CYP4F3 UGDH FECH HTATIP2 "
    "PANX2 TSKU"
).split()
#: listed TFs NRF2 induces (+1)
NRF2_TF_TARGETS = {"MAFG": 1, "MAFF": 1, "MAFK": 1, "BACH1": 1, "AHR": 1, "PPARG": 1, "NR0B1": 1, "RXRA": 1}
#: the HIF program of agonal hypoxia (the on/off program D)
HYPOXIA = (
    "VEGFA SLC2A1 PGK1 CA9 BNIP3 ADM LDHA PDK1 EGLN3 ANKRD37 NDRG1 P4HA1 ENO1 HK2 ALDOA PFKFB3 KDM3A "
    "ERO1A DDIT4 ANGPTL4 STC2 PLOD2 FAM162A EGLN1 BNIP3L PFKP"
).split()
#: GTEx tissues (SMTSD): whether NRF2 answers smoking there (the tissue faces the smoke)
TISSUES = {
    "Lung": True, "Esophagus - Mucosa": True, "Minor Salivary Gland": True, "Liver": False,
    "Whole Blood": False, "Muscle - Skeletal": False, "Skin - Sun Exposed (Lower leg)": False,
    "Adipose - Subcutaneous": False, "Thyroid": False, "Artery - Tibial": False, "Nerve - Tibial": False,
    "Colon - Transverse": False, "Stomach": False, "Heart - Left Ventricle": False, "Pancreas": False,
    "Spleen": False, "Kidney - Cortex": False, "Brain - Cortex": False,
}  # fmt: skip
#: lineage TFs of some tissues (listed; strongly tissue-specific in activity)
LINEAGE = {
    "Lung": ("NKX2-1", "FOXA2"), "Esophagus - Mucosa": ("TP63", "SOX2"), "Liver": ("HNF4A", "HNF1A"),
    "Whole Blood": ("SPI1", "GATA1"), "Muscle - Skeletal": ("MYOD1", "MEF2C"), "Thyroid": ("PAX8", "NKX2-1"),
    "Colon - Transverse": ("CDX2", "HNF4A"), "Stomach": ("SOX2", "GATA6"), "Heart - Left Ventricle": ("GATA4",
    "TBX5"), "Pancreas": ("PTF1A", "PDX1"), "Brain - Cortex": ("NEUROD2", "OLIG2"), "Kidney - Cortex": ("PAX2",
    "HNF1B"), "Adipose - Subcutaneous": ("PPARG", "CEBPA"), "Skin - Sun Exposed (Lower leg)": ("TP63", "GRHL2"),
}  # fmt: skip
#: listed TFs beside NRF2's targets and the lineage ones; NFE2L2 itself is not listed
OTHER_TFS = [t for t in sn.OTHER_TFS if t != STAR and t not in NRF2_TF_TARGETS] + "TBX3 NFIA HAND2".split()
#: the Hardy scale of death circumstances: 0 ventilator, 1 violent and fast, 2 fast natural, 3
#: intermediate, 4 slow (the donors of D); the share of donors of 0-3
HARDY = (0.4, 0.1, 0.35, 0.15)
ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _code(rng: np.random.Generator, k: int) -> str:
    return "".join(ALNUM[i] for i in rng.integers(0, len(ALNUM), k))


def design(rng: np.random.Generator, m: int, tissues: list[str], n_slow: int) -> dict:
    """``m`` samples of donors x ``tissues``: donors are added until there are ``m`` samples, each
    donor giving each tissue with that tissue's probability U(0.5, 0.95) (at least one), the last one's
    cut to fit. Per donor: ``male`` (65 %), ``age`` (20-79), ``hardy`` (0-3 drawn, ``n_slow`` of them
    4, spread over the donors), ``smoker`` (25 %). Per sample (sorted by label): ``label``, ``donor``,
    ``tissue`` (indices), ``ischemic`` (minutes, log-normal, longer for ventilator cases), ``rin``."""
    p_tissue = rng.uniform(0.5, 0.95, len(tissues))
    donor, tissue = [], []
    while len(donor) < m:
        d = len(set(donor))
        give = np.flatnonzero(rng.random(len(tissues)) < p_tissue)
        give = give if len(give) else rng.integers(0, len(tissues), 1)
        for t in give[: m - len(donor)]:
            donor.append(d)
            tissue.append(int(t))
    n_donors = len(set(donor))
    hardy = rng.choice(4, n_donors, p=HARDY)
    slow = rng.choice(n_donors, min(n_slow, n_donors), replace=False)
    hardy[slow] = 4
    ids: list[str] = []
    while len(ids) < n_donors:
        c = f"GTEX-{_code(rng, int(rng.integers(4, 6)))}"
        if c not in ids:
            ids.append(c)
    donor_arr, tissue_arr = np.array(donor), np.array(tissue)
    vent = hardy[donor_arr] == 0
    ischemic = np.exp(rng.normal(np.log(300.0), 0.6, m) + 0.5 * vent)
    rin = np.clip(rng.normal(7.3, 0.8, m) - 0.6 * (tissue_arr == rng.integers(0, len(tissues))), 5.0, 9.8)
    labels = [f"{ids[d]}-{int(rng.integers(1, 3000)):04d}-SM-{_code(rng, 5)}" for d in donor]
    order = np.argsort(labels)
    return {
        "label": [labels[i] for i in order],
        "donor": donor_arr[order],
        "tissue": tissue_arr[order],
        "ischemic": ischemic[order],
        "rin": rin[order],
        "male": rng.random(n_donors) < 0.65,
        "age": rng.integers(20, 80, n_donors),
        "hardy": hardy,
        "smoker": rng.random(n_donors) < 0.25,
        "donors": ids,
    }
