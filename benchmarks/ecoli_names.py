"""E. coli gene symbols and a compendium's experiment design for the ``h23m`` hold-out
(``bench_regulators_genome_h23.py``).

Real symbols for the named sets of an E. coli microarray compendium (M3D, COLOMBOS, DREAM5's E. coli
network-inference table): the removed CRP, its regulon as operons with each operon's specific
regulator (the catabolic operons that need cAMP-CRP and their own inducer-responsive factor: lac
with LacI, mal with MalT, gal with GalS/GalR, ara with AraC... (RegulonDB; Gosset et al. 2004);
``cyaA``, ``ompA`` and the Spot 42 RNA ``spf`` repressed), the listed TFs that CRP itself regulates,
other listed TFs, and the stringent-response genes (ppGpp, not a TF: ribosomal proteins down, amino
acid biosynthesis up). Carbon sources carry their cAMP-CRP level (high on poor or non-PTS sugars,
low on glucose). :func:`design` lays out the arrays as a compendium has them: many experiment
series of 2-20 arrays, conditions in replicate, short time courses, knockout comparisons and an SHX
(stringent) series."""

from __future__ import annotations

import numpy as np

STAR = "crp"
#: CRP's operons (genes in transcription order) -> the operon's specific regulator ("" none);
#: the sign: +1 activated by cAMP-CRP, -1 repressed
OPERONS = {
    "lacZ lacY lacA": ("lacI", 1), "malE malF malG": ("malT", 1), "malK lamB malM": ("malT", 1),
    "malP malQ": ("malT", 1), "malS": ("malT", 1), "malZ": ("malT", 1), "galE galT galK galM": ("galS", 1),
    "galP": ("galR", 1), "mglB mglA mglC": ("galS", 1), "araB araA araD": ("araC", 1), "araE": ("araC", 1),
    "araF araG araH": ("araC", 1), "xylA xylB": ("xylR", 1), "xylF xylG xylH": ("xylR", 1),
    "rhaB rhaA rhaD": ("rhaS", 1), "rhaT": ("rhaS", 1), "fucP fucI fucK": ("fucR", 1), "fucA fucO": ("fucR", 1),
    "melA melB": ("melR", 1), "glpF glpK": ("glpR", 1), "glpD": ("glpR", 1), "glpA glpB glpC": ("glpR", 1),
    "glpT glpQ": ("glpR", 1), "gntT": ("gntR", 1), "gntK gntU": ("gntR", 1), "dctA": ("", 1),
    "dcuB fumB": ("dcuR", 1), "acs yjcH actP": ("", 1), "aceB aceA aceK": ("iclR", 1),
    "glcD glcE glcF glcG glcB glcA": ("glcC", 1), "sdhC sdhD sdhA sdhB sucA sucB sucC sucD": ("", 1),
    "fumA": ("", 1), "mdh": ("", 1), "cstA": ("", 1), "nagE": ("nagC", 1), "nagB nagA": ("nagC", 1),
    "manX manY manZ": ("nagC", 1), "ptsG": ("mlc", 1), "treB treC": ("treR", 1), "udp": ("cytR", 1),
    "deoC deoA deoB deoD": ("cytR", 1), "cdd": ("cytR", 1), "tsx": ("cytR", 1), "nupG": ("cytR", 1),
    "ansB": ("", 1), "aldB": ("", 1), "tnaC tnaA tnaB": ("", 1), "mtlA mtlD": ("mtlR", 1),
    "srlA srlE srlB srlD": ("srlR", 1), "fruB fruK fruA": ("cra", 1), "gatY gatZ gatA gatB gatC gatD": ("gatR", 1),
    "pckA": ("cra", 1), "uhpT": ("uhpA", 1), "glgC glgA glgP": ("", 1), "lsrA lsrC lsrD lsrB lsrF lsrG": ("lsrR", 1),
    "chiP chiQ": ("nagC", 1), "cyaR": ("", 1), "dadA dadX": ("", 1), "cpdB": ("", 1), "cyaA": ("", -1),
    "ompA": ("", -1), "spf": ("", -1),
}  # fmt: skip
#: listed TFs that cAMP-CRP regulates (5-10 are R*'s TF targets on a seed)
CRP_TF_TARGETS = ("malT", "galS", "araC", "rhaS", "rhaR", "xylR", "melR", "fucR", "cytR", "nagC", "mtlR", "fis")
OTHER_TFS = (
    "fnr arcA narL narP ihfA ihfB hns stpA lrp soxS soxR oxyR marA rob cpxR ompR phoB phoP fur zur iscR "
    "nsrR metJ metR trpR tyrR argR purR lysR cysB gcvA ilvY leuO nac glnG rcsB evgA gadE gadX gadW cueR "
    "cusR zntR modE nikR lexA fadR fabR pdhR csiR nanR exuR uxuR kdgR idnR lldR dpiA tdcA deoR cynR betI "
    "hcaR mhpR paaX allR allS csgD flhD flhC fliA rpoS rpoE rpoN rpoH baeR basR kdpE torR uvrY qseB rstA "
    "creB hyfR fhlA nhaR ascG ebgR rbsR cbl dsdC gcvR hdfR mngR galR lacI glpR gntR dcuR iclR glcC mlc "
    "treR srlR cra gatR uhpA lsrR dnaA mraZ slyA hypT cspA ada ybeF yqjI yeiE ydcN ygiV"
).split()
#: the stringent response (ppGpp): ribosomal proteins down, amino acid biosynthesis up
RIBOSOMAL = (
    "rplA rplB rplC rplD rplE rplF rplI rplJ rplK rplL rplM rplN rplO rplP rplQ rplR rplS rplT rplU rplV "
    "rplW rplX rplY rpmA rpmB rpmC rpmD rpmE rpmF rpmG rpmH rpmI rpmJ rpsA rpsB rpsC rpsD rpsE rpsF rpsG "
    "rpsH rpsI rpsJ rpsK rpsL rpsM rpsN rpsO rpsP rpsQ rpsR rpsS rpsT rpsU tufA tufB fusA tsf rpoA rpoB rpoC "
    "infA infB infC"
).split()
AMINO = (
    "hisG hisD hisC hisB hisH hisA hisF hisI thrA thrB thrC ilvB ilvN ilvC ilvD ilvE leuA leuB leuC leuD "
    "argA argB argC argE argH lysA metE metA metB trpE trpD trpC livJ livK aroF tyrA pheA serA gltB "
    "asnA asnB glnA gdhA proA proB cysK cysE glyA serC aroG aroH trpB trpA lysC dapA dapB metL ilvA ilvG ilvM"
).split()
#: carbon source -> its cAMP-CRP level (standard units; glucose lowest)
MEDIA = {
    "glc": -1.2, "LB": -0.3, "fru": -0.4, "glcNAc": 0.1, "gly": 0.9, "ace": 0.8, "succ": 0.6, "lac": 1.0,
    "mal": 0.9, "gal": 0.8, "ara": 0.7, "xyl": 0.7,
}  # fmt: skip
TREATMENTS = ("ctrl", "NaCl", "acid", "H2O2", "cold", "anaer", "Fe", "lowP", "EtOH", "heat", "NO", "Cu")
#: series kinds: conditions, a time course, a knockout comparison (WT vs a deleted TF)
KINDS = ("cond", "tc", "ko")
P_KIND = (0.55, 0.3, 0.15)
REPS = ((1, 2, 3), (0.3, 0.45, 0.25))  # replicate arrays per condition and their probabilities


