"""What a lab's spreadsheet needs before it is a data set: repeated names, sparse variables, a
summary of the missing cells.

Expression files come with the same gene id on two rows or columns (two probes of one gene),
with a few genes measured in only some conditions, and with missing cells written ``NA``,
``null``, ``-`` or left empty. :func:`engine.io.from_frame` (with ``rename_repeats`` and
``max_missing``, as the explorer loads uploads) uses these helpers to keep such a file usable
and to say, in ``Dataset.notes``, exactly what it did: a repeated name gets a numbered copy
(``Gm3`` and ``Gm3 (2)``), and a variable with more than ``max_missing`` of its cells missing is
left out (named). Nothing here changes values; the caller's arrays are not modified.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..data import Dataset
from ..listing import first_few

__all__ = [
    "RENAMED",
    "rename_repeats",
    "repeated_labels_message",
    "drop_sparse_variables",
    "empty_instances_note",
    "NO_VALUES",
    "missing_summary",
    "filled_cells",
    "share_text",
    "MAX_MISSING",
]

#: how a note that reports renamed (repeated) names begins
RENAMED = "renamed "
#: how a note that names instances without any observed cell begins
NO_VALUES = "instance(s) with no measured value at all: "
#: default share of missing cells above which a variable is left out (the explorer's uploads)
MAX_MISSING = 0.5


def repeated_labels_message(labels: Sequence[str], header: str, source: str, transpose: bool) -> str:
    """Why a first column of ids with a few repeats (two rows of one gene) is refused without
    ``rename_repeats``: the first repeated id, its rows, and the two fixes (not "drop the column",
    which would lose the names)."""
    seen: dict[str, int] = {}
    for i, name in enumerate(map(str, labels)):
        if name in seen:
            rows = f"data rows {seen[name] + 1} and {i + 1}"
            what = "variable names" if transpose else "row labels"
            return (
                f"{source}: the first column {header!r} holds the {what} but repeats {name!r} ({rows}); "
                f"make the ids unique, or number the repeats (CLI: --number-repeats, '{name} (2)')."
            )
        seen[name] = i
    return f"{source}: the first column {header!r} repeats an id."


def rename_repeats(names: Sequence[str], what: str = "variable name") -> tuple[list[str], str | None]:
    """``names`` with every repeat of a name numbered (``Gm3``, ``Gm3 (2)``, ``Gm3 (3)``), and the
    note that says so (None when every name is unique). A numbered name never clashes with
    another name of the list."""
    out = [str(n).strip() for n in names]
    taken = set(out)
    seen: dict[str, int] = {}
    repeated: list[str] = []
    for i, n in enumerate(out):
        seen[n] = seen.get(n, 0) + 1
        if seen[n] == 1:
            continue
        if seen[n] == 2:
            repeated.append(n)
        k = seen[n]
        while f"{n} ({k})" in taken:
            k += 1
        out[i] = f"{n} ({k})"
        taken.add(out[i])
    if not repeated:
        return out, None
    return out, f"{RENAMED}repeated {what}(s) {first_few(repeated, quote=True)}: each repeat got a number, e.g. " + (
        f"{repeated[0]!r} and '{repeated[0]} (2)' ({_REPEAT_WHY[what]})"
    )


#: why a repeat was numbered, by what the names name (the note's last words)
_REPEAT_WHY = {
    "variable name": "two probes of one gene? each is learned as its own variable",
    "instance label": "labels only name the rows; if the rows are genes, transpose",
}


def turn_repeat_note(note: str) -> str:
    """The note of :func:`rename_repeats` for the table turned round: repeated instance labels
    become repeated variable names and the other way round (any other note is returned as is)."""
    for what, other in (("instance label", "variable name"), ("variable name", "instance label")):
        head = f"{RENAMED}repeated {what}(s) "
        if note.startswith(head) and note.endswith(f"({_REPEAT_WHY[what]})"):
            body = note[len(head) : -len(f"({_REPEAT_WHY[what]})")]
            return f"{RENAMED}repeated {other}(s) {body}({_REPEAT_WHY[other]})"
    return note


def drop_sparse_variables(
    values: np.ndarray, names: Sequence[str], notes: list[str], max_missing: float = MAX_MISSING
) -> tuple[np.ndarray, tuple[str, ...]]:
    """``values`` (instances x variables, NaN where missing) and ``names`` without the variables
    with more than ``max_missing`` of their cells missing, named in a note appended to ``notes``
    (left as they are when every variable is that sparse, for the data checks to name)."""
    if values.ndim != 2 or values.shape[0] == 0:
        return values, tuple(names)
    share = np.isnan(values).mean(axis=0)
    sparse = np.flatnonzero(share > max_missing)
    if not sparse.size or sparse.size == values.shape[1]:
        return values, tuple(names)
    m = values.shape[0]
    described = first_few(
        [f"{names[i]!r} ({int(round(share[i] * m))} of {m} missing)" for i in sparse[:6]], total=sparse.size
    )
    notes.append(
        f"left out mostly-missing variable(s) {described} (more than "
        f"{max_missing:.0%} of the cells missing: too little to learn its parents from)"
    )
    keep = np.setdiff1d(np.arange(values.shape[1]), sparse)
    return values[:, keep], tuple(names[i] for i in keep)


def empty_instances_note(values: np.ndarray, labels: Sequence[str] | None) -> str | None:
    """A note naming the instances (rows of ``values``) with no observed cell, None without any.
    Such a row (a failed sample, a blank line of a plate export) holds no data: it is kept, so
    row counts stay those of the file, but it counts in the M of the BIC penalty and structural
    EM fills all of its cells with the network's predictions, which are not measurements."""
    empty = np.flatnonzero(np.isnan(values).all(axis=1)) if values.shape[1] else np.array([], int)
    if not len(empty):
        return None
    named = [str(labels[i]) if labels is not None else f"row {i + 1}" for i in empty]
    return (
        f"{NO_VALUES}{first_few(named, quote=True)} ({len(empty)}): they add nothing to the fit but count as "
        "instances in the score, and their filled cells are only the network's predictions; remove them from the file"
    )


