"""Raw sequencing counts: telling them apart (:func:`looks_like_counts`) and putting them on a log scale
(:func:`log_cpm`).

A raw RNA-seq count matrix (featureCounts, HTSeq, the input of DESeq2 or edgeR) is the wrong input for a
linear-Gaussian network as it stands. Each sample's counts scale with its sequencing depth (library
sizes often differ 2-5x), so after standardizing every gene rises and falls with the depth of the
sample: the search can link genes through that technical factor, and a hidden variable proposed as their
common regulator can be the library size itself (on simulated counts with depths 1-5x apart, the table's
first principal component follows the library sizes at r = 0.94, and at 0.11 after :func:`log_cpm`:
``tests/engine/test_io_counts.py``). A few genes with counts in the 100,000s dominate their families'
fits. Dividing by the library size (counts per million) removes the depth, and the log tames the scale
(Law et al., *Genome Biology* 15:R29, 2014, voom: log-CPM values are close enough to normal for linear
models).

Nothing here refuses data: :func:`looks_like_counts` is evidence for a warning (the CLI's stderr line,
the explorer's box), and :func:`log_cpm` is applied only when asked (``--log-cpm``, the explorer's
"Use log2 CPM"). Neither modifies the data it is given.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..data import Dataset, from_array
from ..exceptions import DataValidationError

__all__ = [
    "CountsEvidence",
    "looks_like_counts",
    "counts_evidence",
    "log_cpm",
    "is_log_cpm",
    "LOG_CPM_NOTE",
    "MIN_MAX_COUNT",
    "INTEGER_TOLERANCE",
    "PER_MILLION",
]

#: the largest value a table must reach to read as counts. A sequenced library of even a few million
#: reads has its most expressed genes in the thousands; ordinal scores (0-10), ranks of a few samples,
#: ages, small category codes and log-scale tables stay far below, so a table of whole numbers under
#: this is not called counts (a low-depth count table is missed: ``--log-cpm`` still applies to it)
MIN_MAX_COUNT = 1000
#: how far from a whole number a cell may be and still count as one, relative to its size: the values
#: come back from standardization as ``values * scales + means``, a rounding error of ~1e-12 relative
INTEGER_TOLERANCE = 1e-9
#: counts per million: the depth every sample is brought to
PER_MILLION = 1e6
#: how the note :func:`log_cpm` adds to ``Dataset.notes`` begins (the explorer and exports read it)
LOG_CPM_NOTE = "log2 counts per million"


@dataclass(frozen=True)
class CountsEvidence:
    """What made a table look like raw counts: every observed cell a whole number >= 0 on a count scale.

    ``library_min``/``library_max`` are the smallest and largest row totals (the instances' library
    sizes, each over its observed cells), ``zero_share`` the share of observed cells that are 0 and
    ``max_count`` the largest cell.
    """

    n_instances: int
    library_min: float
    library_max: float
    zero_share: float
    max_count: float

    @property
    def depth_ratio(self) -> float:
        """How many times deeper the deepest library is than the shallowest (inf when one is empty)."""
        return self.library_max / self.library_min if self.library_min > 0 else float("inf")

    @property
    def libraries(self) -> str:
        """The library sizes in words: "from 1.2 million to 5.9 million (4.9x)"."""
        ratio = f"{self.depth_ratio:.1f}x" if np.isfinite(self.depth_ratio) else "some rows have no counts"
        return f"from {_amount(self.library_min)} to {_amount(self.library_max)} ({ratio})"

    @property
    def reason(self) -> str:
        """What was seen, e.g. "every value is a whole number >= 0 (38% zeros, the largest 250,000) and the
        row totals (library sizes) run from 1.2 million to 5.9 million (4.9x)"."""
        return (
            f"every value is a whole number >= 0 ({self.zero_share:.0%} zeros, the largest {_amount(self.max_count)}) "
            f"and the row totals (library sizes) run {self.libraries}"
        )

    @property
    def risk(self) -> str:
        """Why it matters, in one sentence."""
        return (
            "standardized as they are, the network and its hidden regulators can follow each sample's sequencing "
            "depth and a few very high genes, a technical factor passing for a regulator"
        )

    def cli_message(self, turned: bool = False) -> str:
        """The CLI's one-line warning, with the flag that fixes it. ``turned``: the table looks the wrong way
        round (:func:`engine.io.orientation_warning`), so its row totals are not library sizes and are not
        given: the fix is the orientation's flag, then this one."""
        if turned:
            return (
                f"warning: the values look like raw counts: every value is a whole number >= 0 ({self.zero_share:.0%} "
                f"zeros, the largest {_amount(self.max_count)}); {self.risk}. Once the samples are the rows, add "
                "--log-cpm (log2 counts per million)."
            )
        return (
            f"warning: the table looks like raw counts: {self.reason}; {self.risk}. If these are counts, run "
            "again with --log-cpm (log2 counts per million)."
        )