def y_names(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` distinct E. coli-like names of uncharacterized genes (``ybcK``: y, two letters, a capital)."""
    out: set[str] = set()
    low, up = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    while len(out) < n:
        name = "y" + "".join(rng.choice(list(low), 2)) + str(rng.choice(list(up)))
        if name not in taken:
            out.add(name)
    return sorted(out)


def design(rng: np.random.Generator, m: int, ko_tfs: list[str], shx: bool = True) -> dict:
    """``m`` arrays in experiment series: per array its ``series``, ``condition`` (index), ``label``
    (``GSE1234_gly_NaCl_r2``, ``GSE1234_glc_t030_r1``, ``GSE1234_dmalT_glc_r1``), ``medium``, ``time``
    (0..1 along a time course, 0 elsewhere), ``ko`` (the deleted TF, "" for none), ``shx`` (the SHX
    series' treated arrays: 0, else the time after SHX 0..1). The series: an SHX series first (2-4
    treated time points and an untreated one, in duplicate), then ``KINDS`` drawn by ``P_KIND``, 2-20
    arrays each, the knockout series over ``ko_tfs`` in turn, until ``m``. Labels are unique."""
    rows: list[tuple] = []  # (series, condition, name, rep, medium, time, ko, shx)
    cond, series = 0, 0
    ids = rng.choice(np.arange(1000, 99999), size=m, replace=False)
    if shx:
        med = str(rng.choice(list(MEDIA)))
        times = [0, *sorted(rng.choice([5, 10, 15, 30, 60], size=int(rng.integers(2, 5)), replace=False))]
        for t in times:
            for r in (1, 2):
                rows.append((series, cond, f"{med}_SHX_t{t:03d}", r, med, 0.0, "", t / 60.0))
            cond += 1
        series += 1
    k = 0
    while len(rows) < m:
        kind = str(rng.choice(KINDS, p=P_KIND))
        size = int(rng.integers(2, 21))
        med = str(rng.choice(list(MEDIA)))
        start = len(rows)
        if kind == "tc":
            n_t = max(2, min(12, size // int(rng.integers(1, 3))))
            reps = max(1, size // n_t)
            step = int(rng.choice([5, 10, 15, 30, 60]))
            for t in range(n_t):
                for r in range(reps):
                    rows.append((series, cond, f"{med}_t{t * step:03d}", r + 1, med, t / max(1, n_t - 1), "", 0.0))
                cond += 1
        elif kind == "ko" and ko_tfs:
            tf = ko_tfs[k % len(ko_tfs)]
            k += 1
            meds = [med, *rng.choice(list(MEDIA), size=int(rng.integers(0, 2)))]
            reps = int(rng.integers(2, 4))
            for mm in dict.fromkeys(str(x) for x in meds):
                for geno in ("WT", f"d{tf}"):
                    for r in range(reps):
                        rows.append((series, cond, f"{geno}_{mm}", r + 1, mm, 0.0, "" if geno == "WT" else tf, 0.0))
                    cond += 1
        else:
            used: set[str] = set()
            while len(rows) - start < size:
                mm = str(rng.choice(list(MEDIA))) if rng.random() < 0.5 else med
                name = f"{mm}_{rng.choice(TREATMENTS)}"
                if name in used:
                    continue
                used.add(name)
                reps = min(int(rng.choice(REPS[0], p=REPS[1])), size - (len(rows) - start))
                for r in range(reps):
                    rows.append((series, cond, name, r + 1, mm, 0.0, "", 0.0))
                cond += 1
        series += 1
    rows = rows[:m]
    labels = [f"GSE{ids[s]}_{name}_r{rep}" for s, _, name, rep, *_ in rows]  # unique: one name per condition
    cond_ids = np.unique([r[1] for r in rows], return_inverse=True)[1]
    return {
        "series": np.array([r[0] for r in rows]),
        "condition": cond_ids,
        "label": labels,
        "medium": [r[4] for r in rows],
        "time": np.array([r[5] for r in rows]),
        "ko": [r[6] for r in rows],
        "shx": np.array([r[7] for r in rows]),
    }