def share_text(part: int, whole: int) -> str:
    """``part / whole`` as a percentage that never reads as none or all when it is not: "13.3%",
    "<0.1%" (26 cells of a 2500 x 27 table, not "0.0%"), ">99.9%"."""
    share = part / whole if whole else 0.0
    if 0 < share < 0.001:
        return "<0.1%"
    if 0.999 < share < 1:
        return ">99.9%"
    return f"{share:.1%}"


def missing_summary(dataset: Dataset, top: int = 5) -> str | None:
    """One line on the missing cells of ``dataset``: how many, in how many variables, and the
    variables with the most (None when no cell is missing)."""
    missing = np.asarray(dataset.missing)
    total = int(missing.sum())
    if not total:
        return None
    per_var = missing.sum(axis=0)
    hit = np.flatnonzero(per_var)
    order = hit[np.argsort(-per_var[hit], kind="stable")][:top]
    most = ", ".join(f"{dataset.names[i]} ({int(per_var[i])})" for i in order)
    lead = "; most in " if hit.size > top else ": "  # "most in" only when some are left out
    return (
        f"{total:,} missing cell(s) ({share_text(total, missing.size)} of the table) in {hit.size:,} of "
        f"{dataset.n_vars:,} variables{lead}{most}"
    )


def filled_cells(dataset: Dataset, values: np.ndarray) -> list[dict]:
    """The missing cells of ``dataset`` with the values ``values`` (same shape, the data set's own
    scale, e.g. standardized) puts in them: ``[{"variable", "instance", "value"}]`` in row-major
    order, ``value`` on the file's scale (standardization undone) and ``instance`` the row's label
    (``"row N"``, counted from 1, without labels). The ``missing_cells`` of a result and of an
    export, so that a reader can find each filled cell in the file."""
    rows, cols = np.nonzero(np.asarray(dataset.missing))
    labels = dataset.instance_labels
    vals = (
        np.asarray(values, dtype=float)[rows, cols] * np.asarray(dataset.scales)[cols] + np.asarray(dataset.means)[cols]
    )
    return [
        {
            "variable": dataset.names[c],
            "instance": str(labels[r]) if labels is not None else f"row {r + 1}",
            "value": float(v),
        }
        for r, c, v in zip(rows.tolist(), cols.tolist(), vals.tolist(), strict=True)
    ]
