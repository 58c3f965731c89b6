"""The sidebar's offer of a GEO series matrix's sample characteristics as covariates: the app's
``learn --covariates geo``.

When the uploaded data file is a series matrix whose ``!Sample_characteristics`` fields can be
covariates (:mod:`engine.io.geo_samples`: ``treatment``, ``batch``, ``time``...), the covariates box
lists them, with the fields skipped and why, and one button adds them as the sheet upload would
(:func:`explorer.covariates_box.apply_table`: parent-only variables, the search started again on
them). With the samples still the columns (the file read as it is), the button waits for Transpose.
"""

from __future__ import annotations

import streamlit as st

from engine.cli.covariates import GEO
from engine.exceptions import IdealParentError
from engine.io.covariates import ids_name_variables
from engine.io.geo_samples import SampleCharacteristics, read_characteristics
from explorer import covariates_box, state

__all__ = ["offer", "characteristics", "W_GEO"]

W_GEO = "w_geo_covariates"


@st.cache_data(max_entries=4, show_spinner=False)
def characteristics(data: bytes, name: str) -> SampleCharacteristics | None:
    """The sample characteristics of an uploaded file, None when it is not a series matrix with some."""
    if not data.startswith((b"!", b"\xef\xbb\xbf!", b"\x1f\x8b")):
        return None
    try:
        return read_characteristics(data, name)
    except IdealParentError:
        return None


def _in_use(chars: SampleCharacteristics, covariates) -> bool:
    """Whether the data carry covariates coded from these fields already."""
    fields = set(chars.usable)
    return any(c in fields or c.partition("=")[0] in fields for c in covariates)


def offer() -> None:
    """The fields of the loaded series matrix and the button that adds them (nothing for other data)."""
    session = state.session()
    uploaded = st.session_state.get(state.W_UPLOAD)
    if not hasattr(uploaded, "getvalue"):
        # no file, or Streamlit's DeletedFile (a file its upload store no longer holds: seen after a
        # quarter of an hour on a 6,000-gene table, QA walk), which has no name: every page was a
        # traceback from here, although the data stay loaded
        return
    if session is None or (session.source or {}).get("data") != uploaded.name:
        return
    chars = characteristics(uploaded.getvalue(), uploaded.name)
    if chars is None or not chars.usable:
        return
    loaded = session.prepared.loaded
    if _in_use(chars, loaded.covariates):  # what they became is the note above (covariates_box)
        st.caption(f"The sample characteristics of {uploaded.name} are covariates of the data (CLI: --covariates geo).")
        return
    skipped = f" Skipped: {', '.join(chars.skipped)}." if chars.skipped else ""
    turned = ids_name_variables(chars.frame, loaded)
    st.caption(
        f"{uploaded.name} describes its samples by {', '.join(chars.usable)} (GEO sample characteristics)."
        + skipped
        + (" Transpose first: the samples are the columns." if turned else "")
    )
    name = f"{uploaded.name}'s sample characteristics"
    if st.button("Use them as covariates", key=W_GEO, disabled=turned, help="CLI: --covariates geo"):
        try:
            note = covariates_box.apply_table(chars.frame, name, chars.categorical, chars.skipped, recorded=GEO)
        except IdealParentError as exc:  # e.g. a field clashing with a gene's name: the data stay as they were
            st.error(f"Covariates not added: {exc} The data are as they were.")
            return
        covariates_box.said(note)
        st.rerun()
