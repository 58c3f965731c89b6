"""Reading gene sets (prior knowledge) and matching their genes to the variables of the data.

Two formats, told apart by the file's name and content:

* **GMT**, the GSEA/MSigDB format: one set per line, ``name<TAB>description<TAB>gene<TAB>gene...``
  (the description is often a URL, ``na`` or empty; a weight after a gene, Enrichr's
  ``STAT3,1.0``, is dropped). A file named ``*.gmt`` is always read as GMT; another
  tab-separated file is GMT when its lines have different numbers of fields (sets of different sizes).
* **A two-column table**, one (set, gene) pair per row: ``set,gene`` or ``regulator,target``
  (TF-target lists such as TRRUST), CSV, TSV or ``;``-separated; further columns (mode of
  regulation, PubMed ids) are ignored (a tab-separated file with as many fields on every line is a
  table when its first column repeats, a GMT file when it names each set once), and a header row
  is recognised by its words (``set``, ``regulator``, ``tf``, ``source``, ``target``, ``gene``...)
  and skipped.

What real files hold is reported in notes, never an error: blank lines and ``#`` comments are
skipped, Windows line endings and a byte-order mark are read, a gene listed twice in a set counts
once, a set name used twice has its genes merged, and sets without genes are left out. A file that
is not a gene-set file (binary, a single column, a table of measurements) raises
:class:`~engine.exceptions.DataValidationError` naming it.

:func:`match_gene_sets` then restricts the sets to the variables of the data, the universe of the
enrichment test: exact names first; a set gene without an exact match is then matched ignoring
case and Ensembl version suffixes (mouse ``Gata1`` against a set of ``GATA1``; ``ENSG00000141510.16``
in a GENCODE table against ``ENSG00000141510``; a hand-made set in lower case beside an MSigDB one),
and a note says how many were. Set genes
that are not variables are counted in one note.
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import sparse

from ..exceptions import DataValidationError
from .files import decode_text, require_file
from .loose_names import loose_name

__all__ = [
    "GeneSets",
    "MatchedSets",
    "parse_gene_sets",
    "read_gene_sets",
    "gene_sets_from_bytes",
    "match_gene_sets",
]

#: words that mark a header row of a two-column table
_HEADER_WORDS = {
    "set", "gene_set", "geneset", "gene set", "term", "pathway", "name", "set_name", "module",
    "regulator", "tf", "source", "from", "factor", "transcription_factor", "transcription factor",
    "target", "targets", "gene", "genes", "symbol", "gene_symbol", "to", "target_gene", "member",
}  # fmt: skip
_NUMBER = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
_INTEGER = re.compile(r"^\d+$")


def _first(items: Sequence[str], limit: int = 3) -> str:
    """The first ``limit`` names for a message, each cut to 40 characters (a 5,000-character "name"
    is a broken line, and a message stays one readable line)."""
    shown = ", ".join(repr(s if len(s) <= 40 else s[:39] + "…") for s in items[:limit])
    return shown + (", ..." if len(items) > limit else "")


@dataclass
class GeneSets:
    """Named gene sets as read from a file: ``genes[i]`` are set ``names[i]``'s genes (distinct,
    in file order), ``notes`` what was noticed while reading."""

    names: list[str]
    genes: list[tuple[str, ...]]
    descriptions: list[str]
    source: str
    format: str
    notes: list[str] = field(default_factory=list)
    #: the file's name (as exports record it)
    file: str = ""

    def __len__(self) -> int:
        return len(self.names)

    def summary(self) -> str:
        n_genes = len({g for gs in self.genes for g in gs})
        return f"{len(self):,} gene set(s) ({self.format}) over {n_genes:,} distinct genes"


def _decode(raw: bytes, source: str) -> str:
    binary = "not a gene-set file (binary content); expected a GMT file or a two-column set,gene table."
    return decode_text(raw, source, binary)


def _clean(cell: str) -> str:
    return cell.strip().strip('"').strip("'").strip()


def _lines(text: str) -> tuple[list[str], int]:
    """Non-blank, non-comment lines (Windows and old Mac line endings read) and how many were skipped."""
    kept, skipped = [], 0
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            skipped += 1
            continue
        kept.append(line.rstrip("\r\n"))
    return kept, skipped


def _is_gmt(lines: list[str], name: str) -> bool:
    if name.lower().endswith(".gmt"):
        return True
    fields = [len(line.split("\t")) for line in lines]
    if min(fields) < 2 or max(fields) < 3:
        return False
    if len(set(fields)) > 1:  # sets of different sizes
        return True
    # as many fields on every line: a GMT names each set once, a table repeats a regulator per target
    firsts = [line.split("\t", 1)[0].strip() for line in lines]
    return len(set(firsts)) == len(firsts)


#: a gene with a weight after it, as in Enrichr's libraries ("STAT3,1.0")
_WEIGHTED = re.compile(r"^(.+?),\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _parse_gmt(lines: list[str]) -> tuple[list[tuple[str, str, list[str]]], list[str], int]:
    """(name, description, genes) per line, the problems, and how many genes carried a weight."""
    rows, problems, weighted = [], [], 0
    for n, line in enumerate(lines, 1):
        cells = [_clean(c) for c in line.split("\t")]
        if not cells[0]:
            problems.append(f"line {n} has no set name")
            continue
        description = cells[1] if len(cells) > 1 else ""
        genes = []
        for g in cells[2:]:
            m = _WEIGHTED.match(g)
            if m:
                weighted += 1
                g = m.group(1).strip()
            if g:
                genes.append(g)
        rows.append((cells[0], description, genes))
    return rows, problems, weighted


def _separator(lines: list[str]) -> str:
    sample = lines[:50]
    for sep in ("\t", ",", ";"):
        if all(sep in line for line in sample):
            return sep
    if all(len(line.split()) >= 2 for line in sample):
        return " "
    return ""


def _trimmed(row: list[str]) -> list[str]:
    """``row`` without its empty trailing cells (a separator at the end of a line)."""
    end = len(row)
    while end and not row[end - 1].strip():
        end -= 1
    return row[:end]


def _parse_table(lines: list[str], source: str) -> tuple[list[tuple[str, str, list[str]]], list[str]]:
    sep = _separator(lines)
    if not sep:
        raise DataValidationError(
            f"{source}: not a gene-set file: expected a GMT file (name<TAB>description<TAB>genes...) or a "
            "two-column table of set,gene (or regulator,target) pairs; the lines have a single column."
        )
    rows = [line.split() for line in lines] if sep == " " else list(csv.reader(lines, delimiter=sep))
    widths = {len(_trimmed(row)) for row in rows}
    head = [c.strip().lower() for c in rows[0][:2]]
    firsts = [row[0].strip() for row in rows if row]
    # a table's rows may be ragged (an annotation column such as a PubMed id, empty on some rows):
    # it has a header naming its columns, or its first column repeats (one row per pair)
    table_like = bool(set(head) & _HEADER_WORDS) or len(set(firsts)) < len(firsts)
    if len(widths) > 1 and max(widths) > 2 and not table_like:
        # "SETA X1 X2 X3": a set per line whose fields are not tab-separated; read as pairs, every
        # gene after the first would be lost
        shown = {" ": "spaces", ",": "commas", ";": "semicolons"}.get(sep, "tabs")
        raise DataValidationError(
            f"{source}: its lines have from {min(widths)} to {max(widths)} fields separated by {shown}: one set per "
            "line is the GMT format, with TABS between the set's name, a description and its genes; a table "
            "has one set,gene pair per row."
        )
    pairs = [[_clean(c) for c in row][:2] for row in rows]
    if len(pairs[0]) == 2 and {pairs[0][0].lower(), pairs[0][1].lower()} & _HEADER_WORDS:
        pairs = pairs[1:]
    genes = [p[1] for p in pairs if len(p) == 2 and p[1]]
    decimals = sum(bool(_NUMBER.match(g)) and not _INTEGER.match(g) for g in genes)
    if not genes or decimals > len(genes) / 2:
        raise DataValidationError(
            f"{source}: not a gene-set file: its second column holds "
            + ("no names" if not genes else "numbers (measurements?)")
            + "; expected a GMT file or a two-column table of set,gene (or regulator,target) pairs."
        )
    sets: dict[str, list[str]] = {}
    problems = []
    for n, pair in enumerate(pairs, 1):
        if len(pair) < 2 or not pair[0]:
            problems.append(f"row {n} has no set name or no gene")
            continue
        sets.setdefault(pair[0], []).append(pair[1])
    return [(name, "", genes) for name, genes in sets.items()], problems


def parse_gene_sets(text: str, *, source: str = "gene sets", name: str = "") -> GeneSets:
    """Gene sets from the text of a GMT file or a two-column table (see the module docstring);
    ``name`` is the file's name (``*.gmt`` is read as GMT)."""
    lines, skipped = _lines(text)
    if not lines:
        raise DataValidationError(f"{source}: holds no gene sets (the file is empty).")
    gmt = _is_gmt(lines, name or source)
    rows, problems, weighted = _parse_gmt(lines) if gmt else (*_parse_table(lines, source), 0)
    notes = []
    if weighted:
        notes.append(f"{weighted} gene weight(s) after a comma (as in Enrichr's 'GENE,1.0') ignored")
    if skipped:
        notes.append(f"{skipped} blank or comment line(s) skipped")
    if problems:
        notes.append(
            f"{len(problems)} line(s) skipped: {'; '.join(problems[:3])}{'; ...' if len(problems) > 3 else ''}"
        )
    merged: dict[str, tuple[str, list[str]]] = {}
    repeated_names: list[str] = []
    for set_name, description, genes in rows:
        if set_name in merged:
            repeated_names.append(set_name)
            merged[set_name][1].extend(genes)
        else:
            merged[set_name] = (description, list(genes))
    if repeated_names:
        distinct = list(dict.fromkeys(repeated_names))
        notes.append(
            f"{len(distinct)} set name(s) appear more than once and their genes were merged (first: {_first(distinct)})"
        )
    names, genes_out, descriptions, empty = [], [], [], []
    n_repeats = 0
    for set_name, (description, genes) in merged.items():
        distinct = tuple(dict.fromkeys(genes))
        n_repeats += len(genes) - len(distinct)
        if not distinct:
            empty.append(set_name)
            continue
        names.append(set_name)
        genes_out.append(distinct)
        descriptions.append(description)
    if n_repeats and gmt:
        notes.append(f"{n_repeats} repeated gene(s) within sets counted once")
    elif n_repeats:
        notes.append(f"{n_repeats} repeated (set, gene) row(s) counted once")
    if empty:
        notes.append(f"{len(empty)} set(s) without genes left out (first: {_first(empty)})")
    if not names:
        if not any("\t" in line for line in lines):
            why = ": no line holds a tab, and a GMT file separates the set's name, a description and its genes by tabs"
        elif max(len(line.split("\t")) for line in lines) <= 2:
            why = ": its lines hold a name and a description but no genes (GMT: name<TAB>description<TAB>genes...)"
        else:
            why = ""
        raise DataValidationError(f"{source}: holds no gene sets with genes{why}.")
    fmt = "GMT" if gmt else "two-column table"
    return GeneSets(names, genes_out, descriptions, source, fmt, notes, file=Path(name or source).name)


