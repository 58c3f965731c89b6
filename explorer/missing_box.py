"""The missing-cells banner of the Home and Search pages, its button that fills the cells the other
way (the quick fill or structural EM, :mod:`explorer.fill_choice`), and the progress bar shown while
the missing cells of a loaded (or turned-round) data set are filled.

The banner's text is :func:`explorer.prepared.banner`: how many cells are missing and where, and
that the search runs on the data completed by the engine's structural EM, and which cells were
filled with what (the first few in the text, all of them in a table under it when there are more).
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from engine.cli.rerun import rerun_command
from engine.exceptions import IdealParentError
from explorer import state
from explorer.fill_choice import FILL_NAMES, em_seconds, fill_of, rough
from explorer.prepared import SHOWN_CELLS, banner
from explorer.settle_fill import keep_orientation, switch_fill

__all__ = ["completed_note", "missing_box", "em_progress"]


def missing_box(compact: bool = False) -> None:
    """Draw the banner (nothing when no cell of the loaded data is missing). ``compact`` (the Search
    page): one line pointing to the Home page, where the whole banner is. The whole banner, eleven
    lines at 6,000 genes, stood between the page's title and its Step button (QA walk)."""
    session = state.session()
    if session is None:
        return
    if compact:
        if session.prepared.pending:  # data that look the wrong way round: filled once the orientation is settled
            st.info(
                f"**This file has {session.prepared.missing_count}**, filled once the "
                "orientation is settled (Transpose above; the Home page says more).",
                icon=":material/grid_off:",
            )
        elif session.prepared.completion is not None:
            ran = fill_of(session.prepared.completion)
            st.info(
                f"**This file has {session.prepared.missing}.** The search runs on the data with them filled once "
                f"by {FILL_NAMES[ran]}: which cells, with what, and the other fill "
                f"({FILL_NAMES['em' if ran == 'quick' else 'quick']}) are on the Home page.",
                icon=":material/grid_off:",
            )
        return
    reading = dict(session.source)  # how the file was read, in the CLI's names (orientation, no header...)
    if session.transposed:  # turned round by the Transpose button since it was loaded
        reading["transpose"] = not reading.get("transpose", False)
    command = rerun_command(reading) if reading.get("data") else None
    text = banner(session.prepared, session.settings.cpd, command)
    if text is None:
        return
    st.info(text, icon=":material/grid_off:")
    if session.prepared.pending:
        _keep_button(session)
        return
    cells = session.prepared.cells()
    if len(cells) > SHOWN_CELLS:
        with st.expander(f"The {len(cells):,} filled cells"):
            st.dataframe(pd.DataFrame(cells), hide_index=True, width="stretch")
    _switch_button(session)


def _switch_button(session) -> None:
    """Fill the cells the other way: structural EM (with about how long) or the quick fill."""
    if fill_of(session.prepared.completion) == "quick":
        label = f"Fill them by structural EM instead ({rough(em_seconds(session.prepared.loaded))} of CPU)"
    else:
        label = "Fill them by the quick fill instead (a second or two)"
    if st.button(label, key="w_missing_switch"):
        try:
            session.notice = switch_fill(session, progress=em_progress())
        except IdealParentError as exc:
            st.error(f"Not filled: {exc}")
            return
        st.rerun()


def _keep_button(session) -> None:
    """The pending fill's other way out: these data are the right way round after all."""
    if st.button("Keep this orientation and fill them", key="w_missing_keep"):
        try:
            session.notice = keep_orientation(session, progress=em_progress())
        except IdealParentError as exc:
            st.error(f"Not filled: {exc}")
            return
        st.rerun()


def em_progress() -> Callable[[int, int, str], None]:
    """A ``progress(iteration, of, text)`` for :func:`explorer.prepared.prepare` that draws a
    progress bar where it is called (nothing is drawn when no cell is missing)."""
    return state.progress_bar(st.empty())


def completed_note(session) -> str | None:
    """One line for a page that reads the data per instance (the Hidden page's profiles): how many
    cells were filled for the search; None when none was missing."""
    cells = session.prepared.cells()
    if not cells:
        return None
    total = session.prepared.loaded.values.size
    return (
        f"Proposals and profiles use the data completed for the search: {len(cells):,} of the {total:,} cells "
        f"({len(cells) / total:.1%}) were missing and are filled by {FILL_NAMES[fill_of(session.prepared.completion)]} "
        "(the Home page lists them)."
    )
