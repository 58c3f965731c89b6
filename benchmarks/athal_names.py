"""Names and the sample design of the ``h27m`` hold-out (``bench_regulators_genome_h27.py``): an
Arabidopsis abiotic-stress compendium on ATH1 arrays (AtGenExpress-like: Kilian et al. 2007), shoots and
roots of seedlings sampled over 24 h after each stress, with DREB2A removed.

Columns are AGI loci (``AT5G05410``), as ATH1 tables mapped to loci are handed. The named genes carry the
loci the writer knows them by (DREB2A's drought- and heat-responsive targets such as ``RD29A``, ``LEA14``,
``ERD10``, ``COR15A``, ``HSP18.2``; the listed TFs it induces, ``HSFA3`` first; the stress TFs (CBFs,
ABFs, HSFs, WRKYs), the clock's (``CCA1``, ``LHY``, ``TOC1``...) and the root's and shoot's; the wound
jasmonate program ``LOX2``, ``AOS``, ``OPR3``, ``JAZ1``...), written from memory, not checked against
TAIR; the rest of the table is synthetic loci in the AGI format. :func:`design` draws the rows: stresses
x tissues x time points x two replicates, labels as AtGenExpress names its files
(``AtGen_6-4231_Salt-Roots-1h_Rep1``)."""

from __future__ import annotations

import numpy as np

#: DREB2A, the removed regulator
STAR = "AT5G05410"
#: DREB2A's targets (induced): named ones first; the module is drawn from these and :data:`MODULE_EXTRA`
MODULE_NAMED = {
    "AT5G52310": "RD29A",
    "AT5G52300": "RD29B",
    "AT1G01470": "LEA14",
    "AT1G20450": "ERD10",
    "AT1G20440": "COR47",
    "AT2G42540": "COR15A",
    "AT2G42530": "COR15B",
    "AT5G15960": "KIN1",
    "AT5G15970": "KIN2",
    "AT3G50970": "LTI30",
    "AT1G76180": "ERD14",
    "AT2G33380": "RD20",
    "AT2G47180": "GolS1",
    "AT1G56600": "GolS2",
    "AT2G39800": "P5CS1",
    "AT5G59720": "HSP18.2",
    "AT5G12030": "HSP17.6A",
    "AT3G12580": "HSP70",
    "AT1G74310": "HSP101",
    "AT3G09640": "APX2",
    "AT5G66400": "RAB18",
    "AT2G17840": "ERD7",
    "AT5G25610": "RD22",
    "AT5G59320": "LTP3",
    "AT5G59310": "LTP4",
    "AT1G77120": "ADH1",
    "AT5G51070": "ERD1",
    "AT2G41430": "ERD15",
    "AT5G06760": "LEA4-5",
}
#: the module's unnamed members (synthetic loci, fixed)
MODULE_EXTRA = tuple(f"AT{c}G{n:05d}" for c, n in zip([1, 2, 3, 4, 5] * 6, range(11110, 41110, 1000), strict=False))
MODULE = tuple(MODULE_NAMED) + MODULE_EXTRA
#: listed TFs DREB2A induces (+1)
STAR_TF_TARGETS = {
    "AT5G03720": "HSFA3",
    "AT1G52890": "NAC019",
    "AT3G15500": "NAC055",
    "AT4G27410": "RD26",
    "AT1G27730": "ZAT10",
    "AT5G59820": "ZAT12",
    "AT2G47190": "MYB2",
}
#: the wound jasmonate program (the on/off program D), none of them listed
JASMONATE = {
    "AT3G45140": "LOX2",
    "AT5G42650": "AOS",
    "AT3G25760": "AOC1",
    "AT2G06050": "OPR3",
    "AT1G19180": "JAZ1",
    "AT5G13220": "JAZ10",
    "AT5G24770": "VSP2",
    "AT5G24780": "VSP1",
    "AT1G17420": "LOX3",
    "AT1G72520": "LOX4",
    "AT1G19640": "JMT",
    "AT2G46370": "JAR1",
    "AT2G24850": "TAT3",
    "AT1G17380": "JAZ5",
    "AT1G70700": "JAZ9",
    "AT3G17860": "JAZ3",
    "AT1G74950": "JAZ2",
    "AT5G42250": "ADH-like",
    "AT4G16760": "ACX1",
    "AT1G20510": "OPCL1",
    "AT3G48520": "CYP94B3",
    "AT2G34810": "BBE-like",
}
#: listed TFs that follow a factor of the design: the factor's name (a stress, "tissue" or "clock")
FOLLOWS = {
    "AT4G25490": ("CBF1", "cold"),
    "AT4G25470": ("CBF2", "cold"),
    "AT4G25480": ("CBF3", "cold"),
    "AT4G34000": ("ABF3", "osmotic"),
    "AT2G36270": ("ABI5", "osmotic"),
    "AT1G45249": ("AREB1", "salt"),
    "AT3G19290": ("ABF4", "drought"),
    "AT2G26150": ("HSFA2", "heat"),
    "AT3G51910": ("HSFA7A", "heat"),
    "AT4G36990": ("HSFB1", "heat"),
    "AT5G62020": ("HSFB2A", "heat"),
    "AT2G38470": ("WRKY33", "wounding"),
    "AT1G80840": ("WRKY40", "wounding"),
    "AT3G23240": ("ERF1", "wounding"),
    "AT1G32640": ("MYC2", "wounding"),
    "AT5G11260": ("HY5", "uvb"),
    "AT1G27730": ("ZAT10", "oxidative"),
    "AT5G59820": ("ZAT12", "oxidative"),
    "AT2G43010": ("PIF4", "clock"),
    "AT2G46830": ("CCA1", "clock"),
    "AT1G01060": ("LHY", "clock"),
    "AT5G61380": ("TOC1", "clock"),
    "AT5G02810": ("PRR7", "clock"),
    "AT2G46790": ("PRR9", "clock"),
    "AT3G46640": ("LUX", "clock"),
    "AT3G09600": ("RVE8", "clock"),
    "AT4G37650": ("SHR", "tissue"),
    "AT3G54220": ("SCR", "tissue"),
    "AT3G20840": ("PLT1", "tissue"),
    "AT3G11260": ("WOX5", "tissue"),
    "AT1G79840": ("GL2", "tissue"),
    "AT5G14750": ("WER", "tissue"),
    "AT2G20570": ("GLK1", "tissue"),
    "AT5G44190": ("GLK2", "tissue"),
}
#: the stresses (AtGenExpress series order), each with its series code
STRESSES = {
    "Control": "1",
    "Cold": "2",
    "Osmotic": "3",
    "Salt": "4",
    "Drought": "5",
    "Genotoxic": "6",
    "Oxidative": "7",
    "UV-B": "8",
    "Wounding": "9",
    "Heat": "0",
}
#: the factor each stress's program is (Control has none)
FACTOR = {s: s.lower().replace("-", "") for s in STRESSES if s != "Control"}
TISSUES = ("Shoots", "Roots")
TIMES = (0.25, 0.5, 1.0, 3.0, 6.0, 12.0, 24.0)  # hours after the stress began
#: the time points every seed keeps, and the stresses (the osmotic ones, heat and wounding) it keeps
KEEP_TIMES, KEEP_STRESSES = (0.5, 1.0, 3.0, 6.0, 24.0), ("Control", "Osmotic", "Salt", "Heat", "Wounding")
#: AGI numbers run to about these per chromosome
CHROM_MAX = {1: 80990, 2: 48000, 3: 63000, 4: 39990, 5: 67000}
#: the hour of the day (after dawn) the first samples were taken
START_HOUR = 3.0


