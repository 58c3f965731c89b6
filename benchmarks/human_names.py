"""Human gene symbols and chromosome arms for the ``h22m`` hold-out (``bench_regulators_genome_h22.py``).

Real HGNC symbols for the named sets of a bulk tumour cohort: the removed MYC, its ribosome-biogenesis
and nucleotide-synthesis targets (Dang 2012; the MSigDB hallmark MYC targets), the listed transcription
factors MYC induces, immune-cell and stromal (fibroblast, endothelial) marker genes and their lineage
TFs, the cancer-testis antigens (an on/off program: silent in most tumours, demethylated and on in a
few), other listed TFs and an ERBB2-like amplicon's driver. ``ARMS`` are the chromosome arms with
weights near their protein-coding gene counts (acrocentric p arms left out); the generator places the
other genes on them at random (their positions are drawn, not real). :func:`barcodes` names the tumours."""

from __future__ import annotations

import numpy as np

#: the removed regulator, on 8q24
STAR, STAR_ARM = "MYC", "8q"
MYC_MODULE = (
    "NPM1 NCL NOP56 NOP58 NOP16 FBL DKC1 GNL3 RRP9 RRP12 BOP1 PES1 WDR12 NOP2 RRS1 POLR1B POLR1E PPAT "
    "ODC1 CAD SRM LDHA NME1 PA2G4 APEX1 MRTO4 NIP7 UTP20 DDX21 RRP1B TSR1 NOC2L NOLC1 CCT2 CCT5 PHB PHB2 "
    "EIF4A1 EIF3B TFRC SLC7A5 SLC3A2 MCM4 MCM5 HK2 PTMA CDK4 RUVBL1 RUVBL2 NOP14 PUS7 SNHG15 IMPDH2"
).split()
#: listed TFs that MYC induces (3-6 are R*'s TF targets on a seed)
MYC_TF_TARGETS = ("TFAP4", "E2F1", "E2F2", "E2F3", "MYBL2", "ID2", "FOXM1", "ATF4")
IMMUNE = (
    "PTPRC CD3E CD3D CD3G CD2 CD8A CD8B GZMA GZMB GZMK PRF1 NKG7 CD4 CD247 LCK ZAP70 CD19 MS4A1 CD79A "
    "CD79B CD14 CD68 CD163 CSF1R FCGR3A ITGAM LYZ HLA-DRA HLA-DRB1 HLA-DPA1 HLA-DPB1 CD74 CCL5 CXCL9 "
    "CXCL13 IL7R CCR7 SELL LTB CD52 CORO1A LAPTM5 TYROBP FCER1G C1QA C1QB"
).split()
IMMUNE_TFS = ("SPI1", "IKZF1", "IKZF3", "RUNX3", "TBX21", "IRF8", "IRF4", "POU2AF1")
STROMA = (
    "COL1A1 COL1A2 COL3A1 COL5A1 COL5A2 COL6A3 FN1 SPARC DCN LUM POSTN FAP PDGFRB ACTA2 TAGLN THY1 MMP2 "
    "SFRP2 ASPN COL11A1 FBN1 ELN PECAM1 VWF CDH5 ENG KDR CALD1 MYL9 BGN COL4A1 COL4A2 PLVAP EMCN"
).split()
STROMA_TFS = ("TWIST1", "TWIST2", "PRRX1", "SNAI2", "TCF21", "ERG", "SOX18")
#: cancer-testis antigens (Xq mostly): off in most tumours, on in a few
CTA = (
    "MAGEA1 MAGEA3 MAGEA4 MAGEA6 MAGEA10 MAGEA12 MAGEB2 MAGEC1 MAGEC2 CTAG1B CTAG2 SSX1 SSX2 SSX4 PRAME "
    "GAGE1 GAGE2A XAGE1B PAGE2 PAGE5 SPANXB1 CT45A1 CT83 SAGE1 TPTE NXF2"
).split()
#: a focal amplicon's driver and its real neighbours on 17q12 (the rest of the amplicon drawn)
AMPLICON = ("ERBB2", "GRB7", "PGAP3", "STARD3", "MIEN1", "PNMT", "TCAP", "PPP1R1B", "NEUROD2", "ORMDL3")
AMPLICON_ARM = "17q"
OTHER_TFS = (
    "STAT1 STAT2 STAT3 STAT5A STAT5B STAT6 IRF1 IRF2 IRF3 IRF7 NFKB1 NFKB2 RELA RELB REL JUN JUNB JUND "
    "FOS FOSB FOSL1 FOSL2 ATF1 ATF2 ATF3 ATF6 CREB1 CREM CEBPA CEBPB CEBPD ETS1 ETS2 ELF1 ELF3 ELK1 ETV4 "
    "ETV5 ETV6 KLF4 KLF5 KLF6 KLF9 EGR1 EGR2 MAX MXD1 MXI1 MNT MLX E2F4 E2F5 E2F6 TP53 TP63 TEAD1 TEAD4 "
    "NR4A1 NR3C1 HIF1A EPAS1 ARNT XBP1 NFE2L2 HES1 ID1 ID3 TCF3 TCF4 TCF7L2 LEF1 SMAD2 SMAD3 SMAD4 SREBF1 "
    "SREBF2 USF1 USF2 YY1 SP1 SP3 NRF1 CTCF ZEB1 ZEB2 MEF2A MEF2D BACH1 FOXA1 FOXA2 FOXO1 FOXO3 FOXP1 "
    "GATA2 GATA3 GATA6 ESR1 PGR AR NR2F2 RARA RXRA PPARG VDR AHR HNF1B HNF4A SOX2 SOX4 SOX9 PAX8 GRHL2 "
    "OVOL1 ELF5 SPDEF TRPS1 NFIB RUNX1 RUNX2 MITF TFE3 HOXA9 HOXB13 MEIS1 PBX1 ZNF217 ZNF703"
).split()
#: chromosome arm: weight (near its protein-coding gene count); no 13p, 14p, 15p, 21p, 22p, Y
ARMS = {
    "1p": 1100, "1q": 950, "2p": 560, "2q": 750, "3p": 560, "3q": 520, "4p": 220, "4q": 530, "5p": 170,
    "5q": 720, "6p": 620, "6q": 420, "7p": 380, "7q": 600, "8p": 300, "8q": 370, "9p": 260, "9q": 520,
    "10p": 240, "10q": 520, "11p": 590, "11q": 700, "12p": 350, "12q": 700, "13q": 320, "14q": 620,
    "15q": 600, "16p": 480, "16q": 380, "17p": 360, "17q": 830, "18p": 80, "18q": 200, "19p": 770,
    "19q": 680, "20p": 200, "20q": 340, "21q": 230, "22q": 440, "Xp": 340, "Xq": 500,
}  # fmt: skip
#: arm-level events common in carcinomas: arm -> (gain probability, loss probability) in a typical tumour
RECURRENT = {
    "1q": (0.40, 0.02), "8q": (0.40, 0.02), "20q": (0.30, 0.02), "3q": (0.20, 0.03), "5p": (0.20, 0.03),
    "7p": (0.15, 0.03), "8p": (0.03, 0.30), "17p": (0.03, 0.35), "16q": (0.03, 0.30), "13q": (0.05, 0.20),
    "3p": (0.03, 0.20), "9p": (0.03, 0.20), "18q": (0.03, 0.25), "4q": (0.03, 0.15), "11q": (0.05, 0.12),
}  # fmt: skip
#: any other autosomal arm; no events on X
OTHER_ARM_RATES = (0.05, 0.05)
#: TCGA tissue-source-site codes (the barcode's second field) and sequencing-centre codes (its last)
SITES = "A1 A2 A7 A8 AN AO AR B6 BH C8 D8 E2 E9 EW GM LL OL PE S3 WT".split()
CENTRES = ("07", "13", "31")


def barcodes(rng: np.random.Generator, m: int) -> tuple[list[str], np.ndarray, list[str]]:
    """``m`` tumours' TCGA-like aliquot barcodes (``TCGA-A2-A0CM-01A-11R-A034-07``: site, patient,
    sample, analyte, plate, sequencing centre; sorted), each one's centre index, and the 2-3 centres."""
    centres = [str(c) for c in rng.choice(CENTRES, size=int(rng.integers(2, 4)), replace=False)]
    centre = rng.choice(len(centres), size=m, p=rng.dirichlet(np.full(len(centres), 4.0)))
    plates = [[f"A{int(x):03d}" for x in rng.choice(999, size=3, replace=False)] for _ in centres]
    alnum = list("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
    rows, seen = [], set()
    for c in centre:  # over tumours (120-300), not genes
        pid = "".join(rng.choice(alnum, size=4))
        while pid in seen:
            pid = "".join(rng.choice(alnum, size=4))
        seen.add(pid)
        rows.append((f"TCGA-{rng.choice(SITES)}-{pid}-01A-11R-{rng.choice(plates[c])}-{centres[c]}", int(c)))
    rows.sort()
    return [r[0] for r in rows], np.array([r[1] for r in rows]), centres
