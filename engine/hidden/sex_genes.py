"""Does a hidden variable follow the samples' sex? A reading for human and mouse tables (#22, session 26)

In a table of human or mouse samples of both sexes, one of the strongest shared signals is sex:
``XIST`` (transcribed from the inactive X, in females) against the genes of the Y chromosome
(``RPS4Y1``, ``DDX3Y``, ``KDM5D``, ``UTY``, ``EIF1AY``...; in males), several log2 apart, with every
other sex-biased gene on top. A hidden variable proposed from ideal profiles (JMLR 2007 section 5) and
kept by structural EM (section 6) can take them as children and pay by hundreds of nats: sex is a real
unmeasured variable of a table without sample annotations, but not the regulator a biologist looks for.
The ``h25m`` hold-out (a GTEx-like atlas, session 26) kept such an H on its first seed, planted and null
(|r| 0.99-1.00 with the donors' sex, 133-146 children), listed beside the real programs.

The reading, from the table's own names and values:

* **the table's sex genes** (:func:`sex_axis`): the names of :data:`FEMALE_GENES` and
  :data:`MALE_GENES` present (case ignored: human ``XIST``, mouse ``Xist``), at least one of each or
  at least :data:`MIN_MALE` male ones; none: no reading (a table of other names, or of one sex's genes
  only);
* **the sex axis**: the mean of the male genes' standardized values minus the female genes' mean (each
  side's mean of what is present): high in males, low in females;
* **flagged** when ``|corr(H's profile, sex axis)| >= MIN_CORR`` (0.8) and the axis is bimodal as
  sex is (:data:`MIN_GAP`: the largest gap between sorted axis values at least half its sd, so a
  table of one sex, whose axis is noise, is not read); the reading names the genes and the correlation.

A reading for a person, not a keep rule: sex is real, and a study of sex differences would keep it; the
reading says what it is and how to set it apart (sex as a covariate, ``--covariates``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

__all__ = [
    "FEMALE_GENES",
    "MALE_GENES",
    "MIN_CORR",
    "MIN_GAP",
    "MIN_MALE",
    "SexAxis",
    "SexReading",
    "sex_axis",
    "sex_reading",
    "sex_text",
]

#: expressed in females only: X-inactivation transcripts (human and mouse symbols, upper case)
FEMALE_GENES = ("XIST", "TSIX")
#: expressed in males only: genes of the Y chromosome's male-specific region (human; mouse ``Ddx3y``...)
MALE_GENES = (
    "RPS4Y1", "DDX3Y", "KDM5D", "UTY", "EIF1AY", "ZFY", "USP9Y", "NLGN4Y", "TXLNGY", "PRKY", "TMSB4Y",
    "EIF2S3Y", "RPS4Y2", "TBL1Y", "PCDH11Y",
)  # fmt: skip
#: fewest male genes that make an axis without a female one
MIN_MALE = 2
#: |corr(H's profile, the sex axis)| from which H is read as the samples' sex
MIN_CORR = 0.8
#: the largest gap between the axis' sorted values, in its sd, from which the table holds both sexes
MIN_GAP = 0.5


@dataclass(frozen=True)
class SexAxis:
    """A table's sex genes (``female``, ``male``: names as in the table) and its ``axis`` (M,): the male
    genes' standardized mean minus the female genes'; ``both`` when the axis splits the samples in two."""

    female: tuple[str, ...]
    male: tuple[str, ...]
    axis: np.ndarray
    both: bool


@dataclass(frozen=True)
class SexReading:
    """H's correlation with the table's sex axis (``corr``, signed: > 0 when H is high in males), the
    genes that make the axis, and whether H reads as the samples' sex (``flagged``)."""

    corr: float
    female: list[str]
    male: list[str]
    flagged: bool

    def to_dict(self) -> dict:
        return asdict(self)


def sex_axis(values: np.ndarray, names: Sequence[str]) -> SexAxis | None:
    """The table's sex axis (see the module docstring) from ``values`` (M, n) of the observed ``names``,
    or None when the names do not hold enough sex genes."""
    upper = {str(n).upper(): j for j, n in enumerate(names)}
    fem = [upper[g] for g in dict.fromkeys(FEMALE_GENES) if g in upper]
    male = [upper[g] for g in dict.fromkeys(MALE_GENES) if g in upper]
    if not male or (not fem and len(male) < MIN_MALE):
        return None
    x = np.asarray(values, dtype=float)

    def side(cols: list[int]) -> np.ndarray:
        block = x[:, cols]
        sd = block.std(axis=0)
        z = (block - block.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
        return z.mean(axis=1)

    axis = side(male) - (side(fem) if fem else 0.0)
    sd = float(axis.std())
    both = sd > 0 and float(np.diff(np.sort(axis)).max(initial=0.0)) >= MIN_GAP * sd
    return SexAxis(tuple(str(names[j]) for j in fem), tuple(str(names[j]) for j in male), axis, bool(both))


def sex_reading(profile: np.ndarray, axis: SexAxis | None) -> SexReading | None:
    """Whether H's ``profile`` (M,) follows the table's sex ``axis`` (:func:`sex_axis`); None without one."""
    if axis is None:
        return None
    p = np.asarray(profile, dtype=float)
    if p.std() == 0 or axis.axis.std() == 0:
        return SexReading(0.0, list(axis.female), list(axis.male), False)
    r = float(np.corrcoef(p, axis.axis)[0, 1])
    return SexReading(r, list(axis.female), list(axis.male), bool(axis.both and abs(r) >= MIN_CORR))


def sex_text(reading: dict | None, name: str = "H") -> str | None:
    """The reading in words when flagged (learn's stderr, the report table, the Hidden page), else None."""
    if not reading or not reading.get("flagged"):
        return None
    genes = [*reading["female"][:1], *reading["male"][:3]]
    more = len(reading["female"]) + len(reading["male"]) - len(genes)
    listed = ", ".join(genes) + (f" and {more} more" if more > 0 else "")
    high = "males" if reading["corr"] > 0 else "females"
    return (
        f"{name} follows the samples' sex (r = {reading['corr']:+.2f} with {listed}; high in {high}): a property "
        "of the donors, not a regulator; give sex as a covariate (--covariates) to set it apart"
    )