def _amount(x: float) -> str:
    """A count in words: ``250,000``, ``1.2 million``."""
    return f"{x / 1e6:,.1f} million" if x >= 1e6 else f"{x:,.0f}"


def looks_like_counts(values) -> CountsEvidence | None:
    """Evidence that ``values`` (instances in rows, variables in columns; NaN for missing cells) are raw
    counts, or None.

    The rule: every finite cell is a whole number >= 0 (within :data:`INTEGER_TOLERANCE`) and the largest
    reaches :data:`MIN_MAX_COUNT`. Negative cells (z-scores, log ratios) or fractions (a log table,
    normalized intensities) rule it out at once; whole numbers that stay small (ordinal scores,
    genotypes 0/1/2) are not on a count scale. Fractional "expected counts" (RSEM, Salmon) are not
    detected. The row totals are reported as the library sizes, so the rows must be the samples.
    """
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 2 or arr.shape[1] < 2:  # a library size is a sum over several variables
        return None
    seen = np.isfinite(arr)
    cells = arr[seen]
    if cells.size == 0 or cells.min() < 0 or cells.max() < MIN_MAX_COUNT:
        return None
    if np.any(np.abs(cells - np.round(cells)) > INTEGER_TOLERANCE * np.maximum(1.0, np.abs(cells))):
        return None
    libraries = np.where(seen, arr, 0.0).sum(axis=1)
    return CountsEvidence(
        n_instances=int(arr.shape[0]),
        library_min=float(libraries.min()),
        library_max=float(libraries.max()),
        zero_share=float(np.mean(np.round(cells) == 0)),
        max_count=float(cells.max()),
    )


def is_log_cpm(dataset: Dataset) -> bool:
    """Whether :func:`log_cpm` made ``dataset`` (its note says so)."""
    return any(n.startswith(LOG_CPM_NOTE) for n in dataset.notes)


def _own_columns(dataset: Dataset) -> np.ndarray:
    """A mask of ``dataset``'s own variables: not the covariates appended to it (batch, RIN...)."""
    cov = set(dataset.covariates)
    return np.array([n not in cov for n in dataset.names], dtype=bool)


def _as_loaded(dataset: Dataset) -> np.ndarray:
    """``dataset``'s values as loaded, a cell within :data:`INTEGER_TOLERANCE` of a whole number put on it:
    undoing the standardization leaves ``0`` as ``-8.9e-16`` and ``1150`` as ``1149.9999999999998``."""
    values = dataset.original_values()
    whole = np.round(values)
    with np.errstate(invalid="ignore"):
        near = np.abs(values - whole) <= INTEGER_TOLERANCE * np.maximum(1.0, np.abs(values))
    return np.where(near, whole, values)


def counts_evidence(dataset: Dataset) -> CountsEvidence | None:
    """:func:`looks_like_counts` on ``dataset``'s values as loaded (its own variables, not its
    covariates); None once :func:`log_cpm` has transformed it."""
    if is_log_cpm(dataset):
        return None
    return looks_like_counts(_as_loaded(dataset)[:, _own_columns(dataset)])


