"""Names, genome positions and the row design of the ``h28m`` hold-out (``bench_regulators_genome_h28.py``):
a budding-yeast segregant panel (BY x RM, as Brem and Kruglyak 2005 profiled the segregants of a cross
between the lab strain BY4716 and the wild isolate RM11-1a on two-colour arrays against a BY reference),
with HAP1 removed.

Columns are systematic ORF names (``YLR256W``: Y, chromosome L = XII, left or right arm, the ORF's number
from the centromere, Watson or Crick), as a yeast table's rows carry them; the name gives the ORF's place
on its chromosome (:func:`position`), and so which ORFs are linked. The named genes carry the ORFs the
writer knows them by (HAP1's targets: the ergosterol pathway ``ERG11``, ``ERG3``, ``ERG25``..., the
cytochromes ``CYC1``, ``CYC7``, ``CTA1``; the listed TFs it induces, ``ROX1`` first; the trans-eQTL
hotspots of the cross, ``AMN1``, ``MKT1``, ``IRA2``, ``GPA1`` and the mating-type locus, with their
targets; the auxotrophic markers ``LEU2``, ``URA3``, ``LYS2``; the retrograde response of petite
segregants, ``CIT2``, ``DLD3``, ``IDP2``...), written from memory, not checked against SGD; the rest of
the table is synthetic ORF names within each arm's length. :func:`design` draws the rows: parental arrays
of both strains and segregants labelled as tetrad, spore (``47_2_c``), hybridised in batches."""

from __future__ import annotations

import numpy as np

#: HAP1, the removed regulator (its BY allele carries a Ty1 insertion: BY's HAP1 is weak)
STAR = "YLR256W"
#: HAP1's targets (induced): named ones first; the module is drawn from these and :data:`MODULE_EXTRA`
MODULE_NAMED = {
    "YHR007C": "ERG11", "YLR056W": "ERG3", "YMR015C": "ERG5", "YGR060W": "ERG25", "YGR175C": "ERG1",
    "YMR202W": "ERG2", "YML008C": "ERG6", "YGL012W": "ERG4", "YHR190W": "ERG9", "YPL028W": "ERG10",
    "YML126C": "ERG13", "YML075C": "HMG1", "YGL001C": "ERG26", "YLR100W": "ERG27", "YNL280C": "ERG24",
    "YHR072W": "ERG7", "YJL167W": "ERG20", "YMR220W": "ERG8", "YMR208W": "ERG12", "YPL117C": "IDI1",
    "YNR043W": "MVD1", "YHR042W": "NCP1", "YNL111C": "CYB5", "YJR048W": "CYC1", "YEL039C": "CYC7",
    "YDR256C": "CTA1", "YGR234W": "YHB1", "YOR065W": "CYT1", "YBL045C": "COR1",
}  # fmt: skip
#: the module's unnamed members (synthetic ORF names, fixed)
MODULE_EXTRA = tuple(
    f"Y{c}{arm}{n:03d}{s}"
    for c, arm, n, s in zip(
        "ABCDEFGHIJKLMNOPABCDEFGHI", "LRRLRLRRLRRLRRLRLRRLRLRRL", range(31, 56), "WC" * 12 + "W", strict=True
    )
)
MODULE = tuple(MODULE_NAMED) + MODULE_EXTRA
#: listed TFs HAP1 induces (+1): the heme and oxygen repressors and sterol activators
STAR_TF_TARGETS = {
    "YPR065W": "ROX1", "YKL109W": "HAP4", "YDR213W": "UPC2", "YLR228C": "ECM22", "YGL162W": "SUT1",
    "YMR070W": "MOT3", "YIR033W": "MGA2",
}  # fmt: skip
#: the retrograde response of petite segregants (the on/off program D), none of them listed
RETROGRADE = {
    "YCR005C": "CIT2", "YEL071W": "DLD3", "YLR174W": "IDP2", "YNL037C": "IDH1", "YOR136W": "IDH2",
    "YLR304C": "ACO1", "YNR001C": "CIT1", "YPR002W": "PDH1", "YGL062W": "PYC1", "YBR291C": "CTP1",
    "YAL054C": "ACS1", "YML042W": "CAT2", "YGL205W": "POX1", "YNL117W": "MLS1", "YER065C": "ICL1",
    "YJR095W": "SFC1", "YKR009C": "FOX2", "YIL160C": "POT1", "YBL015W": "ACH1", "YNL009W": "IDP3",
    "YOL126C": "MDH2", "YKR097W": "PCK1",
}  # fmt: skip
#: the cross's trans-eQTL hotspots: locus -> (name, its named targets (sign for the RM allele))
HOTSPOTS = {
    "YBR158W": ("AMN1", {"YER124C": 1, "YHR143W": 1, "YLR286C": 1, "YGL028C": 1, "YNL327W": 1, "YNR067C": 1}),
    "YNL085W": ("MKT1", {}),
    "YOL081W": ("IRA2", {}),
    "YHR005C": ("GPA1", {"YCL027W": 1, "YBR040W": 1, "YNL279W": 1, "YNR044W": 1, "YBL016W": 1}),
    # the mating-type locus: RM11-1a is MATa, BY4716 MATalpha (the reference): a-specific up, alpha down
    "YCR040W": (
        "MAT",
        {"YDR461W": 1, "YNL145W": 1, "YFL026W": 1, "YKL209C": 1, "YIL015W": 1, "YGL032C": 1}
        | {"YPL187W": -1, "YGL089C": -1, "YKL178C": -1, "YJR004C": -1},
    ),
}
#: the auxotrophic markers: locus -> sign of its column's jump with the RM allele (RM leu2 ura3, BY lys2)
MARKERS = {"YCL018W": -1.0, "YEL021W": -1.0, "YBR115C": 1.0}
#: listed TFs that follow an unlisted program (a hotspot's genotype or growth) or nothing (RTG1, RTG3:
#: the retrograde response moves their proteins into the nucleus, not their mRNA)
FOLLOWS = {
    "YLR131C": ("ACE2", "AMN1"), "YHR084W": ("STE12", "GPA1"), "YMR037C": ("MSN2", "IRA2"),
    "YKL062W": ("MSN4", "IRA2"), "YLR403W": ("SFP1", "growth"), "YOL067C": ("RTG1", ""),
    "YBL103C": ("RTG3", ""),
}  # fmt: skip
COMMON = (
    MODULE_NAMED
    | STAR_TF_TARGETS
    | RETROGRADE
    | {k: v[0] for k, v in FOLLOWS.items()}
    | {k: v[0] for k, v in HOTSPOTS.items()}
    | {"YLR256W": "HAP1", "YCL018W": "LEU2", "YEL021W": "URA3", "YBR115C": "LYS2"}
)
#: the ORFs on each arm (the highest number, roughly; chromosomes I-XVI are A-P)
ARMS = {
    "AL": 68, "AR": 75, "BL": 112, "BR": 302, "CL": 76, "CR": 108, "DL": 248, "DR": 545, "EL": 77, "ER": 190,
    "FL": 68, "FR": 57, "GL": 263, "GR": 296, "HL": 50, "HR": 219, "IL": 177, "IR": 44, "JL": 225, "JR": 162,
    "KL": 225, "KR": 106, "LL": 67, "LR": 466, "ML": 131, "MR": 326, "NL": 339, "NR": 77, "OL": 164,
    "OR": 394, "PL": 283, "PR": 204,
}  # fmt: skip
#: Morgans a step of one ORF (about 0.35 cM a kb, an ORF every 2 kb)
MORGAN_PER_ORF = 0.0072
PARENTS = ("BY", "RM")


