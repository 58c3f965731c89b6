"""Names and the plate layout of the ``h24m`` hold-out (``bench_regulators_genome_h24.py``): a human
cell-line drug screen (Connectivity Map / DRUG-seq-like) with TP53 removed.

Real HGNC symbols for the removed TP53, its direct targets (Fischer 2017's consensus p53 targets),
the listed TFs it induces or represses (the last through p21-DREAM), the heat-shock program that
proteasome and HSP90 inhibitors switch on; real cell lines with their TP53 status (wild type and
functional, or mutant, null or inactivated by a viral protein: no p53 activity whatever the drug);
real compounds with their mechanism class and the screen's dose series (CMap's six half-log doses
from 0.04 to 10 uM). :func:`layout` draws the plates and wells."""

from __future__ import annotations

import numpy as np

STAR = "TP53"
#: direct p53 targets induced across cell types (Fischer 2017, Oncogene 36:3943)
P53_MODULE = (
    "CDKN1A MDM2 BAX BBC3 PMAIP1 GADD45A SESN1 SESN2 TP53I3 FAS RRM2B TIGAR ZMAT3 DDB2 XPC FDXR AEN PLK3 "
    "PLK2 BTG2 TNFRSF10B APAF1 SPATA18 TRIAP1 RPS27L CCNG1 POLH PHLDA3 EDA2R GDF15 SERPINB5 TP53INP1 "
    "SULF2 ACER2 DRAM1 KITLG NINJ1 PPM1D PERP RRAD SESN3 TNFRSF10D TRAF4 CD82 FUCA1 GLS2 IER5 ABHD4"
).split()
#: listed TFs p53 regulates (+1 induced; -1 repressed, through p21 and the DREAM complex)
P53_TF_TARGETS = {"ATF3": 1, "E2F7": 1, "KLF4": 1, "PRDM1": 1, "FOXM1": -1, "MYBL2": -1, "E2F1": -1, "E2F2": -1}
#: the heat-shock program (HSF1 released from HSP90 when proteins unfold): on/off program D
HEAT_SHOCK = (
    "HSPA1A HSPA1B HSPA6 DNAJB1 HSPH1 BAG3 HSPA8 HSP90AA1 HSPB1 DNAJA1 CRYAB HSPA4L HSPE1 HSPD1 CHORDC1 "
    "FKBP4 STIP1 DNAJB4 ZFAND2A HSPA4 SERPINH1 UBB"
).split()
#: cell line: whether its p53 is functional (wild type, not inactivated)
CELL_LINES = {
    "MCF7": True, "A549": True, "HCT116": True, "U2OS": True, "HEPG2": True, "A375": True, "MCF10A": True,
    "IMR90": True, "PC3": False, "HT29": False, "MDAMB231": False, "SKBR3": False, "HELA": False,
    "T47D": False, "K562": False, "VCAP": False, "HEK293T": False, "SW480": False,
}  # fmt: skip
#: mechanism classes: p53 potency range (0: none), whether the class switches the heat-shock program on
CLASSES = {
    "dna": ((1.0, 2.0), False), "mdm2": ((1.8, 2.5), False), "hdac": ((0.0, 0.5), False),
    "proteasome": ((0.0, 0.5), True), "hsp90": ((0.0, 0.0), True), "mtor": ((0.0, 0.0), False),
    "cdk": ((0.0, 0.0), False), "kinase": ((0.0, 0.0), False), "steroid": ((0.0, 0.0), False),
}  # fmt: skip
COMPOUNDS = {
    "doxorubicin": "dna", "etoposide": "dna", "camptothecin": "dna", "cisplatin": "dna", "gemcitabine": "dna",
    "fluorouracil": "dna", "mitomycin-c": "dna", "daunorubicin": "dna", "topotecan": "dna",
    "nutlin-3a": "mdm2", "idasanutlin": "mdm2", "RG-7112": "mdm2",
    "vorinostat": "hdac", "panobinostat": "hdac", "trichostatin-a": "hdac", "entinostat": "hdac",
    "bortezomib": "proteasome", "MG-132": "proteasome", "carfilzomib": "proteasome",
    "geldanamycin": "hsp90", "tanespimycin": "hsp90", "luminespib": "hsp90",
    "sirolimus": "mtor", "torin-1": "mtor", "dactolisib": "mtor", "everolimus": "mtor",
    "palbociclib": "cdk", "ribociclib": "cdk", "abemaciclib": "cdk",
    "erlotinib": "kinase", "gefitinib": "kinase", "lapatinib": "kinase", "sorafenib": "kinase",
    "vemurafenib": "kinase", "trametinib": "kinase", "selumetinib": "kinase", "dasatinib": "kinase",
    "imatinib": "kinase", "tofacitinib": "kinase", "dexamethasone": "steroid", "hydrocortisone": "steroid",
}  # fmt: skip
#: CMap's dose series (uM)
DOSES = (0.04, 0.12, 0.37, 1.11, 3.33, 10.0)
#: listed TFs beside TP53's targets (lineage TFs of the lines among them); TP53 itself is not listed
OTHER_TFS = (
    "STAT1 STAT2 STAT3 STAT5A STAT5B STAT6 IRF1 IRF2 IRF3 IRF7 NFKB1 NFKB2 RELA RELB REL JUN JUNB JUND "
    "FOS FOSB FOSL1 FOSL2 ATF1 ATF2 ATF4 ATF6 CREB1 CREM CEBPA CEBPB CEBPD ETS1 ETS2 ELF1 ELF3 ELK1 ETV4 "
    "ETV5 ETV6 KLF5 KLF6 KLF9 EGR1 EGR2 MYC MAX MXD1 MXI1 MNT MLX E2F3 E2F4 E2F5 E2F6 TP63 TEAD1 TEAD4 "
    "NR4A1 NR3C1 HIF1A EPAS1 ARNT XBP1 NFE2L2 HES1 ID1 ID2 ID3 TCF3 TCF4 TCF7L2 LEF1 SMAD2 SMAD3 SMAD4 "
    "SREBF1 SREBF2 USF1 USF2 YY1 SP1 SP3 NRF1 CTCF ZEB1 ZEB2 MEF2A MEF2D BACH1 FOXA1 FOXA2 FOXO1 FOXO3 "
    "FOXP1 GATA1 GATA2 GATA3 GATA6 ESR1 PGR AR NR2F2 RARA RXRA PPARG VDR AHR HNF1A HNF1B HNF4A SOX2 SOX4 "
    "SOX9 SOX10 PAX8 GRHL2 OVOL1 ELF5 SPDEF TRPS1 NFIB RUNX1 RUNX2 MITF TFE3 HOXA9 HOXB13 MEIS1 PBX1 CDX2 "
    "TAL1 NKX2-1 ZNF217"
).split()
ROWS = "ABCDEFGHIJKLMNOP"


