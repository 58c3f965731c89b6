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
from .loose_names import loose_index, loose_name

__all__ = [
    "read_regulators",
    "parse_regulators",
    "repeated_regulators",
    "match_regulators",
    "resolve_regulators",
    "header_line",
]

_SPLIT = re.compile(r"[,\t;]")

#: first-line words that name a column of a regulator table rather than a regulator
HEADER_WORDS = frozenset(
    "regulator regulators tf tfs tf_name tf_id transcription_factor transcription_factors gene genes gene_id "
    "geneid gene_name gene_symbol symbol name names id identifier locus locus_tag orf probe probe_id".split()
)


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


def header_line(text: str, data_names: Sequence[str]) -> str | None:
    """Why the first line of the regulator list ``text`` is a header, not a name (None: it is a
    name). It is a header when its first field is not a variable of the data (``data_names``) and
    it is a column word (:data:`HEADER_WORDS`, e.g. ``regulator``, ``gene_id``), or the file is a
    table (two non-empty fields or more on its first line: a separator after each name, a
    spreadsheet's trailing empty cell, does not make a table) most of whose other names are
    variables of the data. Only a name absent from the data is ever called a header."""
    names = _listed(text)
    if not names or names[0] in set(data_names):
        return None
    first = names[0]
    if re.sub(r"[\s.-]+", "_", first.strip().lower()) in HEADER_WORDS:
        return f"{first!r} names a column"
    line = next(ln for ln in text.splitlines() if ln.split("#", 1)[0].strip())
    rest = list(dict.fromkeys(names[1:]))
    present = set(data_names)
    found = sum(1 for n in rest if n in present)
    fields = [f for f in _SPLIT.split(line.split("#", 1)[0]) if f.strip().strip('"').strip("'").strip()]
    if len(fields) >= 2 and len(rest) >= 3 and found >= len(rest) / 2:
        return f"{first!r} is not a variable of the data while {found} of the other {len(rest)} names are"
    return None


def read_regulators(path: str | os.PathLike, data_names: Sequence[str] | None = None) -> list[str]:
    """Read a candidate-regulator file; a missing, unreadable or binary file raises
    :class:`DataValidationError` naming it. With ``data_names`` (the data's variables) a header
    line (:func:`header_line`) is skipped, and said in one ``UserWarning``."""
    p = require_file(path, "--regulators")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise DataValidationError(f"--regulators {path}: cannot be read ({exc.strerror or exc}).") from None
    text = decode_text(raw, f"--regulators {path}", "not a text file.")
    names = parse_regulators(text, source=f"--regulators {p.name}")
    why = header_line(text, data_names) if data_names is not None else None
    if why is not None:
        warnings.warn(f"--regulators {p.name}: its first line is a header, skipped ({why}).", UserWarning, stacklevel=2)
        names = names[1:]
        if not names:
            raise DataValidationError(f"--regulators {p.name}: holds no names after its header line.")
    return names


def resolve_regulators(
    wanted: Sequence[str], names: Sequence[str]
) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Match the listed names ``wanted`` to the variables ``names``: ``(found, loose, absent)``.

    ``found`` holds the variables, in the list's order and once each; a listed name without an
    exact match is matched ignoring case and an Ensembl version suffix when exactly one variable
    matches so (:mod:`engine.io.loose_names`: ``tf2`` = ``TF2``), and ``loose`` holds those
    ``(listed, variable)`` pairs; ``absent`` the listed names matching no variable."""
    present = set(names)
    index: dict[str, str] | None = None
    found: list[str] = []
    loose: list[tuple[str, str]] = []
    absent: list[str] = []
    for r in wanted:
        if r in present:
            found.append(r)
            continue
        if index is None:
            index = loose_index(names)
        match = index.get(loose_name(r))
        if match is None:
            absent.append(r)
        else:
            found.append(match)
            loose.append((r, match))
    return list(dict.fromkeys(found)), loose, absent


def match_regulators(
    wanted: Sequence[str] | None, names: Sequence[str], row_labels: Sequence[str] | None = None
) -> list[str] | None:
    """The variables of ``names`` that ``wanted`` lists (None when no list was given), matched by
    :func:`resolve_regulators`.

    Names matched only ignoring case (or an Ensembl version) are said in one ``UserWarning``;
    names absent from the data in another, with their count and the first few (real lists
    include unmeasured genes); a list none of whose names is in the data raises
    :class:`ParameterError`, which says so when they are the data's ``row_labels`` instead (genes
    in rows: the table wants transposing)."""
    if wanted is None:
        return None
    found, loose, absent = resolve_regulators(wanted, names)
    if not found:
        shown = ", ".join(repr(r) for r in absent[:5])
        in_rows = len(resolve_regulators(wanted, list(row_labels or ()))[0])  # matched as the columns would be
        hint = (
            f"; {in_rows} of them label the data's rows: the variables (genes) seem to be in rows, so turn "
            "the table round (CLI: --transpose; app: the Transpose button) before applying the list."
            if in_rows
            else "; check the names against the data's column names."
        )
        raise ParameterError(
            f"none of the {len(wanted)} candidate regulator(s) is a variable of the data (first: {shown}){hint}"
        )
    if loose:
        shown = ", ".join(f"{r!r} = {v!r}" for r, v in loose[:5])
        warnings.warn(
            f"{len(loose)} of {len(wanted)} candidate regulator(s) match a variable only ignoring case or an "
            f"Ensembl version suffix and are used as that variable ({shown}{', ...' if len(loose) > 5 else ''}).",
            UserWarning,
            stacklevel=4,
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
