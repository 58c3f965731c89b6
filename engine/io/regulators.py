"""Reading a list of candidate regulators: :func:`read_regulators`, :func:`parse_regulators`.

Module-network and regulatory-network tools let biologists restrict which genes may be parents
(known transcription factors and signalling genes). The list is one name per line, or a CSV/TSV
whose first column holds the names; blank lines and ``#`` comments are ignored, and a name listed
twice counts once. Checking the names against the data is the estimator's job
(:meth:`engine.learn.IdealParentSearch.regulator_names`): absent names are reported, not an error.
"""

from __future__ import annotations

import os
import re
import warnings
from collections import Counter
from collections.abc import Sequence

from ..exceptions import DataValidationError, ParameterError
from .files import decode_text, require_file

__all__ = ["read_regulators", "parse_regulators", "repeated_regulators", "match_regulators"]

_SPLIT = re.compile(r"[,\t;]")


def _listed(text: str) -> list[str]:
    """Every name of ``text`` in order, repeats included."""
    names: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        first = _SPLIT.split(line, 1)[0].strip().strip('"').strip("'").strip()
        if first:
            names.append(first)
    return names


def repeated_regulators(text: str) -> list[str]:
    """The names ``text`` lists more than once (counted once by :func:`parse_regulators`), in order."""
    counts = Counter(_listed(text))
    return [name for name, n in counts.items() if n > 1]


def parse_regulators(text: str, *, source: str = "regulator list") -> list[str]:
    """The names in ``text`` (see the module docstring), in order, without duplicates."""
    names = list(dict.fromkeys(_listed(text)))
    if not names:
        raise DataValidationError(f"{source}: holds no names (one per line, or a CSV/TSV with names in column 1).")
    return names


def read_regulators(path: str | os.PathLike) -> list[str]:
    """Read a candidate-regulator file; a missing, unreadable or binary file raises
    :class:`DataValidationError` naming it."""
    p = require_file(path, "--regulators")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise DataValidationError(f"--regulators {path}: cannot be read ({exc.strerror or exc}).") from None
    text = decode_text(raw, f"--regulators {path}", "not a text file.")
    return parse_regulators(text, source=f"--regulators {p.name}")


def match_regulators(
    wanted: Sequence[str] | None, names: Sequence[str], row_labels: Sequence[str] | None = None
) -> list[str] | None:
    """The names of ``wanted`` that are variables ``names`` (None when no list was given).

    Names absent from the data are reported in one ``UserWarning`` with their count and the first
    few (real lists include unmeasured genes); a list none of whose names is in the data raises
    :class:`ParameterError`, which says so when they are the data's ``row_labels`` instead (genes
    in rows: the table wants transposing)."""
    if wanted is None:
        return None
    present = set(names)
    found = [r for r in wanted if r in present]
    absent = [r for r in wanted if r not in present]
    if not found:
        shown = ", ".join(repr(r) for r in absent[:5])
        rows = set(row_labels or ())
        in_rows = sum(1 for r in wanted if r in rows)
        hint = (
            f"; {in_rows} of them label the data's rows: the variables (genes) seem to be in rows, so turn "
            "the table round (CLI: --transpose; app: the Transpose button) before applying the list."
            if in_rows
            else "; check the names against the data's column names."
        )
        raise ParameterError(
            f"none of the {len(wanted)} candidate regulator(s) is a variable of the data (first: {shown}){hint}"
        )
    if absent:
        shown = ", ".join(repr(r) for r in absent[:5])
        warnings.warn(
            f"{len(absent)} of {len(wanted)} candidate regulator(s) are not in the data and are "
            f"ignored (first: {shown}).",
            UserWarning,
            stacklevel=4,
        )
    return found