def layout(rng: np.random.Generator, m: int, lines: list[str], compounds: list[str]) -> dict:
    """``m`` wells of ``lines`` (each 16 or more) on plates of 16-48 wells: a plate holds one line at one
    time point (6 or 24 h), 3-4 DMSO wells and the rest compounds of that line's panel (60-100 % of
    ``compounds``) at one of :data:`DOSES`. Per well: ``label`` (``DSQ012_MCF7_24H:K13``, sorted by
    plate), ``line``, ``plate`` (indices), ``time`` (h), ``compound`` ("DMSO" for a control) and
    ``dose`` (uM, 0 for DMSO)."""
    share = rng.dirichlet(np.full(len(lines), 5.0))
    per = np.maximum(16, np.round(share * m).astype(int))
    per[np.argmax(per)] -= per.sum() - m
    out = {k: [] for k in ("label", "line", "plate", "time", "compound", "dose")}
    plate, base = 0, int(rng.integers(1, 900))
    for li, n_line in enumerate(per):
        panel = [c for c in compounds if rng.random() < rng.uniform(0.6, 1.0)] or compounds[:1]
        left = int(n_line)
        while left > 0:
            size = min(left, int(rng.integers(16, 49)))
            if 0 < left - size < 16:
                size = left
            time = int(rng.choice([6, 24]))
            n_dmso = min(size, int(rng.integers(3, 5)))
            wells = rng.choice(len(ROWS) * 24, size=size, replace=False)
            code = f"DSQ{base + plate:03d}"
            for j, w in enumerate(sorted(wells)):
                cpd = "DMSO" if j < n_dmso else str(rng.choice(panel))
                out["label"].append(f"{code}_{lines[li]}_{time}H:{ROWS[w // 24]}{w % 24 + 1:02d}")
                out["line"].append(li)
                out["plate"].append(plate)
                out["time"].append(time)
                out["compound"].append(cpd)
                out["dose"].append(0.0 if cpd == "DMSO" else float(rng.choice(DOSES)))
            plate += 1
            left -= size
    perm = rng.permutation(m)  # DMSO wells scattered over the plate, not first
    for k in ("compound", "dose"):
        vals = np.array(out[k], dtype=object)
        for p in range(plate):
            idx = np.flatnonzero(np.array(out["plate"]) == p)
            vals[idx] = vals[idx][np.argsort(perm[idx])]
        out[k] = vals.tolist()
    arr = {k: np.array(v) for k, v in out.items() if k != "label"}
    arr["dose"], arr["compound"] = arr["dose"].astype(float), arr["compound"].astype("<U32")
    return {"label": out["label"], **arr}
