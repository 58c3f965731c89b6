"""Gene symbols from the uploaded file's annotation column as the variables' names (a data edit).

An expression file with genes in rows often carries a symbol column beside the ids (``b1334`` and
``fnr``). The loader sets it aside as an annotation (:mod:`explorer.load_notes`), and every page then
spoke in ids: a biologist reviewing an *E. coli* proposal read ``b1881, b1882, ...`` where the file
said ``cheR, cheB, ...`` (the FliA regulon), and a regulator list or gene-set file of symbols matched
no variable. :func:`name_genes` renames the variables by that column, as an undoable data edit
(:class:`NameGenes`) with a new search on the renamed data, as a Transpose does
(:func:`explorer.actions.transpose_data`); nothing is recomputed but the search. A symbol missing or
shared by several genes keeps its gene's id, so names stay unique. The sidebar offers it
(:func:`offer`, under the annotation note); keys start with ``ip_genenames_``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from engine.exceptions import IdealParentError
from explorer import state
from explorer.actions import DataState, edit_data
from explorer.loading import read_upload
from explorer.long_action import run_data_edit

if TYPE_CHECKING:
    from explorer.session import SearchSession

__all__ = ["NAMED", "NameGenes", "symbols_of", "renamed", "name_genes", "offer", "symbols_hint"]

#: the dataset note a renaming adds (export's rerun note reads it)
NAMED = "named the genes by column "
KEY_NAME = "ip_genenames_name"
#: a column is offered when at least this share of its cells are distinct one-word symbols
SYMBOL_SHARE = 0.5


@dataclass(frozen=True)
class NameGenes:
    """The variables renamed by an annotation column (a data edit); keeps the data and search from before."""

    previous: DataState
    column: str
    #: (gene id, its new name) for each gene the edit renamed: a list of ids is mapped through it
    #: (:mod:`explorer.regulator_ids`)
    renames: tuple[tuple[str, str], ...] = ()

    def undo(self, session: SearchSession) -> str:
        session.set_data(self.previous)
        return f"The genes are named by their ids again (not by {self.column}); the search is the one from before."


def symbols_of(frame: pd.DataFrame, column: str) -> dict[str, str]:
    """Each gene id (the table's first column) -> its symbol in ``column`` (blank cells left out)."""
    ids = frame.iloc[:, 0].astype(str).str.strip()
    out = {}
    for gid, sym in zip(ids, frame[column], strict=True):
        if isinstance(sym, str) and sym.strip():
            out[gid] = sym.strip()
    return out


def renamed(names: Sequence[str], symbols: dict[str, str]) -> tuple[list[str], int]:
    """``names`` with each one replaced by its symbol where the symbol names that gene only and is
    no other variable's name; the others keep their ids. Returns the new names and how many kept their id."""
    count = Counter(symbols.get(n) for n in names)
    own = set(names)
    new = [s if (s := symbols.get(n)) and count[s] == 1 and (s == n or s not in own) else n for n in names]
    repeated = {n for n, k in Counter(new).items() if k > 1}  # a kept id that is another gene's symbol
    new = [old if n in repeated else n for n, old in zip(new, names, strict=True)]
    return new, sum(n == old and symbols.get(old) != old for n, old in zip(new, names, strict=True))


def name_genes(session: SearchSession, symbols: dict[str, str], column: str, progress=None) -> str:
    """Rename the session's variables by ``symbols`` (:func:`renamed`) and start a search on them with
    the same settings and the regulator list renamed alike; the edit goes on the undo stack. Raises
    :class:`~engine.exceptions.IdealParentError` when no variable has a symbol (nothing changes)."""
    loaded = session.prepared.loaded
    new, kept = renamed(loaded.names, symbols)
    if new == list(loaded.names):
        raise IdealParentError(f"no variable's id has a symbol in column {column!r}.")
    to = dict(zip(loaded.names, new, strict=True))
    note = f"{NAMED}'{column}' ({kept:,} kept their id: symbol missing or shared)"
    data = dataclasses.replace(loaded, names=tuple(new), notes=(*loaded.notes, note))
    regs = [to.get(r, r) for r in session.regulators] if session.regulators else None
    renames = tuple((old, n) for old, n in to.items() if old != n)
    edit_data(session, data, regs, lambda previous: NameGenes(previous, column, renames), progress)
    return (
        f"Genes named by {column}: {len(new) - kept:,} of {len(new):,} by their symbol ({kept:,} kept their id), "
        "with a new search on them. Undo (Search page) takes it back."
    )


def _symbol_column(frame: pd.DataFrame, columns: Sequence[str]) -> str | None:
    """The first of the annotation ``columns`` that reads as gene symbols: mostly distinct one-word cells."""
    for c in columns:
        if c not in frame.columns:
            continue
        cells = frame[c].dropna().astype(str).str.strip()
        words = cells[(cells != "") & ~cells.str.contains(r"\s")]
        if len(frame) and words.nunique() >= SYMBOL_SHARE * len(frame):
            return c
    return None


def _loaded_table(upload) -> pd.DataFrame | None:
    """The uploader's file read as a table when it is the file the loaded data came from, else None: a
    newer upload that did not load (not a table, empty, another file) keeps the loaded data, and its
    error is said once by the sidebar, not raised again here."""
    if upload is None or not hasattr(upload, "getvalue"):
        return None
    data = upload.getvalue()
    key = state.get(state.DATA_KEY)
    if not key or tuple(key[:4]) != ("upload", upload.name, len(data), hash(data)):
        return None
    try:
        return read_upload(data, upload.name)
    except IdealParentError:
        return None


def _annotation_symbols(upload) -> tuple[str, pd.DataFrame] | None:
    """The uploaded file's symbol column and its table, when the loaded data (from that file) set one aside."""
    from explorer.load_notes import annotation_columns

    session = state.session()
    if session is None:
        return None
    for note in session.dataset.notes:
        columns = annotation_columns(note, True)
        if columns is not None:
            frame = _loaded_table(upload)
            column = None if frame is None else _symbol_column(frame, [c.strip() for c in columns.split(",")])
            return None if column is None else (column, frame)
    return None


def symbols_hint(listed: Sequence[str] | None, upload) -> str | None:
    """After a regulator list that names no variable: where its names are symbols of the uploaded
    file's annotation column (a TF list of symbols beside a table of ids), how to use them; else None."""
    found = _annotation_symbols(upload)
    if not listed or found is None or NAMED in " ".join(state.session().dataset.notes):
        return None
    column, frame = found
    known = {str(v).strip().lower() for v in frame[column].dropna()}
    hits = sum(str(r).strip().lower() in known for r in listed)
    if not hits:
        return None
    return (
        f"{hits} of the {len(listed)} listed names are symbols in the file's column {column}: press "
        f'"Name genes by {column}" in the sidebar (under the loaded data), then Apply the list again.'
    )


def offer(columns: str, upload) -> None:
    """Under the sidebar's annotation note (the set-aside ``columns``, comma-separated, of the
    uploaded file ``upload``): a button naming the genes by the symbol column, or what was done."""
    session = state.session()
    done = [n for n in session.dataset.notes if n.startswith(NAMED)]
    if done:
        how = done[-1][len("named the genes ") :]
        st.caption(f"Genes named {how}. Undo on the Search page names them by id again.")
        return
    frame = _loaded_table(upload)
    if frame is None:
        return
    column = _symbol_column(frame, [c.strip() for c in columns.split(",")])
    if column is None:
        return
    first = ", ".join(str(s) for s in frame[column].dropna().head(3))
    if st.button(
        f"Name genes by {column} ({first}, ...)",
        key=KEY_NAME,
        help="Use this column's symbols as the genes' names everywhere (network, proposals, regulator list, gene "
        "sets, exports) instead of the ids of the first column; a new search starts on the renamed data. A symbol "
        "missing or shared by several genes keeps the id.",
    ):
        run_data_edit(
            f"Naming genes by {column}…",
            "Not renamed",
            lambda: name_genes(session, symbols_of(frame, column), column),
            clear_error=True,
        )
