"""The sidebar's "Sample annotations (covariates)" upload: the app's ``learn --covariates FILE``.

A CSV/TSV whose first column holds the instance (condition) ids of the loaded data and whose other
columns are annotations such as batch (:mod:`engine.io.covariates`: coded, checked and appended
by the engine). On a new upload the data get the covariates as variables that may only be
parents (named in ``Dataset.covariates``, which the engine's searches read: :mod:`engine.parent_only`):
the search starts again on them with the same settings, the regulator list in force (if any) gains
them, and the Hidden page never proposes them as a hidden variable's children. A bad table is one
``st.error`` line; the data stay as they were.
"""

from __future__ import annotations

import io

import streamlit as st

from engine.exceptions import IdealParentError
from engine.io.covariates import add_covariates, code_covariates, read_covariate_table
from engine.io.covariates import with_covariates as engine_with_covariates
from explorer import state

__all__ = ["sidebar_box", "apply_covariates", "with_covariates", "W_COVARIATES"]

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


def apply_covariates(data: bytes, name: str) -> str:
    """Append the covariate table ``data`` (file ``name``) to the session's data and restart the
    search on them; returns the one-line note of what was read. Raises
    :class:`~engine.exceptions.IdealParentError` (nothing changed) for a bad table."""
    from explorer.session import SearchSession

    s = state.session()
    frame = read_covariate_table(io.BytesIO(data), name)
    loaded = s.prepared.loaded
    cov = code_covariates(frame, loaded.instance_labels, loaded.names, source=name)
    dataset = add_covariates(loaded, cov)
    new = SearchSession(
        dataset, s.truth, s.label, s.settings, regulators=engine_with_covariates(s.regulators, cov.names)
    )
    if s.compare:
        new.set_compare(True)
    new.source = {**s.source, "covariates": name}
    state.put(state.SESSION, new)
    return f"Covariates: {cov.line()}."


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