def loci(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` synthetic AGI loci (``AT3G12345`` with the last digit 0), none in ``taken`` (updated)."""
    out = []
    chroms = np.array(list(CHROM_MAX))
    weights = np.array(list(CHROM_MAX.values()), float)
    while len(out) < n:
        c = int(rng.choice(chroms, p=weights / weights.sum()))
        code = f"AT{c}G{10 * int(rng.integers(101, CHROM_MAX[c] // 10)):05d}"
        if code not in taken:
            taken.add(code)
            out.append(code)
    return out


def design(rng: np.random.Generator) -> dict:
    """The rows of one seed: 7-10 stresses (the control, the osmotic stresses, heat and wounding always)
    x both tissues x 5-7 time points (0.5, 1, 3, 6 and 24 h always) x two replicates, 0-4 % of the arrays
    failed and left out, in series order. Per row: ``label``, ``stress``, ``tissue`` (0 shoots, 1 roots),
    ``hours`` (after the stress began), ``clock`` (hours after dawn, mod 24), ``series`` (index of the
    stress in :data:`STRESSES`)."""
    optional = [s for s in STRESSES if s not in KEEP_STRESSES]
    extra = rng.choice(optional, int(rng.integers(2, len(optional) + 1)), replace=False)
    stresses = [s for s in STRESSES if s in KEEP_STRESSES or s in extra]
    more = [t for t in TIMES if t not in KEEP_TIMES]
    times = sorted(set(KEEP_TIMES) | set(rng.choice(more, int(rng.integers(0, len(more) + 1)), replace=False)))
    rows = [(s, ti, t, r) for s in stresses for ti in range(2) for t in times for r in (1, 2)]
    keep = rng.random(len(rows)) >= rng.uniform(0.0, 0.04)
    rows = [row for row, k in zip(rows, keep, strict=True) if k]
    names = list(STRESSES)
    labels = [
        f"AtGen_6-{STRESSES[s]}{ti + 1}{times.index(t) + 1}{r}_{s}-{TISSUES[ti]}-{t:g}h_Rep{r}" for s, ti, t, r in rows
    ]
    return {
        "label": labels,
        "stress": np.array([s for s, _, _, _ in rows]),
        "tissue": np.array([ti for _, ti, _, _ in rows]),
        "hours": np.array([t for _, _, t, _ in rows]),
        "clock": np.array([(START_HOUR + t) % 24.0 for _, _, t, _ in rows]),
        "series": np.array([names.index(s) for s, _, _, _ in rows]),
    }
