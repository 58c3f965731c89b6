"""How replicates resample the instances: the bootstrap, or half-samples in complementary pairs.

* ``bootstrap``: M rows drawn with replacement (Friedman, Goldszmidt & Wyner 1999; bnlearn's
  ``boot.strength``). A resample holds about 63% of the distinct rows, the rest repeated.
* ``subsample``: floor(M/2) rows drawn without replacement (stability selection, Meinshausen &
  Buhlmann 2010 [1]_), in complementary pairs (Shah & Samworth 2013 [2]_): replicates 2j and 2j+1
  learn on the two disjoint halves of one random split, so B replicates use B/2 splits.

Why the choice matters (``benchmarks/RESULTS.md``, "Resampling that suits the shape"): duplicated
rows shrink the effective sample size while the score's penalty still counts M rows, so a chance
correlation passes as a parent more often. On tall data that only adds weak, unstable edges which
the replicates disagree on; on wide data (few rows, many candidate parents) it fills families up to
the parent cap and a replicate costs many times a learn. Half-samples have no duplicates.

:func:`choose_resample` resolves ``auto`` by the data's shape and says why (printed on stderr by
the CLI and stored in the result's ``settings.resample``, like the score choice).

References
----------
.. [1] Meinshausen, Buhlmann. Stability selection. JRSS B 72(4):417-473, 2010.
.. [2] Shah, Samworth. Variable selection with error control: another look at stability selection.
   JRSS B 75(1):55-80, 2013.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice
from ..score import TALL_RATIO

__all__ = ["RESAMPLES", "ResampleChoice", "choose_resample", "resample_rows"]

#: names of ``--resample`` (``auto`` picks one by the data's shape: :func:`choose_resample`)
RESAMPLES = ("auto", "bootstrap", "subsample")


@dataclass(frozen=True)
class ResampleChoice:
    """The resampling the replicates use and why."""

    name: str
    reason: str

    def describe(self) -> dict:
        """As stored in the result's ``settings.resample``."""
        out = {"name": self.name, "reason": self.reason}
        if self.name == "subsample":
            out["fraction"] = 0.5
            out["pairs"] = "complementary"
        return out

    def __str__(self) -> str:
        return f"{self.name} ({self.reason})"


def choose_resample(
    name: str,
    n_samples: int,
    n_vars: int,
    *,
    n_candidates: int | None = None,
    hidden: bool = False,
    n_parent_only: int = 0,
) -> ResampleChoice:
    """The resampling for ``name`` (``"bootstrap"``, ``"subsample"`` or ``"auto"``) on this shape.

    ``auto``: the bootstrap when there are at least :data:`~engine.score.TALL_RATIO` rows per
    candidate parent (per variable, or per regulator of a candidate-regulator list of
    ``n_candidates``), half-samples otherwise: with few rows per candidate, the duplicates of a
    bootstrap resample let chance parents in (``benchmarks/RESULTS.md``, "Resampling that suits
    the shape").

    With ``hidden`` (``--hidden auto``) the count is every variable even with a regulator list: a
    hidden variable may be a parent of any of them and its values are fitted to its children, so on
    a resample with repeated rows it gathers chance children (20 rows x 400 genes, 8 listed TFs:
    100-136 children per replicate against 44 on all the data, and no regulator matched across
    replicates; ``benchmarks/RESULTS.md``, "Hidden regulators need half-samples"). The
    ``n_parent_only`` variables among ``n_vars`` (sample covariates: :mod:`engine.parent_only`) are
    never a hidden variable's children and take no parents: the counts by variables leave them out,
    as the score's tall-data rule does (``docs/decisions/score-auto.md``, "Covariates are not counted").
    """
    name = check_choice(name, "resample", RESAMPLES)
    if name != "auto":
        return ResampleChoice(name, "chosen by the user")
    children = n_vars - int(n_parent_only)  # covariates are never a hidden variable's children
    if hidden and n_samples < TALL_RATIO * children:
        roots = f" ({int(n_parent_only)} parent-only variables not counted)" if n_parent_only else ""
        return ResampleChoice(
            "subsample",
            f"{n_samples} rows < {TALL_RATIO:g} x {children} variables{roots}, any of which a hidden variable may "
            "be a parent of: duplicates in a bootstrap resample give hidden variables chance children",
        )
    per, what = (children, "variables") if n_candidates is None else (int(n_candidates), "candidate regulators")
    roots = (
        f" ({int(n_parent_only)} parent-only variables not counted)" if n_parent_only and n_candidates is None else ""
    )
    if n_samples < TALL_RATIO * per:
        return ResampleChoice(
            "subsample",
            f"{n_samples} rows < {TALL_RATIO:g} x {per} {what}{roots}: duplicates in a bootstrap resample let "
            "chance parents in",
        )
    return ResampleChoice("bootstrap", f"tall data, {n_samples} rows >= {TALL_RATIO:g} x {per} {what}{roots}")


def resample_rows(
    n_samples: int,
    method: str,
    rng: np.random.Generator,
    index: int = 0,
    split_seed: np.random.SeedSequence | None = None,
) -> np.ndarray:
    """Row indices of replicate ``index``.

    ``bootstrap``: ``n_samples`` draws with replacement from ``rng``. ``subsample``: one half of the
    random split drawn from ``split_seed`` (the pair's seed; ``rng`` when None), the first half for
    an even ``index`` and the other for an odd one; both halves hold floor(M/2) rows, sorted.
    """
    if method == "bootstrap":
        return rng.integers(0, n_samples, size=n_samples)
    if method != "subsample":
        raise ValueError(f"unknown resampling {method!r}; expected 'bootstrap' or 'subsample'.")
    half = n_samples // 2
    split = (rng if split_seed is None else np.random.default_rng(split_seed)).permutation(n_samples)
    rows = split[:half] if index % 2 == 0 else split[half : 2 * half]
    return np.sort(rows)
