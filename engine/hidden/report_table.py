"""The regulator report as one table, one row per (hidden variable, child): what the CLI writes
(``learn --hidden auto --csv FILE`` -> ``FILE_regulators.csv``) and the explorer's Hidden page
downloads, from one function (#22).

Per child the columns of :data:`~.report.REPORT_COLUMNS` (loading, sign, variance explained,
corr(child, profile)); per hidden variable, repeated on each of its rows so that the table filters
by child as well as by H:

* ``parents``: H's own parents (regulators it depends on, ``H <- TF``), strongest first, ``"; "``-joined;
  ``parents_r2``: the share of H's implied variance they explain (near 1: H is a combination of
  measured regulators rather than a new one), the one R^2 of the report (``pooled_of`` shows it too);
* ``leverage`` and ``odd_instances``: the largest share of H's profile energy in one instance, and
  the one or two instances that flag it (:mod:`.leverage`; empty when not flagged);
* ``explained_by`` and ``explained_corr``: a variable whose values correlate with H's profile at
  ``|r| >= STAND_IN_CORR`` and so may already play its role, and that correlation, signed (with the
  children's ``sign`` it says whether the variable rises or falls with them): with a regulator list,
  the listed regulator with the largest ``|r|`` (matched to the data as the engine matches the list; a
  child included: a listed regulator among H's children could be their parent itself); without one,
  the observed variable outside H's children with the largest ``|r|`` (a child that tracks H is its
  hub gene, WGCNA's term, not a stand-in). Empty below the threshold. The same choice as the Hidden
  page's "tracks z* best" (:func:`.tracking.best_tracking`);
* ``activity_of``: when H's coefficients on its children are those of one observed parent of most
  of them, scaled (:mod:`.activity`), that parent, ``"asoL (54 of 59 children, cosine -0.96)"``: H is
  read as the part of that regulator's activity its measured level misses; empty otherwise;
* ``pooled_of``: when H has at least two listed parents and brings less than 3 nats of realized
  gain per child or they explain R^2 >= 0.95 of its variance (:mod:`.pooled`), its decomposition on
  them, ``"-0.78 TF042 + 0.43 TF057 (R^2 0.95; 1.7 nats a child)"``: H is read as the pooled activity
  of those regulators; empty otherwise;
* ``hub_targets_of``: when H's children are not set apart from its parents' other targets (as many
  rivals following H's profile as closely as its median child as half its children;
  :mod:`.hub_targets`, for a parentless H the listed regulator closest to its profile), the reading in
  the words of learn's stderr and the Hidden page, ``"27 other genes with TF041 or TF004 as a parent
  follow its profile as closely as its median child (|r| >= 0.63; 31 children), e.g. g1, g2"``: H is
  read as its parents' targets, not a new regulator; empty otherwise;
* ``global_shift_of``: when H's profile follows the per-condition level or the first principal
  component of the genes outside its children at ``|r| >= 0.9`` (:mod:`.global_shift`), the reading in
  the words of learn's stderr and the Hidden page, ``"H1 follows the whole table's per-condition level
  (r = +0.96 over the 2150 genes outside its 153 children, 98% of which move one way)"``: a
  normalisation or composition effect (or a table-wide axis), not a module regulator; empty otherwise;
* ``operon_of``: when most of H's children are one run of adjacent locus tags on a bacterial table
  (:mod:`.operon`), ``"H2: 6 of its 7 children are adjacent genes b2415-b2420: likely one operon
  (co-transcribed), not a regulator"``; empty otherwise (and on tables not named by locus tags);
* ``sex_of``: when H's profile follows the table's sex axis (``XIST`` against the Y-chromosome genes,
  :mod:`.sex_genes`) at ``|r| >= 0.8``, ``"H1 follows the samples' sex (r = +0.99 with XIST, RPS4Y1,
  DDX3Y, KDM5D and 2 more; high in males): ..."``; empty otherwise (and on tables without those genes);
* ``trait_of``: with a sample-trait sheet (``learn --traits``, the explorer's "Sample traits"), the trait H's
  profile follows (:mod:`.traits`: |r| >= 0.8 at BH q <= 0.05), ``"oxygen_pct (r = -0.97 over 30 samples,
  q 8.2e-19)"``; empty otherwise;
* ``enriched_sets``: the known gene sets among H's children with Benjamini-Hochberg ``q <= ENRICHED_Q``
  (``"set (q=...)"``, ``"; "``-joined, most significant first), ``"none"`` when sets were tested and none
  passes, empty when no gene sets were given (:mod:`engine.enrichment`).

A hidden variable without children (structural EM may drop them all) keeps one row, ``child`` empty.
Nothing here refits: the numbers are the reports' (:func:`~.report.regulator_report`) and Pearson
correlations of the values given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .global_shift import shift_line
from .hub_targets import hub_text
from .leverage import profile_leverage
from .operon import operon_text
from .report import REPORT_COLUMNS, RegulatorReport, report_rows
from .sex_genes import sex_text
from .tracking import best_tracking

__all__ = [
    "ENRICHED_Q",
    "REPORT_TABLE_COLUMNS",
    "STAND_IN_CORR",
    "pooled_text",
    "profile_flags",
    "report_table",
    "stand_in",
]

#: |corr(values, H's profile)| from which a variable may stand in for H (the proposals' default
#: ``explained_threshold``, :func:`~.candidates.propose_from_search`)
STAND_IN_CORR = 0.9
#: Benjamini-Hochberg q up to which a gene set counts as enriched among H's children
ENRICHED_Q = 0.05
#: the table's columns: the per-child report, then what a biologist checks per hidden variable
REPORT_TABLE_COLUMNS = [
    *REPORT_COLUMNS,
    "parents",
    "parents_r2",
    "leverage",
    "odd_instances",
    "explained_by",
    "explained_corr",
    "activity_of",
    "pooled_of",
    "hub_targets_of",
    "global_shift_of",
    "operon_of",
    "sex_of",
    "trait_of",
    "enriched_sets",
]


def profile_flags(r: RegulatorReport) -> tuple[float | None, list[str]]:
    """The leverage of ``r``'s inferred profile and the one or two instances that flag it (none: []);
    None and [] without a profile."""
    values = r.profile.get("values")
    if values is None or len(values) == 0:
        return None, []
    lev = profile_leverage(values, r.profile.get("instances"))
    odd = r.extra.get("odd_conditions") or {}  # the table's odd conditions holding > 1/3 (.leverage)
    return lev.leverage, list(lev.instances) or (list(odd["conditions"]) if odd.get("flagged") else [])


def stand_in(
    r: RegulatorReport, values: np.ndarray, names: Sequence[str], regulators: Sequence[str] | None = None
) -> tuple[str | None, float]:
    """The variable that may already play ``r``'s role and its signed correlation with H's profile
    (see the module docstring), or (None, NaN). ``values`` (M, n) are the observed variables ``names``."""
    profile = r.profile.get("values") or []
    children = {c.child for c in r.children}
    return best_tracking(profile, values, names, regulators, exclude=children, min_corr=STAND_IN_CORR)


def _enriched(r: RegulatorReport) -> str | None:
    """The ``enriched_sets`` cell of ``r`` (see the module docstring): the sets with ``q <=
    ENRICHED_Q``, most significant first, ``"none"`` when none passes, None without gene sets."""
    rows = r.extra.get("enrichment")
    if rows is None:
        return None
    hits = sorted((row for row in rows if row["q"] <= ENRICHED_Q), key=lambda row: row["p"])
    return "; ".join(f"{row['set']} (q={row['q']:.2g})" for row in hits) or "none"


def _activity(r: RegulatorReport) -> str | None:
    """The ``activity_of`` cell of ``r`` (see the module docstring), None when not flagged."""
    act = r.extra.get("activity")
    if not act or not act["flagged"]:
        return None
    n = len(r.children)
    if act.get("form") == "takeover":  # H took over the regulator's children (.activity.takeover_match)
        return f"{act['regulator']} ({act['taken']} of {n} children were its; now H's {act['link']})"
    return f"{act['regulator']} ({act['shared']} of {n} children, cosine {act['cosine']:+.2f})"


def pooled_text(pool: dict) -> str:
    """H's decomposition on its parents from a report's ``pooled`` reading (:mod:`.pooled`):
    ``"-0.78 TF042 + 0.43 TF057 (R^2 0.95; 1.7 nats a child)"``."""
    terms = " ".join(
        f"{'-' if w < 0 else '+'} {abs(w):.2f} {r}" for w, r in zip(pool["weights"], pool["regulators"], strict=True)
    )
    terms = terms[2:] if terms.startswith("+ ") else "-" + terms[2:]  # the first term's sign on its number
    return f"{terms} (R^2 {pool['r2']:.2f}; {pool['gain_per_child']:.1f} nats a child)"


def _pooled(r: RegulatorReport) -> str | None:
    """The ``pooled_of`` cell of ``r`` (see the module docstring), None when not flagged."""
    pool = r.extra.get("pooled")
    return pooled_text(pool) if pool and pool["flagged"] else None


def _hub(r: RegulatorReport) -> str | None:
    """The ``hub_targets_of`` cell of ``r`` (see the module docstring), None when not flagged."""
    hub = r.extra.get("hub_targets")
    return hub_text(hub) if hub and hub["flagged"] else None


def _trait(r: RegulatorReport) -> str | None:
    """The sample trait H follows (``extra["trait"]``, :func:`.traits.followed_trait`), compactly."""
    t = r.extra.get("trait")
    return None if not t else f"{t['trait']} (r = {t['r']:+.2f} over {t['n']} samples, q {t['q']:.2g})"


def report_table(
    reports: Sequence[RegulatorReport],
    values: np.ndarray | None = None,
    names: Sequence[str] | None = None,
    regulators: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The regulator report as a table with :data:`REPORT_TABLE_COLUMNS` (see the module docstring).

    Parameters
    ----------
    reports : the hidden variables' reports (their ``extra["enrichment"]`` rows, when gene sets
        were tested, fill ``enriched_sets``)
    values, names : the observed variables' values (M, n) and names, for ``explained_by`` (left
        empty without them)
    regulators : the regulator list in force (its names in the data), or None
    """
    rows = []
    for r in reports:
        leverage, odd = profile_flags(r)
        by, corr = stand_in(r, values, names, regulators) if values is not None and names else (None, math.nan)
        per_h = {
            "parents": "; ".join(r.parents),
            "parents_r2": r.parents_r2,
            "leverage": math.nan if leverage is None else leverage,
            "odd_instances": "; ".join(odd),
            "explained_by": by,
            "explained_corr": corr,
            "activity_of": _activity(r),
            "pooled_of": _pooled(r),
            "hub_targets_of": _hub(r),
            "global_shift_of": shift_line(r.extra.get("global_shift"), r.name),
            "operon_of": operon_text(r.extra.get("operon"), r.name),  # one operon? (.operon)
            "sex_of": sex_text(r.extra.get("sex"), r.name),  # the samples' sex? (.sex_genes)
            "trait_of": _trait(r),  # a sample trait it follows (.traits; with a trait sheet)
            "enriched_sets": _enriched(r),
        }
        children = report_rows([r]) or [
            {
                "hidden": r.name,
                "child": None,
                "closest_observed": r.closest_observed,
                "closest_corr": r.closest_corr,
                "estimated_gain": r.estimated_gain,
                "realized_gain": r.realized_gain,
            }
        ]
        rows.extend({**child, **per_h} for child in children)
    return pd.DataFrame(rows, columns=REPORT_TABLE_COLUMNS)
