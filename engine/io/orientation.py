"""Is a table the wrong way round? Evidence from its labels, not from its shape alone.

Expression matrices often arrive genes x conditions (variables in rows), while a
:class:`~engine.data.Dataset` has variables in columns. Shape alone proves nothing: a correctly
oriented wide file (173 conditions x 2000 gene columns, the shape the paper itself learned from)
has more variables than instances. So :func:`orientation_warning` looks for evidence in a data
set's row labels (``instance_labels``) and column names (``names``), in this order:

1. the row labels are unique identifiers while the column names look like sample names
   (``GSM1234``, ``sample_3``, ``cond2``, ``t15``, ``30min``, ``heat_rep2``, consortium barcodes such as
   ``TCGA-A1-07M5-01A-11R-A090-13``...);
2. the row labels look like gene identifiers of a known scheme (yeast ORFs ``YAL001C``,
   Arabidopsis ``AT1G01010``, Ensembl ``ENSG...``, RefSeq ``NM_...``, Affymetrix ``1007_s_at``,
   Illumina ``ILMN_...``, FlyBase ``FBgn...``) and the column names do not;
3. the rows look like genes: many rows (at least 30 and 3 times the columns), few columns, and
   unique id-like row labels (letters and digits, not sample-like) that the column names are not
   (names made up for a file without a header, ``V1..``, are no evidence: the rows alone decide).

Nothing is checked without row labels (a file with no label column gives no evidence either
way), and a data set loaded with ``transpose`` is checked the same way: after transposing, the
row labels are the file's header. Only labels are read: O(M + N).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..data import Dataset, from_array
from .columns import drop_sparse_variables, turn_repeat_note
from .header import turn_generated_names

__all__ = [
    "OrientationWarning",
    "orientation_warning",
    "transposed_warning",
    "transpose_dataset",
    "looks_sample_like",
    "looks_gene_like",
]

#: sample and condition names: a known word (or a one-letter short form) followed by a number,
#: GEO/SRA accessions, or a time with its unit anywhere (``heat_15min``), or a replicate suffix
_SAMPLE_WORDS = (
    "gsm|gse|srr|srx|err|drr|sample|samp|smp|s|cond|condition|c|exp|expt|experiment|array|chip|slide|"
    "rep|replicate|r|t|tp|time|timepoint|day|d|hr|h|hour|min|ctrl|control|treat|treatment|trt|wt|mut|"
    "mutant|ko|patient|pt|p|subject|subj|donor|ind|individual|cell|lane|run|batch|tumou?r|normal|obs|"
    "observation|case|well|plate|bio|tech|lib|library|specimen|id|row|instance|inst|animal|mouse|rat|"
    "plant|strain|clone|culture|series|point"
)
_SAMPLE = re.compile(rf"^({_SAMPLE_WORDS})[\s_.\-#]*\d+", re.IGNORECASE)
_TIME = re.compile(r"\d+(\.\d+)?\s*(h|hr|hrs|hours?|m|min|mins|minutes?|d|days?|sec|s|wk|weeks?)(?![a-z])", re.I)
#: consortium sample barcodes (TCGA, TARGET, GTEx; R writes their dashes as dots): ids with digits, so
#: without this a tumour table read genes x tumours looked correctly oriented (walk of session 23)
_BARCODE = re.compile(r"^(TCGA|TARGET|GTEX)[-._][A-Z0-9]{2,}([-._][A-Z0-9]+)*$", re.IGNORECASE)
_REPLICATE = re.compile(r"(rep|replicate|[_.\-]r)\s*\d+$", re.IGNORECASE)
#: gene identifiers of well-known schemes
_GENE = re.compile(
    r"^(Y[A-P][LR]\d{3}[WC](-[A-Z])?"  # yeast systematic ORF names
    r"|AT[1-5CM]G\d{5}(\.\d+)?"  # Arabidopsis AGI codes
    r"|ENS[A-Z]*[GTPE]\d{6,}(\.\d+)?"  # Ensembl
    r"|[NX][MRP]_\d+(\.\d+)?"  # RefSeq
    r"|\d+(_[a-z])?(_[sxi])?_at|AFFX-[\w\-]+"  # Affymetrix probe sets
    r"|ILMN_\d+"  # Illumina probes
    r"|FBgn\d+|CG\d+"  # FlyBase
    r"|b\d{4})$",  # E. coli b-numbers
    re.IGNORECASE,
)
_TOKEN = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)\S{2,40}$")

#: share of labels that must match for a kind of evidence
_MOST = 0.8


def looks_sample_like(label: str) -> bool:
    """Whether a label reads like a sample or condition name (``GSM1234``, ``cond_2``, ``30min``,
    ``TCGA-A1-07M5-01A``)."""
    s = str(label).strip()
    return bool(_SAMPLE.match(s) or _TIME.search(s) or _REPLICATE.search(s) or _BARCODE.match(s))


def looks_gene_like(label: str) -> bool:
    """Whether a label is a gene identifier of a well-known scheme (``YAL001C``, ``AT1G01010``...)."""
    return bool(_GENE.match(str(label).strip()))


def _id_like(label: str) -> bool:
    """An identifier token: letters and digits, no spaces, not a sample name (``BRCA1``, ``g42``)."""
    s = str(label).strip()
    return looks_gene_like(s) or (bool(_TOKEN.match(s)) and not looks_sample_like(s))


def _share(labels: Sequence[str], test) -> float:
    return sum(1 for x in labels if test(x)) / len(labels) if labels else 0.0


def _examples(labels: Sequence[str], k: int = 3) -> str:
    return ", ".join(str(x) for x in labels[:k]) + (", ..." if len(labels) > k else "")


@dataclass(frozen=True)
class OrientationWarning:
    """Evidence that a data set has its variables in rows, and how to fix it.

    ``reason`` says what was seen, e.g. "the row labels (YAL001C, YAL002W, ...) look like gene
    identifiers and the column names (GSM1, GSM2, ...) like sample names".
    """

    reason: str
    n_rows: int
    n_cols: int

    def note(self, transposed: bool = False) -> str:
        """The remark for ``Dataset.notes``: the evidence and the fix."""
        fix = (
            "load it without transpose (CLI: drop --transpose; app: the Transpose button)"
            if transposed
            else "load it with transpose (CLI: --transpose; app: the Transpose button)"
        )
        return (
            f"the table looks the wrong way round: {self.reason}, so the {self.n_rows} rows are probably "
            f"the variables and the {self.n_cols} columns the instances; if so, {fix}"
        )

    def cli_message(self, transposed: bool = False) -> str:
        """The CLI's one-line warning, with the flag that fixes it."""
        fix = "run again without --transpose" if transposed else "run again with --transpose"
        return (
            f"warning: the table looks the wrong way round: {self.reason}, so the {self.n_rows} rows are "
            f"probably the variables; if so, {fix}."
        )