def read_gene_sets(path: str | os.PathLike, *, label: str = "--gene-sets") -> GeneSets:
    """Read a gene-set file; a missing, unreadable, binary or non-gene-set file raises
    :class:`DataValidationError` naming it."""
    p = require_file(path, label)
    source = f"{label} {p.name}" if label else p.name
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise DataValidationError(f"{label} {path}: cannot be read ({exc.strerror or exc}).") from None
    return parse_gene_sets(_decode(raw, source), source=source, name=p.name)


def gene_sets_from_bytes(raw: bytes, name: str) -> GeneSets:
    """Gene sets from an uploaded file's bytes (the app)."""
    return parse_gene_sets(_decode(raw, name), source=name, name=name)


@dataclass
class MatchedSets:
    """Gene sets restricted to a universe of variable names.

    ``membership`` is a sparse (sets x universe) 0/1 matrix; ``sizes`` each set's genes in the
    universe; ``tested`` the sets with at least one gene in the universe (the others cannot be
    tested); ``notes`` what the matching did (genes absent from the data, matching ignoring case).
    """

    sets: GeneSets
    universe: tuple[str, ...]
    membership: sparse.csr_matrix
    sizes: np.ndarray
    notes: list[str]

    @property
    def tested(self) -> np.ndarray:
        return self.sizes > 0

    @property
    def n_tested(self) -> int:
        return int(self.tested.sum())

    def set_genes(self, i: int) -> list[str]:
        """Set ``i``'s genes that are variables of the data, in the universe's order."""
        row = self.membership.getrow(i)
        return [self.universe[j] for j in np.sort(row.indices)]