def position(name: str) -> tuple[str, int]:
    """An ORF's chromosome (``A``-``P``) and its place on it (left arm negative, right arm positive)."""
    return name[1], (-1 if name[2] == "L" else 1) * int(name[3:6])


def orfs(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` distinct synthetic ORF names within each arm's length (arms drawn by length), not in
    ``taken``, in drawing order."""
    arms = list(ARMS)
    size = np.array([ARMS[a] for a in arms])
    out: dict[str, None] = {}
    while len(out) < n:  # in batches: an arm by its length, a number on it, a strand
        arm = rng.choice(len(arms), size=n, p=size / size.sum())
        num = np.ceil(rng.random(n) * size[arm]).astype(int)
        for a, k, w in zip(arm, num, rng.integers(0, 2, n), strict=True):
            name = f"Y{arms[a]}{max(k, 1):03d}{'WC'[w]}"
            if name not in taken and name not in out and len(out) < n:
                out[name] = None
    return list(out)


def genotypes(rng: np.random.Generator, loci: list[str], kind: np.ndarray) -> np.ndarray:
    """(M, len(loci)) 0 (BY allele) or 1 (RM): a parental row all 0 or all 1; a segregant one meiosis of
    the hybrid, 2:2 at each locus over the panel, crossovers along each chromosome at Haldane's rate
    (linked ORFs share their allele)."""
    m = len(kind)
    out = np.zeros((m, len(loci)), dtype=np.int8)
    where = [position(x) for x in loci]
    for chrom in sorted({c for c, _ in where}):
        idx = sorted((i for i, (c, _) in enumerate(where) if c == chrom), key=lambda i: where[i][1])
        g = rng.random(m) < 0.5
        prev = where[idx[0]][1]
        for i in idx:
            step = where[i][1] - prev
            g = g ^ (rng.random(m) < 0.5 * (1.0 - np.exp(-2.0 * MORGAN_PER_ORF * step)))
            out[:, i], prev = g, where[i][1]
    out[kind == 0] = 0
    out[kind == 1] = 1
    return out


def design(rng: np.random.Generator) -> dict:
    """The rows: 2-4 arrays of each parent, then 95-240 segregants (one per tetrad on most, a full tetrad
    now and then), in label order; hybridisation batches of 16-24 consecutive arrays; 2-4 segregants
    disomic for one chromosome each (``disomy``: the chromosome letter, '' for none); 3-8 % of the
    segregants petite (``petite``)."""
    n_par = [int(rng.integers(2, 5)) for _ in PARENTS]
    n_seg = int(rng.integers(95, 241))
    labels, tetrad = [], 0
    while len(labels) < n_seg:
        tetrad += int(rng.integers(1, 4))
        spores = "abcd" if rng.random() < 0.08 else "abcd"[int(rng.integers(0, 4))]
        labels += [f"{tetrad}_{int(rng.integers(1, 5))}_{s}" for s in spores]
    labels = labels[:n_seg]
    kind = np.array([0] * n_par[0] + [1] * n_par[1] + [2] * n_seg)
    labels = [f"{p}_rep{i + 1}" for p, k in zip(PARENTS, n_par, strict=True) for i in range(k)] + labels
    m = len(labels)
    batch = np.arange(m) // int(rng.integers(16, 25))
    seg = np.flatnonzero(kind == 2)
    disomy = np.array([""] * m, dtype=object)
    chroms = [chr(65 + i) for i in range(16)]
    for i, c in zip(rng.choice(seg, int(rng.integers(2, 5)), replace=False), rng.permutation(chroms), strict=False):
        disomy[i] = c
    n_petite = max(3, int(round(n_seg * rng.uniform(0.03, 0.08))))
    petite = np.zeros(m, dtype=bool)
    petite[rng.choice(seg, n_petite, replace=False)] = True
    return {"label": labels, "kind": kind, "batch": batch, "disomy": disomy, "petite": petite}