def _evidence(rows: Sequence[str], cols: Sequence[str], n_rows: int, n_cols: int, made_up: bool = False) -> str | None:
    """The evidence (module docstring), or None. ``made_up``: the column names were generated for a file
    without a header (``V1..``), so they say nothing either way and rule 3 reads the rows alone."""
    if not rows or len(set(rows)) != len(rows) or not cols:
        return None
    if _share(rows, _id_like) >= _MOST and _share(cols, looks_sample_like) >= _MOST:
        return (
            f"the row labels ({_examples(rows)}) are unique identifiers and the column names "
            f"({_examples(cols)}) look like sample names"
        )
    if _share(rows, looks_gene_like) >= _MOST and _share(cols, looks_gene_like) < 1 - _MOST:
        return f"the row labels ({_examples(rows)}) look like gene identifiers and the column names do not"
    if (
        n_rows >= max(30, 3 * n_cols)
        and _share(rows, _id_like) >= _MOST
        and (made_up or _share(cols, _id_like) < 0.5)
        and not _share(rows, looks_sample_like) > 1 - _MOST
    ):
        why = " (the file has no header row to name them)" if made_up else ""
        return (
            f"the rows look like genes: {n_rows} rows with id-like labels ({_examples(rows)}) and only "
            f"{n_cols} columns{why}"
        )
    return None


def orientation_warning(dataset: Dataset) -> OrientationWarning | None:
    """Evidence that ``dataset`` has its variables in rows (see the module docstring), or None.

    A correctly oriented wide data set (few instances named like samples or not named at all,
    many variables) gets None, whatever its shape.
    """
    rows = list(dataset.instance_labels or ())
    made_up = dataset.generated_names == "variables"
    reason = _evidence(rows, list(dataset.names), dataset.n_samples, dataset.n_vars, made_up)
    return None if reason is None else OrientationWarning(reason, dataset.n_samples, dataset.n_vars)


def transposed_warning(
    row_labels: Sequence[str] | None, names: Sequence[str], n_rows: int, n_cols: int, made_up: bool = False
) -> OrientationWarning | None:
    """:func:`orientation_warning` on labels before a Dataset is built (used by ``from_frame``;
    ``made_up``: the variables' names were generated for a file without a header)."""
    rows = [str(x) for x in row_labels] if row_labels is not None else []
    reason = _evidence(rows, [str(x) for x in names], n_rows, n_cols, made_up)
    return None if reason is None else OrientationWarning(reason, n_rows, n_cols)


def transpose_dataset(dataset: Dataset, *, drop_constant: bool = True, max_missing: float | None = None) -> Dataset:
    """``dataset`` turned round: its instances become the variables and its variables the
    instances, on the scale it was loaded at (re-standardized when it was standardized).

    The row labels name the new variables (``V1, V2, ...`` without labels) and the old variable
    names label the new rows. With ``drop_constant`` a new variable that is constant is left out
    (and the notes say so), and with ``max_missing`` so is one with more than that share of its
    cells missing (:func:`engine.io.columns.drop_sparse_variables`). Missing cells stay missing.
    The input is not modified.

    Raises
    ------
    DataValidationError
        When the turned-round table is not a valid data set (e.g. too few columns to become
        instances, or duplicate row labels).
    """
    names = (
        list(dataset.instance_labels)
        if dataset.instance_labels is not None
        else [f"V{i + 1}" for i in range(dataset.n_samples)]
    )
    # the notes on labels, orientation and scale are the old orientation's; the others still hold
    stale = ("the table looks the wrong way round", "standardized", "used the first column", "transposed")
    kept = [turn_repeat_note(n) for n in dataset.notes if not n.startswith(stale)]
    turned = f"transposed: the {dataset.n_samples} rows are the variables, the {dataset.n_vars} columns the instances"
    notes = [*kept, turned]
    values = dataset.original_values().T
    # a file read without a header: V1.. named its columns as variables, sample1.. as instances
    names, labels, notes, generated = turn_generated_names(names, list(dataset.names), notes, dataset.generated_names)
    if max_missing is not None:
        values, names = drop_sparse_variables(values, names, notes, max_missing)
    return from_array(
        values,
        names,
        standardize=dataset.standardized,
        source=dataset.source,
        instance_labels=labels,
        notes=tuple(notes),
        drop_constant=drop_constant,
        generated_names=generated,
    )
