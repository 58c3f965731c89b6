"""Hidden variables against the samples' traits: WGCNA's module-trait relationships for the kept H (#22).

A biologist vetting a hidden regulator asks first whether it is something already known about the samples:
sex, batch, tissue, treatment, RNA integrity, age. WGCNA answers that question for its modules with the
module-trait table (Langfelder & Horvath, BMC Bioinformatics 2008; the tutorial's ``cor(MEs, datTraits,
use = "p")`` and ``corPvalueStudent``): each module eigengene's Pearson correlation with each trait, a
categorical trait binarized first (``binarizeCategoricalColumns``). Here the eigengene is the hidden
variable's profile (its posterior mean E[H | x] under the kept model, JMLR 2007 section 6), and the traits
come from a sample sheet the user gives (``learn --traits FILE``), which, unlike ``--covariates``, is
*not* put into the model: the traits only read what the search found.

* **Coding** (:func:`code_traits`): the sheet's first column holds the instance ids of the data (its
  row labels), the other columns are traits. A column whose known cells are all numbers is a numeric
  trait, as it is; any other column is categorical: with two levels one indicator ``column=level`` of
  the second level (sorted) against the first, with more, one indicator per level against all the others
  (WGCNA's "level vs all"). An empty cell is unknown (NaN), and an instance of the data without a row
  has every trait unknown: each correlation uses the samples where the trait is known (``use = "p"``).
  A column with fewer than two values among the known cells says nothing and is skipped (named).
* **Relationships** (:func:`trait_relations`): Pearson r of every (hidden variable, trait) pair, the
  two-sided Student p of ``t = r sqrt(n - 2) / sqrt(1 - r^2)`` on n - 2 degrees of freedom (WGCNA's
  ``corPvalueStudent``), and Benjamini-Hochberg q over the whole table (all pairs tested).
* **The reading** (:func:`followed_trait`): H *follows* a trait when ``|r| >= MIN_ABS_R`` (0.8, as the
  sex reading's :data:`~.sex_genes.MIN_CORR`) and ``q <= MAX_Q`` (0.05); the strongest such trait is named.

A reading for a person, not a keep rule: a hidden variable that follows the batch is real structure of
the table, and the next step is the user's (give that column with ``--covariates`` so that the search
explains it by the annotation instead of a hidden variable).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy import stats

from ..exceptions import DataValidationError
from ..io.covariates import sheet_ids
from ..listing import first_few

__all__ = [
    "FIX",
    "attach_traits",
    "MAX_Q",
    "MIN_ABS_R",
    "TraitRelation",
    "Traits",
    "code_traits",
    "followed_trait",
    "trait_relations",
    "trait_text",
]

#: |r| from which a hidden variable is read as following a trait
MIN_ABS_R = 0.8
#: Benjamini-Hochberg q (over the whole hidden-variable x trait table) up to which it is
MAX_Q = 0.05
#: fewest samples with the trait known for a correlation (r of 3 points says next to nothing)
MIN_KNOWN = 4


@dataclass(frozen=True)
class Traits:
    """The sample sheet's traits coded for the data's instances (rows in the data's order)."""

    #: numeric traits by their column name, indicators as ``column=level``
    names: tuple[str, ...]
    #: M x T, NaN where the trait is not known for that instance
    values: np.ndarray
    #: what each column became, e.g. ``sex (2 levels: sex=M against F)``, ``age (numeric)``
    described: tuple[str, ...]
    source: str = ""
    #: instances of the data without a row in the sheet (every trait unknown there)
    unmatched: tuple[str, ...] = ()
    #: columns not used, each with why
    skipped: tuple[str, ...] = ()

    def line(self) -> str:
        """What was read, as ``learn`` says it."""
        rest = (
            f"; {len(self.unmatched)} instance(s) without a row: {first_few(self.unmatched, 5)}"
            if self.unmatched
            else ""
        )
        rest += f"; skipped {', '.join(self.skipped)}" if self.skipped else ""
        return f"{', '.join(self.described)}{rest}"


@dataclass(frozen=True)
class TraitRelation:
    """One (hidden variable, trait) pair of the table."""

    hidden: str
    trait: str
    #: Pearson r of H's profile and the trait over the samples where the trait is known
    r: float
    #: two-sided Student p (WGCNA's ``corPvalueStudent``)
    p: float
    #: Benjamini-Hochberg q over every pair of the table
    q: float
    #: samples where the trait is known
    n: int

    def to_dict(self) -> dict:
        return asdict(self)


def code_traits(frame: pd.DataFrame, instances: Sequence, *, source: str = "trait table") -> Traits:
    """Code the sheet ``frame`` (first column: instance ids; cells as text, as
    :func:`engine.io.covariates.read_covariate_table` reads them) for the data's ``instances`` (module
    docstring). One :class:`~engine.exceptions.DataValidationError` names what is wrong: no trait
    column, no instance labels, an id listed twice, no id of the data, or no usable trait."""
    ids, wanted = sheet_ids(frame, instances, source, "trait")
    if not set(wanted) & set(ids):
        raise DataValidationError(
            f"{source}: none of its ids ({first_few(ids, 3)}) is an instance of the data ({first_few(wanted, 3)})."
        )
    rows = frame.set_axis(ids, axis=0).iloc[:, 1:].reindex(wanted)  # a missing instance: a row of NaN
    names: list[str] = []
    columns: list[np.ndarray] = []
    described: list[str] = []
    skipped: list[str] = []
    for col in rows.columns:
        label = str(col).strip()
        text = rows[col].map(lambda v: "" if pd.isna(v) else str(v).strip())  # an empty cell: unknown
        known = (text != "").to_numpy()
        numbers = pd.to_numeric(text.where(known), errors="coerce")
        if known.any() and numbers[known].notna().all():
            if numbers[known].nunique() < 2:
                skipped.append(f"{label} (one value)")
                continue
            names.append(label)
            columns.append(numbers.to_numpy(dtype=float))
            described.append(f"{label} (numeric)")
            continue
        levels = sorted(text[known].unique())
        if len(levels) < 2:
            skipped.append(f"{label} ({'one level' if levels else 'empty'})")
            continue
        coded = levels[1:] if len(levels) == 2 else levels
        for level in coded:
            names.append(f"{label}={level}")
            columns.append(np.where(known, (text == level).to_numpy(dtype=float), np.nan))
        described.append(
            f"{label} (2 levels: {label}={levels[1]} against {levels[0]})"
            if len(levels) == 2
            else f"{label} ({len(levels)} levels, each against the others)"
        )
    if not names:
        raise DataValidationError(f"{source}: no trait with two values or more ({', '.join(skipped)}).")
    unmatched = tuple(i for i in wanted if i not in set(ids))
    return Traits(tuple(names), np.column_stack(columns), tuple(described), source, unmatched, tuple(skipped))


def trait_relations(profiles: Mapping[str, np.ndarray], traits: Traits) -> list[TraitRelation]:
    """Every (hidden variable, trait) pair: r, Student p, BH q (module docstring), in the order of
    ``profiles`` then ``traits.names``. A pair with fewer than :data:`MIN_KNOWN` known samples, or a
    profile or trait constant where both are known, has r, p and q NaN."""
    out: list[tuple[str, str, float, float, int]] = []
    for name, prof in profiles.items():
        prof = np.asarray(prof, dtype=float)
        for t, trait in enumerate(traits.names):
            col = traits.values[:, t]
            ok = np.isfinite(col) & np.isfinite(prof)
            n = int(ok.sum())
            r = p = np.nan
            if n >= MIN_KNOWN:
                x, y = prof[ok] - prof[ok].mean(), col[ok] - col[ok].mean()
                den = float(np.sqrt((x @ x) * (y @ y)))
                if den > 0:
                    r = float(np.clip((x @ y) / den, -1.0, 1.0))
                    t_stat = r * np.sqrt(n - 2) / np.sqrt(max(1.0 - r * r, 1e-300))
                    p = float(2.0 * stats.t.sf(abs(t_stat), n - 2))
            out.append((str(name), trait, r, p, n))
    q = _bh([p for *_, p, _ in out])
    return [TraitRelation(h, t, r, p, float(qq), n) for (h, t, r, p, n), qq in zip(out, q, strict=True)]


def _bh(p: list[float]) -> np.ndarray:
    """Benjamini-Hochberg q of the finite p-values (NaN stays NaN), the count being the finite ones."""
    p = np.asarray(p, dtype=float)
    q = np.full(p.shape, np.nan)
    idx = np.flatnonzero(np.isfinite(p))
    if idx.size:
        order = idx[np.argsort(p[idx], kind="stable")]
        scaled = p[order] * idx.size / np.arange(1, idx.size + 1)
        q[order] = np.minimum(np.minimum.accumulate(scaled[::-1])[::-1], 1.0)
    return q


def followed_trait(relations: Sequence[TraitRelation], hidden: str) -> TraitRelation | None:
    """The trait ``hidden`` follows (the largest |r| with ``|r| >= MIN_ABS_R`` and ``q <= MAX_Q``), or None."""
    mine = [x for x in relations if x.hidden == hidden and abs(x.r) >= MIN_ABS_R and x.q <= MAX_Q]
    return max(mine, key=lambda x: abs(x.r)) if mine else None


#: what to do about a hidden variable that follows a trait (the CLI's words; the explorer names its upload)
FIX = "give that column with --covariates to explain it by the annotation"


def trait_text(relation: Mapping | None, name: str, fix: str = FIX) -> str | None:
    """One line for a person: ``H1 follows the sample trait sex=M (r = +0.97, ...)``, then both readings: a
    technical or incidental trait (explained away by ``fix``) or the condition studied (H then the response to
    it of a regulator not measured, the biologist's finding, not an artefact); None without one."""
    if not relation:
        return None
    return (
        f"{name} follows the sample trait {relation['trait']} (r = {relation['r']:+.2f} over {relation['n']} "
        f"samples, p {relation['p']:.2g}, q {relation['q']:.2g}): it tracks a known property of the samples. If "
        f"the trait is technical or incidental (batch, sex, RNA quality), {fix}; if it is the condition you study, "
        f"{name} is the response to it of a regulator not in the data"
    )


def attach_traits(result: dict, traits: Traits) -> list[TraitRelation]:
    """A learned network's JSON (``learn``'s result, or the explorer's export) with ``traits``: the
    source, what each column became, the trait columns and every (hidden variable, trait) relationship of
    its hidden entries' ``profile``; each hidden entry gets ``trait``, the one it follows or None.
    Returns the relationships (``result`` is changed in place)."""
    hidden = result.get("hidden") or []
    profiles = {h["name"]: np.asarray(h["profile"], dtype=float) for h in hidden if h.get("profile")}
    relations = trait_relations(profiles, traits)
    result["traits"] = {
        "source": traits.source,
        "described": list(traits.described),
        "traits": list(traits.names),
        "relationships": [x.to_dict() for x in relations],
    }
    for h in hidden:
        best = followed_trait(relations, h["name"])
        h["trait"] = None if best is None else best.to_dict()
    return relations
