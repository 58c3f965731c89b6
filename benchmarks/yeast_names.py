"""Budding-yeast gene names for the ``h21m`` hold-out (``bench_regulators_genome_h21.py``).

Systematic ORF names as a yeast table's rows carry them (``YER111C``: Y, chromosome E, right arm,
111th ORF from the centromere, Crick strand; a few ``-A`` suffixes), real ones for the listed
transcription factors and the G1/S genes of SBF/MBF (Spellman et al. 1998; Iyer et al. 2001), random
valid ones for the rest. ``COMMON`` maps the real ones to their standard names for the reader."""

from __future__ import annotations

import re

import numpy as np

#: the removed activator: SWI4, SBF's DNA-binding subunit
STAR = "YER111C"
#: the listed cell-cycle TFs that are not R*'s targets, with the cycle fraction of their peak
CC_TFS = {
    "YLR182W": 0.15, "YDL056W": 0.15, "YNL309W": 0.10, "YIL131C": 0.45, "YNL068C": 0.55, "YOR372C": 0.45,
    "YMR043W": 0.60, "YLR131C": 0.75, "YDR146C": 0.75, "YKL185W": 0.85, "YOR083W": 0.90,
}  # fmt: skip
#: listed TFs that are SBF/MBF targets at G1/S (3-6 of them are R*'s TF targets on a seed)
R_TARGET_TFS = ("YCR065W", "YML027W", "YDR451C", "YDR501W", "YLR183C", "YNR009W")
OTHER_TFS = tuple(
    "YPL248C YEL009C YMR037C YKL062W YGL073W YML007W YNL216W YKL112W YBR049C YJR060W YFR034C YDR123C "
    "YOL108C YLR451W YGL035C YKL109W YHR206W YHR084W YBR083W YMR016C YKL043W YDR310C YDR207C YPR065W "
    "YMR070W YOR028C YGL071W YJL056C YNL103W YPL038W YDR253C YGL013C YBL005W YER040W YFL021W YKR034W "
    "YGL237C YBL021C YOR358W YOL067C YBL103C YBR182C YPL089C YIL101C YMR021C YDR216W YMR280C YDR043C "
    "YKL032C YMR042W YML099C YGL166W YDL020C YFL031W YNL027W YPR104C YLR403W YPL049C".split()
)
#: SBF/MBF targets peaking at G1/S (the module's real names; padded with random names past them)
G1S_GENES = tuple(
    "YMR199W YPL256C YNL289W YDL127W YPR120C YGR109C YER070W YOR074C YNL102W YNL262W YDL164C YER095W "
    "YOL090W YNL082W YLR103C YDL003W YJL187C YJL194W YBL035C YKL045W YAR007C YNL312W YBR088C YDL101C "
    "YDR225W YDR224C YBR010W YBR009C YPL127C YPL163C YHR061C YDR309C YLR342W YDL055C YER001W YCL024W".split()
)
COMMON = {
    "YER111C": "SWI4", "YLR182W": "SWI6", "YDL056W": "MBP1", "YNL309W": "STB1", "YIL131C": "FKH1",
    "YNL068C": "FKH2", "YOR372C": "NDD1", "YMR043W": "MCM1", "YLR131C": "ACE2", "YDR146C": "SWI5",
    "YKL185W": "ASH1", "YOR083W": "WHI5", "YCR065W": "HCM1", "YML027W": "YOX1", "YDR451C": "YHP1",
    "YDR501W": "PLM2", "YLR183C": "TOS4", "YNR009W": "NRM1", "YPL248C": "GAL4", "YEL009C": "GCN4",
    "YMR037C": "MSN2", "YKL062W": "MSN4", "YGL073W": "HSF1", "YML007W": "YAP1", "YNL216W": "RAP1",
    "YKL112W": "ABF1", "YBR049C": "REB1", "YJR060W": "CBF1", "YFR034C": "PHO4", "YDR123C": "INO2",
    "YOL108C": "INO4", "YLR451W": "LEU3", "YGL035C": "MIG1", "YKL109W": "HAP4", "YHR206W": "SKN7",
    "YHR084W": "STE12", "YBR083W": "TEC1", "YMR016C": "SOK2", "YKL043W": "PHD1", "YDR310C": "SUM1",
    "YDR207C": "UME6", "YPR065W": "ROX1", "YMR070W": "MOT3", "YOR028C": "CIN5", "YGL071W": "AFT1",
    "YJL056C": "ZAP1", "YNL103W": "MET4", "YPL038W": "MET31", "YDR253C": "MET32", "YGL013C": "PDR1",
    "YBL005W": "PDR3", "YER040W": "GLN3", "YFL021W": "GAT1", "YKR034W": "DAL80", "YGL237C": "HAP2",
    "YBL021C": "HAP3", "YOR358W": "HAP5", "YOL067C": "RTG1", "YBL103C": "RTG3", "YBR182C": "SMP1",
    "YPL089C": "RLM1", "YIL101C": "XBP1", "YMR021C": "MAC1", "YDR216W": "ADR1", "YMR280C": "CAT8",
    "YDR043C": "NRG1", "YKL032C": "IXR1", "YMR042W": "ARG80", "YML099C": "ARG81", "YGL166W": "CUP2",
    "YDL020C": "RPN4", "YFL031W": "HAC1", "YNL027W": "CRZ1", "YPR104C": "FHL1", "YLR403W": "SFP1",
    "YPL049C": "DIG1", "YMR199W": "CLN1", "YPL256C": "CLN2", "YNL289W": "PCL1", "YDL127W": "PCL2",
    "YPR120C": "CLB5", "YGR109C": "CLB6", "YER070W": "RNR1", "YOR074C": "CDC21", "YNL102W": "POL1",
    "YNL262W": "POL2", "YDL164C": "CDC9", "YER095W": "RAD51", "YOL090W": "MSH2", "YNL082W": "PMS1",
    "YLR103C": "CDC45", "YDL003W": "MCD1", "YJL187C": "SWE1", "YJL194W": "CDC6", "YBL035C": "POL12",
    "YKL045W": "PRI2", "YAR007C": "RFA1", "YNL312W": "RFA2", "YBR088C": "POL30", "YDL101C": "DUN1",
    "YDR225W": "HTA1", "YDR224C": "HTB1", "YBR010W": "HHT1", "YBR009C": "HHF1", "YPL127C": "HHO1",
    "YPL163C": "SVS1", "YHR061C": "GIC1", "YDR309C": "GIC2", "YLR342W": "FKS1", "YDL055C": "PSA1",
    "YER001W": "MNN1", "YCL024W": "KCC4",
}  # fmt: skip
#: a systematic ORF name
PATTERN = re.compile(r"Y[A-P][LR]\d{3}[WC](-[A-B])?")


def systematic_names(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` distinct random systematic names not in ``taken`` (1 % with an ``-A`` suffix), in
    drawing order."""
    out: dict[str, None] = {}
    while len(out) < n:
        name = (
            f"Y{chr(65 + int(rng.integers(0, 16)))}{'LR'[int(rng.integers(0, 2))]}{int(rng.integers(1, 400)):03d}"
            f"{'WC'[int(rng.integers(0, 2))]}{'-A' if rng.random() < 0.01 else ''}"
        )
        if name not in taken:
            out[name] = None
    return list(out)
