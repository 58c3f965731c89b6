"""Names and the plex design of the ``h29m`` hold-out (``bench_regulators_genome_h29.py``): a TMT proteomics
table of a cancer cell-line panel (CCLE-proteome-like) with TFEB removed.

Real HGNC symbols for the removed TFEB (a transcription factor no shotgun run quantifies, whose activity is
where it sits, nuclear or on the lysosome, not how much of it there is), its CLEAR targets (lysosomal
hydrolases, the V-ATPase, lysosomal membrane proteins, autophagy genes: Sardiello et al. 2009, Palmieri et
al. 2011), the listed TFs it induces, the unfolded-protein response's ER chaperones and secretory machinery
(on in the myeloma lines, whose every cell is a plasma cell making antibody), stable protein complexes whose
subunits a proteome measures in stoichiometry (the 26S proteasome, both ribosome subunits, complex I, ATP
synthase, CCT, MCM, the exosome, COPI, SF3B, RNA polymerase II, eIF3), cell lines by lineage in CCLE's
naming (``A549_LUNG``) with each lineage's TFs. :func:`design` lays out the plexes."""

from __future__ import annotations

import numpy as np

STAR = "TFEB"
#: TFEB's CLEAR targets (induced)
CLEAR = (
    "CTSD CTSB CTSA CTSZ CTSF LAMP1 LAMP2 CD63 ATP6V1A ATP6V1B2 ATP6V1C1 ATP6V1D ATP6V1E1 ATP6V1H ATP6V0A1 "
    "ATP6V0D1 ATP6AP1 HEXA HEXB GBA1 GLA GAA GNS GUSB NAGLU NEU1 PSAP SCARB2 MCOLN1 NPC1 NPC2 CLCN7 OSTM1 "
    "TPP1 PPT1 ASAH1 SQSTM1 UVRAG WIPI1 VPS11 VPS18 CLN3 CLN5 SGSH ARSA ARSB GALNS LIPA HPS1 FNIP2 RRAGD "
    "GNPTAB MAN2B1 FUCA1 NAGA"
).split()
#: listed TFs TFEB induces (3-6 are R*'s TF targets on a seed)
STAR_TF_TARGETS = ("PPARGC1A", "PPARA", "TFE3", "ATF3", "KLF4", "ESRRA", "NR1D1")
#: the unfolded-protein response's ER chaperones and secretory machinery (the on/off program D)
UPR = (
    "HSPA5 HSP90B1 PDIA4 PDIA6 PDIA3 P4HB CALR CANX DNAJB11 DNAJC3 SEL1L HYOU1 MANF SDF2L1 CRELD2 HERPUD1 "
    "SEC61A1 SSR1 SSR3 ERO1B FKBP11 TXNDC5 MZB1 SEC11C SPCS3 SSR4"
).split()
#: listed TFs of the UPR that follow nothing (splicing and cleavage move their activity, not their amount)
UPR_TFS = ("XBP1", "ATF6", "CREB3L2")


def _range(prefix: str, numbers: str) -> list[str]:
    return [f"{prefix}{x}" for x in numbers.split()]


