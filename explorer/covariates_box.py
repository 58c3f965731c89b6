"""The sidebar's "Sample annotations (covariates)" upload: the app's ``learn --covariates FILE``.

A CSV/TSV whose first column holds the instance (condition) ids of the loaded data and whose other
columns are annotations such as batch (:mod:`engine.io.covariates`: coded, checked and appended
by the engine). On a new upload the data get the covariates as variables that may only be
parents (named in ``Dataset.covariates``, which the engine's searches read: :mod:`engine.parent_only`):
the search starts again on them with the same settings, the regulator list in force (if any) gains
them, and the Hidden page never proposes them as a hidden variable's children. A bad table is one
``st.error`` line; the data stay as they were.

Covariates annotate the samples and follow them: a table keyed by the data's *variables* (a genes x
samples file not turned round yet) is set aside with a caption until Transpose makes the samples
the instances, and is then added to the turned data (the upload is applied again on every new data
version); a Transpose of data that carry covariates sets them aside (:func:`explorer.actions.transpose_data`),
and Undo transpose brings the data back as they were.
"""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import streamlit as st

from engine.exceptions import IdealParentError
from engine.io.covariates import add_covariates, code_covariates, ids_name_variables, read_covariate_table
from engine.io.covariates import with_covariates as engine_with_covariates
from explorer import state

__all__ = ["sidebar_box", "apply_covariates", "apply_table", "said", "with_covariates", "W_COVARIATES", "SetAside"]

W_COVARIATES = "w_covariates"
#: (file identity, data version) of the last table applied or refused, and the note said of it
_SEEN = "ip_covariates_seen"
_NOTE = "ip_covariates_note"


def with_covariates(regulators: list[str] | None) -> list[str] | None:
    """A regulator list with the loaded data's covariates added (None stays None: all may be parents)."""
    session = state.session()
    if session is None:
        return regulators
    return engine_with_covariates(regulators, session.dataset.covariates)


class SetAside(Exception):
    """The table's ids are the data's variables: kept for when the samples are the instances."""


def apply_covariates(data: bytes, name: str) -> str:
    """Append the covariate table ``data`` (file ``name``) to the session's data and restart the
    search on them (the data edits on the undo stack, e.g. a Transpose, and the orientation are
    kept); returns the one-line note of what was read. Raises
    :class:`~engine.exceptions.IdealParentError` (nothing changed) for a bad table, and
    :class:`SetAside` when its ids are the data's variables (the samples are the columns)."""
    return apply_table(read_covariate_table(io.BytesIO(data), name), name)


def apply_table(frame, name: str, categorical=(), skipped=(), recorded: str | None = None) -> str:
    """:func:`apply_covariates` for a sheet already read (cells as text), e.g. a GEO series matrix's
    sample characteristics (:mod:`explorer.geo_covariates`): ``categorical`` names numeric columns
    coded as levels, ``skipped`` the annotations not used, each with why (said in the note), and
    ``recorded`` what the export's ``covariates`` setting says (``--covariates``'s value; ``name``)."""
    from explorer import actions
    from explorer.session import SearchSession

    s = state.session()
    loaded = s.prepared.loaded
    if ids_name_variables(frame, loaded):
        raise SetAside(
            f"Covariates set aside: the ids of {name} are the variables of the data as now oriented (the samples "
            "are its columns). They are added when the samples are the instances (Transpose, or Undo transpose)."
        )
    if loaded.covariates and _already_added(frame, loaded, name, categorical):
        return f"Covariates: those of {name} are in the data already (e.g. brought back by Undo transpose)."
    cov = code_covariates(frame, loaded.instance_labels, loaded.names, source=name, categorical=categorical)
    cov = dataclasses.replace(cov, skipped=tuple(skipped))
    dataset = add_covariates(loaded, cov)
    new = SearchSession(
        dataset, s.truth, s.label, s.settings, regulators=engine_with_covariates(s.regulators, cov.names)
    )
    if s.compare:
        new.set_compare(True)
    new.source = {**s.source, "covariates": recorded or name}
    new.transposed = s.transposed  # a Transpose stays undoable (it restores the data it turned round)
    new.undo_stack = [a for a in s.undo_stack if isinstance(a, actions.TransposeData)]
    state.put(state.SESSION, new)
    return f"Covariates: {cov.line()}."


def _already_added(frame, loaded, name: str, categorical=()) -> bool:
    """Whether ``loaded`` carries the covariates ``frame`` codes, with the same values (e.g. data
    with covariates turned round and back by Undo transpose): nothing to add again."""
    own = [n for n in loaded.names if n not in set(loaded.covariates)]
    cov = code_covariates(frame, loaded.instance_labels, own, source=name, categorical=categorical)
    if not set(cov.names) <= set(loaded.covariates):
        return False
    cols = [loaded.names.index(n) for n in cov.names]
    return bool(np.allclose(loaded.original_values()[:, cols], cov.values))


def said(note: str) -> None:
    """Show ``note`` under the box until the data change (covariates added without the upload)."""
    seen = ("note", note)
    state.put(_SEEN, (seen, state.session().data_version))
    state.put(_NOTE, ("info", note, seen))


def sidebar_box() -> None:
    """The uploader, and the note of the table applied (or the error of a refused one)."""
    uploaded = st.file_uploader(
        "Sample annotations (covariates, optional)",
        type=["csv", "tsv", "txt", "tab"],
        key=W_COVARIATES,
        help="A CSV/TSV whose first column holds the instance (condition) ids of the loaded data and whose "
        "other columns are annotations such as batch: text columns become indicators (batch=b2...), numbers "
        "are used as they are. They may only be parents: never proposed as a hidden regulator. Removing the file does "
        "not take them out of the loaded data. CLI: --covariates.",
    )
    session = state.session()
    if uploaded is not None and session is not None:
        data = uploaded.getvalue()
        seen = (uploaded.name, len(data), hash(data))
        if state.get(_SEEN) != (seen, session.data_version):
            try:
                note = apply_covariates(data, uploaded.name)
            except SetAside as aside:
                state.put(_SEEN, (seen, session.data_version))
                state.put(_NOTE, ("info", str(aside), seen))
            except IdealParentError as exc:
                state.put(_SEEN, (seen, session.data_version))
                state.put(_NOTE, ("error", f"Covariates not added: {exc} The data are as they were.", seen))
            else:
                state.put(_SEEN, (seen, state.session().data_version))
                state.put(_NOTE, ("info", note, seen))
                st.rerun()  # the sidebar's summary and regulator list above are drawn again with them
    note = state.get(_NOTE)
    if note is not None and session is not None and state.get(_SEEN) == (note[2], session.data_version):
        (st.caption if note[0] == "info" else st.error)(note[1])
