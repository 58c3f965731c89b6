"""A candidate-regulator list of gene ids given after the genes were named by their symbols.

After the sidebar's "Name genes by gene_name" (:mod:`explorer.gene_names`) the variables are the
symbols (``fnr``, ``cheR``) and a transcription-factor list in ids (``b1334``) matched none of them:
Apply was refused with "check the names against the data's column names", which never said that the
table is now named by symbols (or, when a few ids had kept their id, the list applied to those few).
:func:`reading` finds the listed names that are ids of renamed genes, :func:`explain` says so, with
the names that match nothing at all, and :func:`offer` gives one button mapping the list's ids
through the same column (the mapped list goes in the text box, nothing of it dropped) and applying
it. The candidate set is the paper's restriction of parents to regulators (Section 7.2's
transcription factors); only the names change. Keys start with ``ip_regids_``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

from engine.io.regulators import parse_regulators
from engine.listing import first_few
from explorer import gene_names, lab_options, state

__all__ = ["IdReading", "renames_of", "reading", "explain", "offer", "KEY_MAP", "OFFERED"]

KEY_MAP = "ip_regids_map"
#: session-state key: the :class:`IdReading` of the last Apply, while its button is offered
OFFERED = "ip_regids_offered"
#: ``id → symbol`` pairs shown in a message, at most
SHOWN = 4


@dataclass(frozen=True)
class IdReading:
    """A regulator list read against genes renamed by ``column``: its ids and what matched nothing."""

    column: str
    #: the listed names that are ids of renamed genes, in the list's order
    ids: tuple[str, ...]
    #: each id's name now (its symbol), in the same order
    symbols: tuple[str, ...]
    #: listed names that are neither a variable nor the id of a renamed gene
    unmatched: tuple[str, ...]
    #: how many names were listed
    n_listed: int


def renames_of(session) -> tuple[str, dict[str, str]] | None:
    """The symbol column of the genes' renaming in force and its ``id → new name`` map; None when
    the genes are named by their ids. Read from the renaming on the undo stack, or else (a stack
    emptied by a later edit) again from the uploaded file's column, as :func:`gene_names.name_genes` did."""
    named = [n for n in session.dataset.notes if n.startswith(gene_names.NAMED)]
    if not named:
        return None
    for action in reversed(session.undo_stack):
        if isinstance(action, gene_names.NameGenes):
            return action.column, dict(action.renames)
    column = named[-1][len(gene_names.NAMED) :].split("'")[1]
    upload = st.session_state.get(state.W_UPLOAD)
    if upload is None or not hasattr(upload, "getvalue"):
        return None
    frame = gene_names.read_upload(upload.getvalue(), upload.name)
    if column not in frame.columns:
        return None
    ids = list(frame.iloc[:, 0].astype(str).str.strip())
    new, _ = gene_names.renamed(ids, gene_names.symbols_of(frame, column))
    return column, {old: n for old, n in zip(ids, new, strict=True) if old != n}


def reading(listed: Sequence[str] | None, session) -> IdReading | None:
    """``listed`` read against the renamed genes: None unless some listed name, not a variable, is
    the id of a gene now named by its symbol (matched exactly, else ignoring case)."""
    found = renames_of(session) if listed else None
    if found is None:
        return None
    column, to = found
    lower = {k.lower(): v for k, v in to.items()}
    names = set(session.dataset.names)
    ids, symbols, unmatched = [], [], []
    for r in dict.fromkeys(listed):
        if r in names:
            continue
        symbol = to.get(r) or lower.get(r.lower())
        if symbol is None:
            unmatched.append(r)
        else:
            ids.append(r)
            symbols.append(symbol)
    if not ids:
        return None
    return IdReading(column, tuple(ids), tuple(symbols), tuple(unmatched), len(dict.fromkeys(listed)))


def explain(r: IdReading) -> str:
    """The message: which listed names are ids of renamed genes, that the table is named by the
    symbols now, what matched nothing, and the two ways on."""
    pairs = first_few((f"{i} → {s}" for i, s in zip(r.ids, r.symbols, strict=True)), SHOWN)
    said = (
        f"{len(r.ids)} of the {r.n_listed} listed names are gene ids ({pairs}), but the genes are now named by "
        f'their {r.column} symbols (the sidebar\'s "Name genes by {r.column}"), so those ids match no gene.'
    )
    if r.unmatched:
        said += f" Neither a gene nor a gene id of the data: {first_few(r.unmatched, 10)}."
    return (
        f'{said} Press "Map the list\'s ids through {r.column}" (under the settings) to use their symbols, '
        "or Undo on the Search page to name the genes by id again."
    )


def offer(apply: Callable[[], None]) -> None:
    """After an Apply whose list held ids of renamed genes: the button mapping them and applying
    the list again with ``apply`` (the sidebar's Apply)."""
    r = state.get(OFFERED)
    session = state.session()
    if r is None or session is None or renames_of(session) is None:
        return
    st.button(
        f"Map the list's ids through {r.column}",
        key=KEY_MAP,
        on_click=_map_and_apply,
        args=(apply,),
        type="primary",
        width="stretch",
        help=f"Each listed gene id becomes its gene's {r.column} symbol, as the genes were renamed; the mapped list "
        "goes in the text box above (the uploaded file's names too) and is applied.",
    )


def _map_and_apply(apply: Callable[[], None]) -> None:
    """The button's action: the list (box and file) with its ids mapped, in the box; then Apply."""
    session = state.session()
    column, to = renames_of(session)
    lower = {k.lower(): v for k, v in to.items()}
    names = set(session.dataset.names)
    listed = parse_regulators(lab_options.widgets_text(), source="the regulator list")
    mapped = [r if r in names else to.get(r) or lower.get(r.lower()) or r for r in listed]
    n_mapped = sum(m != r for m, r in zip(mapped, listed, strict=True))
    st.session_state[state.W_REGULATORS] = "\n".join(dict.fromkeys(mapped))
    if state.get(lab_options.regulator_file_key()) is not None:  # its names are in the box now, mapped
        state.put(state.REGULATOR_FILE_GEN, int(state.get(state.REGULATOR_FILE_GEN) or 0) + 1)
    state.put(OFFERED, None)
    apply()
    note = state.get(state.REGULATOR_NOTE)
    said = f"{n_mapped} gene id(s) of the list mapped through {column} to their symbols; the mapped list is in the box."
    if note is not None:
        state.put(state.REGULATOR_NOTE, (note[0], f"{said} {note[1]}"))
    elif state.get(state.ERROR):
        state.put(state.ERROR, f"{state.get(state.ERROR)} ({said})")