#: stable complexes: every subunit measured in stoichiometry
COMPLEXES = {
    "proteasome": _range("PSMA", "1 2 3 4 5 6 7") + _range("PSMB", "1 2 3 4 5 6 7")
    + _range("PSMC", "1 2 3 4 5 6") + _range("PSMD", "1 2 3 4 6 7 8 11 12 13 14"),
    "60S ribosome": _range("RPL", "3 4 5 6 7 7A 8 9 10 10A 11 12 13 13A 14 15 17 18 18A 19 21 22 23 23A 24 26 27 "
                           "27A 28 29 30 31 32 34 35 35A 36 37 37A 38"),
    "40S ribosome": _range("RPS", "2 3 3A 4X 5 6 7 8 9 10 11 12 13 14 15 15A 16 17 18 19 20 21 23 24 25 26 27 "
                           "27A 28 29"),
    "complex I": _range("NDUFA", "1 2 3 4 5 6 7 8 9 10 11 12 13") + _range("NDUFB", "1 2 3 4 5 6 7 8 9 10 11")
    + _range("NDUFS", "1 2 3 4 5 6 7 8") + _range("NDUFV", "1 2 3"),
    "ATP synthase": "ATP5F1A ATP5F1B ATP5F1C ATP5F1D ATP5F1E ATP5PB ATP5MC1 ATP5PD ATP5ME ATP5PF ATP5MF "
    "ATP5MG ATP5PO".split(),
    "CCT": "TCP1 CCT2 CCT3 CCT4 CCT5 CCT6A CCT7 CCT8".split(),
    "MCM": _range("MCM", "2 3 4 5 6 7"),
    "exosome": _range("EXOSC", "1 2 3 4 5 6 7 8 9 10") + ["DIS3"],
    "COPI": "COPA COPB1 COPB2 COPG1 COPE COPZ1 ARCN1".split(),
    "SF3B": _range("SF3B", "1 2 3 4 5 6") + ["PHF5A"],
    "RNA pol II": _range("POLR2", "A B C D E F G H I J K L"),
    "eIF3": _range("EIF3", "A B C D E F G H I J K L M"),
}  # fmt: skip
#: the program a complex's abundance follows (growth: the ribosome, CCT, MCM...; respiration: complex I, ATP
#: synthase; none: the proteasome, COPI)
COMPLEX_PROGRAM = {c: "respiration" if c in ("complex I", "ATP synthase") else "growth" for c in COMPLEXES}
COMPLEX_PROGRAM["proteasome"] = COMPLEX_PROGRAM["COPI"] = ""
#: lineage -> (CCLE suffix, its cell lines, its listed TFs)
LINEAGES = {
    "lung": ("LUNG", "A549 NCIH460 NCIH1299 HCC827 CALU3 NCIH23 NCIH358 PC9 NCIH1975 HCC44", "NKX2-1 FOXA2"),
    "breast": ("BREAST", "MCF7 T47D MDAMB231 HCC1937 BT474 SKBR3 MDAMB468 ZR751 HCC1806", "GATA3 ESR1 FOXA1"),
    "colon": ("LARGE_INTESTINE", "HCT116 HT29 SW480 SW620 LOVO DLD1 RKO COLO205 HCT15", "CDX2 HNF4A"),
    "melanoma": ("SKIN", "A375 SKMEL5 SKMEL28 MALME3M UACC62 WM266 COLO829 SKMEL2", "MITF SOX10"),
    "kidney": ("KIDNEY", "786O A498 ACHN CAKI1 CAKI2 769P", "PAX8 HNF1B"),
    "liver": ("LIVER", "HEPG2 HUH7 PLCPRF5 SNU449 HEP3B SNU398", "HNF1A ONECUT1"),
    "leukaemia": ("HAEMATOPOIETIC_AND_LYMPHOID_TISSUE", "K562 HL60 MOLM13 THP1 KASUMI1 MV411", "SPI1 GATA1"),
    "myeloma": (
        "HAEMATOPOIETIC_AND_LYMPHOID_TISSUE",
        "KMS11 RPMI8226 MM1S U266B1 OPM2 AMO1 L363 NCIH929",
        "IRF4 PRDM1",
    ),
}
#: other listed TFs a deep proteome quantifies
OTHER_TFS = (
    "STAT1 STAT3 STAT5A STAT6 IRF2 IRF3 NFKB1 NFKB2 RELA RELB JUN JUNB JUND FOSL1 FOSL2 ATF1 ATF2 ATF4 ATF7 "
    "CREB1 CEBPB CEBPG ETV6 ELF1 ELK3 KLF5 KLF6 KLF16 MAX MXD4 MLX MNT E2F4 E2F6 TP53 TEAD1 TEAD3 NR2F2 "
    "NR2C2 NR3C1 ARNT HIF1A NFE2L1 NFE2L2 NFYA NFYB NFYC SP1 SP3 YY1 USF1 USF2 NRF1 CTCF ZEB1 SMAD2 SMAD3 "
    "SMAD4 SREBF1 SREBF2 TCF4 TCF7L2 TCF12 TCF20 GTF2I YBX1 YBX3 HMGA1 HMGB2 SOX4 SOX9 FOXK1 FOXK2 FOXO3 "
    "RUNX1 NFIA NFIB NFIC NFIX ZNF148 ZNF207 ZBTB7A THAP11 ILF2 ILF3 PURA PURB CNBP HCFC1 BCLAF1 CUX1 SAFB "
    "TRIM28 ZNF622 TFAP2A TFCP2 UBTF GABPA ETV3 MYBL2 FOXM1 LIN54 BRD4 MAZ"
).split()


def line_labels() -> list[tuple[str, str]]:
    """Every (label, lineage) of the panel, as CCLE names a line (``A549_LUNG``)."""
    return [(f"{x}_{s}", k) for k, (s, lines, _) in LINEAGES.items() for x in lines.split()]


def design(rng: np.random.Generator) -> dict:
    """The plexes: TMT11 (10 samples and a bridge, 2-6 plexes) or TMTpro 16 (15 and a bridge, 2-4 plexes);
    5-8 lineages, the myeloma always among them (3-5 lines); the lines drawn at random and placed in the
    plexes at random. ``label``, ``lineage`` (index), ``lineages`` (names), ``plex`` (index per row, rows
    in plex order), ``channels``, ``myeloma`` (bool per row)."""
    pro = rng.random() < 0.5
    per, n_plex = (15, int(rng.integers(2, 5))) if pro else (10, int(rng.integers(2, 7)))
    m = per * n_plex
    others = [k for k in LINEAGES if k != "myeloma"]
    names = ["myeloma", *(str(k) for k in rng.choice(others, size=int(rng.integers(4, 8)), replace=False))]
    pool = [(lab, k) for lab, k in line_labels() if k in names]
    n_my = int(rng.integers(3, 6))
    mye = [x for x in pool if x[1] == "myeloma"]
    rest = [x for x in pool if x[1] != "myeloma"]
    pick = [mye[i] for i in rng.choice(len(mye), n_my, replace=False)]
    pick += [rest[i] for i in rng.choice(len(rest), min(len(rest), m - n_my), replace=False)]
    order = rng.permutation(len(pick))
    labels = [pick[i][0] for i in order]
    lineage = np.array([names.index(pick[i][1]) for i in order])
    m = len(labels)
    return {
        "label": labels,
        "lineage": lineage,
        "lineages": names,
        "plex": np.arange(m) // per,
        "channels": per + 1,
        "myeloma": lineage == 0,
    }