def match_gene_sets(sets: GeneSets, universe: Sequence[str]) -> MatchedSets:
    """Restrict ``sets`` to the variable names ``universe`` (see the module docstring)."""
    universe = tuple(str(u) for u in universe)
    index = {name: j for j, name in enumerate(universe)}
    all_genes = list(dict.fromkeys(g for gs in sets.genes for g in gs))
    lookup = {g: index[g] for g in all_genes if g in index}
    notes = []
    unmatched = [g for g in all_genes if g not in lookup]
    if unmatched:
        loose: dict[str, int] = {}
        for name, j in index.items():
            loose.setdefault(loose_name(name), j)
        extra = {g: loose[loose_name(g)] for g in unmatched if loose_name(g) in loose}
        if extra:
            first = next(iter(extra))
            which = "no set gene matches" if not lookup else f"{len(extra):,} set gene(s) match no"
            notes.append(
                f"{which} variable name exactly; {'genes were' if not lookup else 'they were'} matched ignoring "
                f"case and Ensembl version suffixes (e.g. {first!r} = {universe[extra[first]]!r})"
            )
            lookup.update(extra)
    if not lookup:
        raise DataValidationError(
            f"{sets.source}: none of its {len(all_genes):,} genes is a variable of the data (first: "
            f"{_first(all_genes)}; variables: {_first(list(universe))}); check that both use the same gene ids."
        )
    absent = [g for g in all_genes if g not in lookup]
    if absent:
        notes.append(
            f"{len(absent):,} of the {len(all_genes):,} genes in the sets are not variables of the data and are "
            f"left out of the test (first: {_first(absent)})"
        )
    rows, cols = [], []
    for i, genes in enumerate(sets.genes):
        js = sorted({lookup[g] for g in genes if g in lookup})
        rows.extend([i] * len(js))
        cols.extend(js)
    membership = sparse.csr_matrix(
        (np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(len(sets), len(universe)), dtype=np.int32
    )
    sizes = np.asarray(membership.sum(axis=1)).ravel().astype(np.int64)
    untested = [sets.names[i] for i in np.flatnonzero(sizes == 0)]
    if untested:
        notes.append(
            f"{len(untested):,} set(s) have no gene in the data and are not tested (first: {_first(untested)})"
        )
    return MatchedSets(sets, universe, membership, sizes, notes)