def log_cpm(dataset: Dataset, prior_count: float = 1.0) -> Dataset:
    """``dataset`` with each count ``c`` of instance ``i`` replaced by ``log2(c / L_i * 1e6 + prior_count)``,
    its log2 counts per million, where ``L_i`` (the library size) is the sum of the instance's observed
    cells over the variables, on the values as loaded.

    This is the log-CPM of edgeR's ``cpm(x, log=TRUE)`` (Robinson, McCarthy & Smyth, *Bioinformatics*
    26:139, 2010) and limma-voom (Law et al. 2014) with the prior on the CPM scale: edgeR adds
    ``prior.count`` (default 2) scaled by ``L_i / mean(L)`` to each count and twice that to ``L_i``. Both
    make the same profile sequenced at two depths equal; here a zero is ``log2(prior_count)`` (0 for the
    default) in every sample, and the values differ from edgeR's only where the CPM is within a few units
    of the prior (the lowest counts).

    Missing cells stay missing (the library size skips them). The covariates (``Dataset.covariates``)
    are kept as they are and left out of the library sizes; names, instance labels, the experimental
    design and the notes are kept, with a note saying what was done. The result is standardized when
    ``dataset`` was. ``dataset`` is not modified.

    Raises
    ------
    DataValidationError
        When a cell is negative (not counts: perhaps already on a log scale), an instance has no
        counts (library size 0), the data were transformed already, or ``prior_count`` is not > 0.
    """
    if not (isinstance(prior_count, (int, float)) and np.isfinite(prior_count) and prior_count > 0):
        raise DataValidationError(f"log2 CPM: prior_count must be a number > 0, got {prior_count!r}.")
    where = dataset.source or "the data"
    if is_log_cpm(dataset):
        raise DataValidationError(
            f"{where}: already in log2 counts per million; transforming twice would log the logs."
        )
    own = _own_columns(dataset)
    counts = _as_loaded(dataset)[:, own]
    names = [n for n, k in zip(dataset.names, own, strict=True) if k]
    negative = np.argwhere(counts < 0)
    if negative.size:
        i, j = negative[0]
        raise DataValidationError(
            f"{where}: log2 CPM needs counts (numbers >= 0), but {names[j]!r} is {counts[i, j]:g} in "
            f"{_instance(dataset, i)}: the table is not a count matrix (already on a log scale?)."
        )
    libraries = np.nansum(counts, axis=1)
    empty = np.flatnonzero(libraries <= 0)
    if empty.size:
        which = ", ".join(_instance(dataset, i) for i in empty[:5])
        raise DataValidationError(
            f"{where}: {which} {'has' if empty.size == 1 else 'have'} no counts (library size 0): counts per "
            "million are undefined there; leave such instances out (CLI: --drop with their labels)."
        )
    with np.errstate(invalid="ignore"):  # NaN (missing) cells stay NaN
        logged = np.log2(counts / libraries[:, None] * PER_MILLION + prior_count)
    shown = f"{prior_count:g}"
    note = (
        f"{LOG_CPM_NOTE}: each count c of an instance replaced by log2(c / library size x 1e6 + {shown}), the "
        f"library size being the instance's total over the {own.sum():,} variables (from "
        f"{_amount(libraries.min())} to {_amount(libraries.max())}), as edgeR's cpm(log=TRUE)"
    )
    stale = "standardized"  # from_array says it again, after the transform
    notes = tuple(n for n in dataset.notes if not n.startswith(stale))
    redone = from_array(
        logged,
        names,
        standardize=dataset.standardized,
        source=dataset.source,
        min_samples=1,  # as few rows as the data had (``score`` reads one held-out instance)
        allow_constant=not dataset.standardized,
        copy=False,
    )
    values = np.array(dataset.values)
    means, scales = np.array(dataset.means), np.array(dataset.scales)
    values[:, own], means[own], scales[own] = redone.values, redone.means, redone.scales
    added = tuple(n for n in redone.notes if n.startswith(stale))
    return dataclasses.replace(
        dataset,
        values=values,
        means=means,
        scales=scales,
        notes=(*notes, note, *added),
        missing=np.array(dataset.missing),
    )


def _instance(dataset: Dataset, i: int) -> str:
    """Instance ``i`` by its label, or its row number (1-based) without labels."""
    if dataset.instance_labels is not None:
        return repr(dataset.instance_labels[i])
    return f"row {i + 1}"
